/**
 * Wiring: every service layer once, the API with its middlewares, the server.
 * Tests provide `AppLive` with their own configuration and a server on a random loopback port.
 */
import { Etag, HttpApiBuilder, HttpApp, HttpMiddleware, HttpRouter, HttpServer } from "@effect/platform"
import { Duration, Effect, FiberRef, Layer, Option } from "effect"
import { AlertsLive } from "../handlers/alerts"
import { AlertsWorkers } from "../../product/alerts/Workers"
import { Api } from "../api/Api"
import { AnalyticsLive } from "../handlers/analytics"
import { AnalyticsWorkers } from "../../product/analytics/Pruning"
import { Analytics } from "../../product/analytics/Analytics"
import { Alerts } from "../../product/alerts/Alerts"
import { Monitors } from "../../product/monitors/Monitors"
import { Accounts } from "../../product/accounts/Accounts"
import { AccountLive } from "../handlers/account"
import { KeyActivity } from "../../product/accounts/KeyActivity"
import { AuditTokensLive } from "../../product/accounts/auditTokens"
import { AuthLive, Bearer } from "../../product/auth/Auth"
import { Keys } from "../../product/accounts/Keys"
import { AppConfig } from "../../platform/Config"
import { consoleRoutes } from "../console/http"
import { CtAggregator } from "../../adapters/ct/CtAggregator"
import { CtLive } from "../handlers/ct"
import { DnsResolver } from "../../adapters/dns/DnsResolver"
import { ResolverHealth } from "../../adapters/dns/ResolverHealth"
import { DnsLive } from "../handlers/dns"
import { ZoneHygiene } from "../../analyses/zone/ZoneHygiene"
import { DnssecValidator } from "../../adapters/dnssec/DnssecValidator"
import { ContentFreshness } from "../../analyses/freshness/ContentFreshness"
import { FreshnessLive } from "../handlers/freshness"
import * as BunFileSystem from "@effect/platform-bun/BunFileSystem"
import * as BunHttpPlatform from "@effect/platform-bun/BunHttpPlatform"
import * as BunHttpServer from "@effect/platform-bun/BunHttpServer"
import * as BunPath from "@effect/platform-bun/BunPath"
import { makeOperations, Operations, type RawRoute, routerConfig } from "../../platform/http/Operation"
import { pipeline, type PipelineDeps, trackingHeaders } from "./pipeline"
import { renderErrors } from "./renderErrors"
import { RequestObserverLive } from "./observers"
import { RequestObserver } from "../../platform/http/RequestObserver"
import { Quota } from "../../product/metering/Quota"
import { RequestLog } from "../../product/metering/RequestLog"
import { CtHistory } from "../../adapters/ct/CtHistory"
import { mcpRawRoutes } from "../mcp/route"
import { mcpLazyRoute } from "../mcp/lazy"
import { MonitorsLive } from "../handlers/monitors"
import { LocationsLive } from "../handlers/locations"
import { MonitorsWorkers } from "../../product/monitors/Scheduler"
import { cors } from "./cors"
import { metricsRoute } from "./metricsRoute"
import { openApiRoutes } from "../openapi/routes"
import { NetworkLive } from "../handlers/network"
import { HttpProbe } from "../../adapters/probe/HttpProbe"
import { SqlLive } from "../../platform/store/Sql"
import { SystemLive } from "../handlers/system"
import { WafLive } from "../handlers/waf"
import { WafDetection } from "../../analyses/waf/WafDetection"
import { boundBody, MAX_BODY_BYTES } from "../../platform/http/body"
import { HTTP_CHECK_MARGIN_MS, HTTP_CHECK_MAX_TIMEOUT_MS } from "../api/network"
import { EmailSecurity } from "../../analyses/mail/EmailSecurity"
import { EmailLive } from "../handlers/email"
import { TlsWire } from "../../adapters/tls/TlsWire"
import { TlsScan } from "../../analyses/tls/TlsScan"
import { TlsLive } from "../handlers/tls"
import { SecurityHeadersLive } from "../handlers/headers"
import { HttpSecurityGrade } from "../../analyses/observatory/HttpSecurityGrade"
import { SubdomainTakeover } from "../../analyses/takeover/SubdomainTakeover"
import { TakeoverLive } from "../handlers/takeover"
import { Lookalikes } from "../../analyses/lookalikes/Lookalikes"
import { LookalikesLive } from "../handlers/lookalikes"
import { DomainAudit } from "../../analyses/audit/DomainAudit"
import { Blocklist } from "../../analyses/blocklist/Blocklist"
import { AuditLive } from "../handlers/audit"
import { BlocklistLive } from "../handlers/blocklist"

