/**
 * Wiring: every service layer once, the API with its middlewares, the server.
 * Tests provide `AppLive` with their own configuration and a server on a random loopback port.
 */
import { HttpApiBuilder, HttpApp, HttpMiddleware, HttpRouter, HttpServer } from "@effect/platform"
import { Duration, Effect, FiberRef, Layer, Option } from "effect"
import { AlertsLive } from "../handlers/alerts"
import { AlertsWorkers } from "../../product/alerts/Workers"
import { Api } from "../api/Api"
import { AnalyticsLive } from "../handlers/analytics"
import { AnalyticsWorkers } from "../../product/analytics/Pruning"
import { Accounts } from "../../product/accounts/Accounts"
import { AccountLive } from "../handlers/account"
import { KeyActivity } from "../../product/accounts/KeyActivity"
import { AuditTokensLive } from "../../product/accounts/auditTokens"
import { AuthLive, Bearer } from "../../product/auth/Auth"
import { Keys } from "../../product/accounts/Keys"
import { AppConfig } from "../../platform/Config"
import { ConsoleLive } from "../console/http"
import { CtAggregator } from "../../adapters/ct/CtAggregator"
import { CtLive } from "../handlers/ct"
import { DnsResolver } from "../../adapters/dns/DnsResolver"
import { DnsLive } from "../handlers/dns"
import { ZoneHygiene } from "../../analyses/zone/ZoneHygiene"
import { DnssecValidator } from "../../adapters/dnssec/DnssecValidator"
import { ContentFreshness } from "../../analyses/freshness/ContentFreshness"
import { FreshnessLive } from "../handlers/freshness"
import { AttributedLive } from "../../platform/http/Attributed"
import * as BunHttpServer from "@effect/platform-bun/BunHttpServer"
import { Deadlines } from "../../platform/http/Deadlines"
import { makeOperations, Operations, type RawRoute, routerConfig } from "../../platform/http/Operation"
import { pipeline, pipelineDeps, trackingHeaders } from "../../platform/http/pipeline"
import { renderErrors } from "./renderErrors"
import { RequestObserverLive } from "./observers"
import { Quota } from "../../product/metering/Quota"
import { RequestLog } from "../../product/metering/RequestLog"
import { CtHistory } from "../../adapters/ct/CtHistory"
import { mcpRawRoutes } from "../mcp/route"
import { McpLazyLive } from "../mcp/lazy"
import { MonitorsLive } from "../handlers/monitors"
import { MonitorsWorkers } from "../../product/monitors/Scheduler"
import { cors } from "../../platform/http/cors"
import { MetricsRoute } from "./metricsRoute"
import { OpenApiRoutes } from "../openapi/routes"
import { NetworkLive } from "../handlers/network"
import { HttpProbe } from "../../adapters/probe/HttpProbe"
import { SqlLive } from "../../platform/store/Sql"
import { SystemLive } from "../handlers/system"
import { WafLive } from "../handlers/waf"
import { WafDetection } from "../../analyses/waf/WafDetection"
import { MAX_BODY_BYTES } from "../../platform/http/body"
import { HTTP_CHECK_MARGIN_MS, HTTP_CHECK_MAX_TIMEOUT_MS } from "../api/network"
import { EmailSecurity } from "../../analyses/mail/EmailSecurity"
import { EmailLive } from "../handlers/email"
import { TlsWire } from "../../adapters/tls/TlsWire"
import { TlsScan } from "../../analyses/tls/TlsScan"
import { TlsLive } from "../handlers/tls"
import { SecurityHeadersLive } from "../handlers/headers"
import { HttpSecurityGrade } from "../../analyses/observatory/HttpSecurityGrade"

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
  Layer.provideMerge(Layer.mergeAll(KeyActivity.Default, Quota.Default, RequestLog.Default, OperationsLive, AuditTokensLive)),
  Layer.provideMerge(Layer.mergeAll(Keys.Default, Accounts.Default.pipe(Layer.provide(Keys.Default)))),
  Layer.provideMerge(Layer.mergeAll(ZoneHygiene.Live, EmailSecurity.Live, TlsScan.Live.pipe(Layer.provide(TlsWire.Live)))),
  Layer.provideMerge(Layer.mergeAll(HttpProbe.Live, DnssecValidator.Live, CtWithinDeadline).pipe(Layer.provideMerge(DnsResolver.Live))),
  Layer.provideMerge(SqlLive)
)

