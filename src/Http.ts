/**
 * Wiring: every service layer once, the API with its middlewares, the server.
 * Tests provide `AppLive` with their own configuration and a server on a random loopback port.
 */
import { HttpApiBuilder, HttpMiddleware, HttpRouter, HttpServer } from "@effect/platform"
import { BunHttpServer } from "@effect/platform-bun"
import { Effect, FiberRef, Layer } from "effect"
import { alertFastRoutes } from "./alerts/fastRoutes"
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
import { CtAggregator } from "./ct/CtAggregator"
import { CtLive } from "./ct/http"
import { DnsResolver } from "./dns/DnsResolver"
import { DnsLive } from "./dns/http"
import { ZoneHygiene } from "./dns/zone/ZoneHygiene"
import { DnssecValidator } from "./dnssec/DnssecValidator"
import { ContentFreshness } from "./freshness/ContentFreshness"
import { FreshnessLive } from "./freshness/http"
import { FastPathStats, makeFastRoutes } from "./http/FastPath"
import { observe, renderErrors } from "./http/middleware"
import { makeRouteTable, type RawRoute } from "./http/RouteTable"
import { Quota } from "./metering/Quota"
import { RequestLog } from "./metering/RequestLog"
import { CtHistory } from "./mcp/CtHistory"
import { McpLive, mcpRawRoutes } from "./mcp/http"
import { makeAccessLog } from "./observability/accessLog"
import { cors } from "./observability/cors"
import { MetricsRoute } from "./observability/routes"
import { OpenApiRoutes } from "./openapi/routes"
import { NetworkLive } from "./network/http"
import { HttpProbe } from "./probe/HttpProbe"
import { ReadStore } from "./store/ReadStore"
import { SqlLive } from "./store/Sql"
import { SystemLive } from "./system/http"
import { WafLive } from "./waf/http"
import { WafDetection } from "./waf/WafDetection"

/** Routes mounted beside the HttpApi (raw handlers). */
export const rawRoutes: ReadonlyArray<RawRoute> = [...mcpRawRoutes]

export const routeTable = makeRouteTable(Api, rawRoutes)

/** Services shared by the server and the CLI. */
export const ServicesLive = Bearer.Default.pipe(
  Layer.provideMerge(Layer.mergeAll(KeyActivity.Default, Quota.Default, RequestLog.Default, FastPathStats.Default)),
  Layer.provideMerge(Layer.mergeAll(Keys.Default, Accounts.Default.pipe(Layer.provide(Keys.Default)))),
  Layer.provideMerge(ZoneHygiene.Live),
  Layer.provideMerge(Layer.mergeAll(HttpProbe.Live, DnssecValidator.Live, CtAggregator.Live).pipe(Layer.provideMerge(DnsResolver.Live))),
  Layer.provideMerge(SqlLive)
)

const GroupsLive = Layer.mergeAll(AccountLive, SystemLive, NetworkLive, AnalyticsLive, AlertsLive, DnsLive, CtLive, FreshnessLive, WafLive).pipe(
  Layer.provide(Layer.mergeAll(ContentFreshness.Live, WafDetection.Live))
)

/** Background fibers (alert evaluator and outbox, request-log pruning), scoped to the server. */
const WorkersLive = Layer.mergeAll(AlertsWorkers, AnalyticsWorkers)

const ApiLive = HttpApiBuilder.api(Api).pipe(
  Layer.provide(GroupsLive),
  Layer.provide(AuthLive)
)

/** The API served on whatever HttpServer is provided (needs ServicesLive and AppConfig). */
export const AppLive = Layer.unwrapEffect(
  Effect.map(Effect.zip(AppConfig, makeAccessLog), ([config, accessLog]) =>
    HttpApiBuilder.serve((app) => cors(config.corsOrigins)(observe(routeTable, accessLog)(app)))
  )
).pipe(
  Layer.provide(OpenApiRoutes), // /openapi.json and /docs, built on first request
  Layer.provide(MetricsRoute), // /metrics
  Layer.provide(renderErrors),
  Layer.provide(ApiLive),
  Layer.provide(WorkersLive),
  // MCP (raw route beside the HttpApi); ssl_certificate enriched with CT history from the aggregator.
  Layer.provide(McpLive.pipe(Layer.provide(CtHistory.FromAggregator))),
  HttpServer.withLogAddress,
  // The router would otherwise fold "//" in the whole request target, query string included,
  // turning ?url=http://x//path into http:/x/path.
  Layer.provide(HttpRouter.setRouterConfig({ ignoreDuplicateSlashes: false })),
  // No trace exporter is configured, so spans (per-request server spans, `Effect.fn` and SQL
  // statement spans) would be pure cost on the hot path: the tracer is off for everything the
  // server runs.
  HttpMiddleware.withTracerDisabledWhen(() => true),
  (layer) => Layer.locally(layer, FiberRef.currentTracerEnabled, false)
)

/**
 * Bun.serve on `port`/`hostname`, with the fast-path routes (src/http/FastPath.ts) in front of
 * the handler the HttpApi installs, unless FAST_PATH=false.
 */
export const serverLayer = (options: { readonly port: number; readonly hostname: string }) =>
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) => {
      const bare = BunHttpServer.layer(options)
      if (!config.fastPath) return bare // no second connection either
      return Layer.unwrapEffect(
        Effect.gen(function*() {
          const { reader } = yield* ReadStore
          if (reader === undefined) return bare
          const routes = yield* makeFastRoutes(alertFastRoutes(reader), routeTable, reader.version)
          return BunHttpServer.layer({ ...options, routes } as Parameters<typeof BunHttpServer.layer>[0])
        })
      ).pipe(Layer.provide(ReadStore.Default))
    })
  )

/** The server as `serve` runs it, on PORT/HOST. */
export const ServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (c) => AppLive.pipe(Layer.provide(serverLayer({ port: c.port, hostname: c.host }))))
)