/** Routes mounted beside the HttpApi (raw handlers). */
export const rawRoutes: ReadonlyArray<RawRoute> = [...mcpRawRoutes]

/** Every operation the router can match, by its route: operation id, category, plan, deadline. */
export const OperationsLive = Layer.sync(Operations, () => makeOperations(Api, rawRoutes))

/**
 * The CT aggregator with its retry budget cut to fit inside the operation's deadline (with room
 * for the rest of the CT operation), so its retries end in its own 502 before the deadline's.
 * The budget is each source's, and the sources are asked at once: one cut covers them all.
 */
const CtWithinDeadline = CtAggregator.layer((c) => Math.max(500, Math.min(c.ctBudgetMs, c.operationDeadlineMs - 3000)))

/**
 * Services shared by the server and the CLI, in three flat levels (each level's services need
 * only those of the levels below it). Start-up builds every layer node in this file once, and
 * each node costs Effect steps whatever it holds (docs/operating.md, "Fourth pass: fewer layer
 * nodes"): so here and in `AppLive` dependencies are provided a level at a time, and what the
 * server itself does at start is one layer (`ServeLive`).
 */
export const ServicesLive = Layer.mergeAll(Bearer.Default, Accounts.Default, AuditTokensLive, ZoneHygiene.Live, EmailSecurity.Live, TlsScan.Live, SubdomainTakeover.Live, Lookalikes.Live, Blocklist.Live, HttpSecurityGrade.Live).pipe(
  Layer.provideMerge(Layer.mergeAll(
    Keys.Default, KeyActivity.Default, Quota.Default, RequestLog.Default, OperationsLive,
    HttpProbe.Live, DnssecValidator.Live, CtWithinDeadline, TlsWire.Live, ResolverHealth.Live
  )),
  Layer.provideMerge(Layer.mergeAll(SqlLive, DnsResolver.Live))
)

/** The REST groups, over the services below (provided once, with the analyses MCP shares). */
const GroupsLive = Layer.mergeAll(AccountLive, SystemLive, NetworkLive, AnalyticsLive, AlertsLive, DnsLive, CtLive, FreshnessLive, WafLive, MonitorsLive, LocationsLive, EmailLive, TlsLive, SecurityHeadersLive, TakeoverLive, LookalikesLive, BlocklistLive, AuditLive)

/**
 * Background fibers (alert evaluator and outbox, request-log pruning, monitor scheduler), scoped
 * to the server. They start half a second after the server is built, so about when the listener
 * is bound: their first passes (pruning, the rollup backfill, the first claim) are the coldest
 * code the process runs, and a starting server answers its health check first (docs/operating.md,
 * "The binary"). A worker that cannot start is logged; the server keeps serving.
 */
const WORKERS_START_DELAY = Duration.millis(500)
const startWorkers = Effect.flatMap(Effect.scope, (scope) =>
  Layer.buildWithScope(Layer.mergeAll(AlertsWorkers, AnalyticsWorkers, MonitorsWorkers), scope).pipe(
    Effect.delay(WORKERS_START_DELAY),
    Effect.catchAllCause((cause) => Effect.logError("background workers failed to start", cause)),
    Effect.forkScoped
  ))

/**
 * The routes beside the HttpApi, on its router: /metrics, /openapi.json and /docs (built on
 * their first request), MCP (its server built on its first request, over the analyses the REST
 * groups use; ssl_certificate enriched with CT history from the aggregator), and the web console
 * (src/surfaces/console), an open page like /docs.
 */
const addRawRoutes = Effect.flatMap(HttpApiBuilder.Router, (router) =>
  Effect.all([metricsRoute(router), openApiRoutes(router), mcpLazyRoute(router), consoleRoutes(router)], { discard: true }))

/**
 * The HttpApi-level middlewares, in one layer: the error renderer (./renderErrors.ts) around the
 * router, and outside it the body bound. Every body is read within its bound before routing
 * (src/platform/http/body.ts), so its 413 is encoded by the API like any declared error, and
 * every route below it, MCP included, reads the bounded body.
 */
const ApiMiddlewareLive = HttpApiBuilder.middleware(Api, Effect.map(renderErrors, (render) => (app) => boundBody(render(app))))

/** What the pipeline needs, resolved once when the server is built (not per request). */
const pipelineDeps: Effect.Effect<PipelineDeps, never, RequestObserver | AppConfig | Operations> = Effect.map(
  Effect.all([RequestObserver, AppConfig, Operations]),
  ([observer, config, operations]) => ({ observer, config, operations })
)