/** Analyses the REST groups and MCP share (one instance each: layers are shared by reference in one build). */
const AnalysesLive = Layer.mergeAll(ContentFreshness.Live, WafDetection.Live, HttpSecurityGrade.Live)

const GroupsLive = Layer.mergeAll(AccountLive, SystemLive, NetworkLive, AnalyticsLive, AlertsLive, DnsLive, CtLive, FreshnessLive, WafLive, MonitorsLive, EmailLive, TlsLive, SecurityHeadersLive).pipe(
  Layer.provide(AnalysesLive)
)

/**
 * Background fibers (alert evaluator and outbox, request-log pruning, monitor scheduler), scoped
 * to the server. They start half a second after their layer is built, so about when the listener
 * is bound: their first passes (pruning, the rollup backfill, the first claim) are the coldest
 * code the process runs, and a starting server answers its health check first (docs/operating.md,
 * "The binary"). A worker that cannot start is logged; the server keeps serving.
 */
const WORKERS_START_DELAY = Duration.millis(500)
const WorkersLive = Layer.scopedDiscard(
  Effect.flatMap(Effect.scope, (scope) =>
    Layer.buildWithScope(Layer.mergeAll(AlertsWorkers, AnalyticsWorkers, MonitorsWorkers), scope).pipe(
      Effect.delay(WORKERS_START_DELAY),
      Effect.catchAllCause((cause) => Effect.logError("background workers failed to start", cause)),
      Effect.forkScoped
    ))
)

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
  // MCP (raw route beside the HttpApi), built on its first request over the analyses the REST
  // groups use; ssl_certificate enriched with CT history from the aggregator.
  Layer.provide(McpLazyLive.pipe(Layer.provide(Layer.mergeAll(CtHistory.FromAggregator, AnalysesLive)))),
  // The web console (src/surfaces/console): an open page beside the API, like /docs.
  Layer.provide(ConsoleLive),
  Layer.provide(Layer.mergeAll(RequestObserverLive, Deadlines.Default)),
  HttpServer.withLogAddress,
  // Exact, case-sensitive matching (src/platform/http/Operation.ts).
  Layer.provide(HttpRouter.setRouterConfig(routerConfig)),
  // No trace exporter is configured, so spans (per-request server spans, `Effect.fn` and SQL
  // statement spans) would be pure cost on the hot path: the tracer is off for everything the
  // server runs.
  HttpMiddleware.withTracerDisabledWhen(() => true),
  (layer) => Layer.locally(layer, FiberRef.currentTracerEnabled, false),
  // X-Request-Id, X-RateLimit-*, … on every answer the HttpApi sends (src/platform/http/pipeline.ts).
  (layer) => Layer.locally(layer, HttpApp.currentPreResponseHandlers, Option.some(trackingHeaders))
)

/** Longest deadline of any operation: OPERATION_DEADLINE_MS or http-check's largest timeout + margin. */
export const longestDeadlineMs = (config: AppConfig["Type"]) =>
  Math.max(config.operationDeadlineMs, HTTP_CHECK_MAX_TIMEOUT_MS + HTTP_CHECK_MARGIN_MS)

/**
 * The platform's Bun server on `port`/`hostname`. Its idle timeout (seconds without a byte either way; Bun's
 * default 10 s cut slow operations into empty replies) stays above the longest deadline, so every
 * request gets its answer. Bodies: the pipeline refuses past 1 MiB in the envelope
 * (src/platform/http/body.ts); Bun's own limit is a backstop above that.
 */
export const serverLayer = (options: { readonly port: number; readonly hostname: string }) =>
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) =>
      BunHttpServer.layer({
        ...options,
        idleTimeout: Math.min(255, Math.ceil(longestDeadlineMs(config) / 1000) + 5),
        maxRequestBodySize: 8 * MAX_BODY_BYTES
      }))
  )

/** The server as `serve` runs it, on PORT/HOST. */
export const ServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (c) => AppLive.pipe(Layer.provide(serverLayer({ port: c.port, hostname: c.host }))))
)
