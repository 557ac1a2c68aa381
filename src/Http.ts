/**
 * Wiring: every service layer once, the API with its middlewares, the server.
 * Tests provide `AppLive` with their own configuration and a server on a random loopback port.
 */
import { HttpApiBuilder, HttpApp, HttpMiddleware, HttpRouter, HttpServer } from "@effect/platform"
import { Effect, FiberRef, Layer, Option } from "effect"
import { AlertsLive } from "./alerts/http"
import { AlertsWorkers } from "./alerts/Workers"
import { Api } from "./Api"
import { AnalyticsLive } from "./analytics/http"
import { AnalyticsWorkers } from "./analytics/Pruning"
import { Accounts } from "./account/Accounts"
import { AccountLive } from "./account/http"
import { KeyActivity } from "./account/KeyActivity"
import { AuthLive, Bearer } from "./auth/Auth"
import { Keys } from "./auth/Keys"
import { AppConfig } from "./Config"
import { ConsoleLive } from "./console/http"
import { CtAggregator } from "./ct/CtAggregator"
import { CtLive } from "./ct/http"
import { DnsResolver } from "./dns/DnsResolver"
import { DnsLive } from "./dns/http"
import { ZoneHygiene } from "./dns/zone/ZoneHygiene"
import { DnssecValidator } from "./dnssec/DnssecValidator"
import { ContentFreshness } from "./freshness/ContentFreshness"
import { FreshnessLive } from "./freshness/http"
import { AttributedLive } from "./http/Attributed"
import * as BunServer from "./http/bunServer"
import { Deadlines } from "./http/Deadlines"
import { makeOperations, Operations, type RawRoute, routerConfig } from "./http/Operation"
import { pipeline, pipelineDeps, trackingHeaders } from "./http/pipeline"
import { renderErrors } from "./http/renderErrors"
import { RequestObserverLive } from "./http/RequestObserver"
import { Quota } from "./metering/Quota"
import { RequestLog } from "./metering/RequestLog"
import { CtHistory } from "./mcp/CtHistory"
import { McpLive, mcpRawRoutes } from "./mcp/http"
import { MonitorsLive } from "./monitors/http"
import { MonitorsWorkers } from "./monitors/Scheduler"
import { cors } from "./observability/cors"
import { MetricsRoute } from "./observability/routes"
import { OpenApiRoutes } from "./openapi/routes"
import { NetworkLive } from "./network/http"
import { HttpProbe } from "./probe/HttpProbe"
import { SqlLive } from "./store/Sql"
import { SecurityHeadersLive } from "./surfaces/rest/headers/http"
import { HttpSecurityGrade } from "./analyses/observatory/HttpSecurityGrade"
import { SystemLive } from "./system/http"
import { WafLive } from "./waf/http"
import { WafDetection } from "./waf/WafDetection"
import { MAX_BODY_BYTES } from "./http/body"
import { HTTP_CHECK_MARGIN_MS, HTTP_CHECK_MAX_TIMEOUT_MS } from "./network/api"

/** Routes mounted beside the HttpApi (raw handlers). */
export const rawRoutes: ReadonlyArray<RawRoute> = [...mcpRawRoutes]

/** Every operation the router can match, by its route: operation id, category, plan, deadline. */
export const OperationsLive = Layer.sync(Operations, () => makeOperations(Api, rawRoutes))

/**
 * The CT aggregator with its retry budget cut to fit inside the operation's deadline (with room
 * for the rest of the CT operation), so its retries end in its own 502 before the deadline's.
 */
const CtWithinDeadline = CtAggregator.Live.pipe(
  Layer.provide(Layer.effect(AppConfig, Effect.map(AppConfig, (c) => ({
    ...c,
    ctBudgetMs: Math.max(500, Math.min(c.ctBudgetMs, c.operationDeadlineMs - 3000))
  }))))
)