/**
 * The server, in one layer node (each node costs start-up steps whatever it holds;
 * docs/operating.md, "Fifth pass: the fourth wave's operations"): the routes beside the HttpApi on its router, the workers,
 * then the HttpApi served with the pipeline around it and the "Listening on" line. The last two
 * are what `HttpApiBuilder.serve` and `HttpServer.withLogAddress` do, through the same public
 * pieces (`httpApp`, `serveEffect`, `logAddress`), which as layers cost a dozen nodes.
 */
const ServeLive = Layer.scopedDiscard(Effect.gen(function*() {
  yield* addRawRoutes
  yield* startWorkers
  const deps = yield* pipelineDeps
  const app = yield* HttpApiBuilder.httpApp
  yield* HttpServer.serveEffect(app, (app) => cors(deps.config.corsOrigins)(pipeline(app, deps)))
  yield* HttpServer.logAddress
}))

/**
 * The fiber-local settings the server is built and runs with, set in one layer node:
 * - exact, case-sensitive matching (src/platform/http/Operation.ts), for the routers built here;
 * - no tracing: no trace exporter is configured, so spans (per-request server spans, `Effect.fn`
 *   and SQL statement spans) would be pure cost on the hot path;
 * - X-Request-Id, X-RateLimit-*, … on every answer the HttpApi sends (./pipeline.ts).
 */
const serverFiberRefs = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  Layer.locallyEffect(layer, (build) =>
    build.pipe(
      Effect.locally(HttpRouter.currentRouterConfig, routerConfig),
      Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true),
      Effect.locally(FiberRef.currentTracerEnabled, false),
      Effect.locally(HttpApp.currentPreResponseHandlers, Option.some(trackingHeaders))
    ))

/** The API served on whatever HttpServer is provided (needs ServicesLive and AppConfig). */
export const AppLive = ServeLive.pipe(
  // The API itself, with its groups: the server and /openapi.json read it.
  Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide(GroupsLive))),
  // One instance of each (layers are shared by reference in one build): the API's router (the
  // groups register on it) and middlewares, the analyses the REST groups and MCP share, the
  // product services of the groups and the workers, the endpoints' middlewares.
  Layer.provide([
    HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer, ApiMiddlewareLive,
    ContentFreshness.Live, WafDetection.Live, CtHistory.FromAggregator, DomainAudit.Live,
    Analytics.Default, Alerts.Default, Monitors.Default,
    AuthLive, RequestObserverLive
  ]),
  serverFiberRefs
)

/** Longest deadline of any operation: OPERATION_DEADLINE_MS, AUDIT_DEADLINE_MS or http-check's largest timeout + margin. */
export const longestDeadlineMs = (config: AppConfig["Type"]) =>
  Math.max(config.operationDeadlineMs, config.auditDeadlineMs, HTTP_CHECK_MAX_TIMEOUT_MS + HTTP_CHECK_MARGIN_MS)

/**
 * The platform's Bun server on `port`/`hostname`. Its idle timeout (seconds without a byte either way; Bun's
 * default 10 s cut slow operations into empty replies) stays above the longest deadline, so every
 * request gets its answer. Bodies: the pipeline refuses past 1 MiB in the envelope
 * (src/platform/http/body.ts); Bun's own limit is a backstop above that.
 *
 * Beside the server, the services the router's types ask of the platform (file system, paths,
 * ETags, file responses), none of which a route uses: not the command executor, terminal and
 * worker manager that `BunHttpServer.layer` also builds, which the server never uses either.
 */
export const serverLayer = (options: { readonly port: number; readonly hostname: string }) =>
  Layer.unwrapEffect(Effect.map(AppConfig, (config) => serverOn(config, options)))

const serverOn = (config: AppConfig["Type"], options: { readonly port: number; readonly hostname: string }) =>
  Layer.mergeAll(
    BunHttpServer.layerServer({
      ...options,
      idleTimeout: Math.min(255, Math.ceil(longestDeadlineMs(config) / 1000) + 5),
      maxRequestBodySize: 8 * MAX_BODY_BYTES
    }),
    BunHttpPlatform.layer,
    BunFileSystem.layer,
    BunPath.layer,
    Etag.layerWeak
  )

/** The server as `serve` runs it, on PORT/HOST. */
export const ServerLive = AppLive.pipe(
  Layer.provide(Layer.unwrapEffect(Effect.map(AppConfig, (c) => serverOn(c, { port: c.port, hostname: c.host }))))
)