/** Services shared by the server and the CLI. */
export const ServicesLive = Bearer.Default.pipe(
  Layer.provideMerge(Layer.mergeAll(KeyActivity.Default, Quota.Default, RequestLog.Default, OperationsLive)),
  Layer.provideMerge(Layer.mergeAll(Keys.Default, Accounts.Default.pipe(Layer.provide(Keys.Default)))),
  Layer.provideMerge(ZoneHygiene.Live),
  Layer.provideMerge(Layer.mergeAll(HttpProbe.Live, DnssecValidator.Live, CtWithinDeadline).pipe(Layer.provideMerge(DnsResolver.Live))),
  Layer.provideMerge(SqlLive)
)

const GroupsLive = Layer.mergeAll(AccountLive, SystemLive, NetworkLive, AnalyticsLive, AlertsLive, DnsLive, CtLive, FreshnessLive, WafLive, MonitorsLive, SecurityHeadersLive).pipe(
  Layer.provide(Layer.mergeAll(ContentFreshness.Live, WafDetection.Live, HttpSecurityGrade.Live))
)

/** Background fibers (alert evaluator and outbox, request-log pruning, monitor scheduler), scoped to the server. */
const WorkersLive = Layer.mergeAll(AlertsWorkers, AnalyticsWorkers, MonitorsWorkers)

const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide(GroupsLive),
  Layer.provide(Layer.mergeAll(AuthLive, AttributedLive))
)

/** The API served on whatever HttpServer is provided (needs ServicesLive and AppConfig). */
export const AppLive = Layer.unwrapEffect(
  Effect.map(pipelineDeps, (deps) => HttpApiBuilder.serve((app) => cors(deps.config.corsOrigins)(pipeline(app, deps))))
).pipe(
  Layer.provide(OpenApiRoutes), // /openapi.json and /docs, built on first request
  Layer.provide(MetricsRoute), // /metrics
  Layer.provide(renderErrors),
  Layer.provide(ApiLive),
  Layer.provide(WorkersLive),
  // MCP (raw route beside the HttpApi); ssl_certificate enriched with CT history from the aggregator.
  Layer.provide(McpLive.pipe(Layer.provide(CtHistory.FromAggregator))),
  // The web console (src/console): an open page beside the API, like /docs.
  Layer.provide(ConsoleLive),
  Layer.provide(Layer.mergeAll(RequestObserverLive, Deadlines.Default)),
  HttpServer.withLogAddress,
  // Exact, case-sensitive matching (src/http/Operation.ts).
  Layer.provide(HttpRouter.setRouterConfig(routerConfig)),
  // No trace exporter is configured, so spans (per-request server spans, `Effect.fn` and SQL
  // statement spans) would be pure cost on the hot path: the tracer is off for everything the
  // server runs.
  HttpMiddleware.withTracerDisabledWhen(() => true),
  (layer) => Layer.locally(layer, FiberRef.currentTracerEnabled, false),
  // X-Request-Id, X-RateLimit-*, … on every answer the HttpApi sends (src/http/pipeline.ts).
  (layer) => Layer.locally(layer, HttpApp.currentPreResponseHandlers, Option.some(trackingHeaders))
)

/** Longest deadline of any operation: OPERATION_DEADLINE_MS or http-check's largest timeout + margin. */
export const longestDeadlineMs = (config: AppConfig["Type"]) =>
  Math.max(config.operationDeadlineMs, HTTP_CHECK_MAX_TIMEOUT_MS + HTTP_CHECK_MARGIN_MS)

/**
 * Bun.serve on `port`/`hostname` (src/http/bunServer.ts). Its idle timeout (seconds without a byte either way; Bun's
 * default 10 s cut slow operations into empty replies) stays above the longest deadline, so every
 * request gets its answer. Bodies: the pipeline refuses past 1 MiB in the envelope
 * (src/http/body.ts); Bun's own limit is a backstop above that.
 */
export const serverLayer = (options: { readonly port: number; readonly hostname: string }) =>
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) =>
      BunServer.layer({
        ...options,
        idleTimeout: Math.min(255, Math.ceil(longestDeadlineMs(config) / 1000) + 5),
        maxRequestBodySize: 8 * MAX_BODY_BYTES
      }))
  )

/** The server as `serve` runs it, on PORT/HOST. */
export const ServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (c) => AppLive.pipe(Layer.provide(serverLayer({ port: c.port, hostname: c.host }))))
)
