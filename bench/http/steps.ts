/**
 * Effect steps (operations the fiber runtime evaluates) per request, by path, for the service
 * as `serve` builds it: the server's layers are built under an op-supervising `Supervisor`, so
 * every request fiber inherits it. A count, not a time: the same on any machine and at any load,
 * so it shows what a change to the shared request path costs or saves even when timings drown
 * in the noise of a shared machine. In-memory SQLite, one enterprise key, 127.0.0.1 only.
 *
 *   ./node_modules/.bin/bun bench/http/steps.ts [requests per path = 200]
 */
import { HttpServer } from "@effect/platform"
import { Context, Effect, Layer, Logger, LogLevel, RuntimeFlags, RuntimeFlagsPatch, Scope, Supervisor } from "effect"
import { AppConfig } from "../../src/platform/Config"
import { AppLive, serverLayer, ServicesLive } from "../../src/surfaces/server/Http"
import { Keys } from "../../src/product/accounts/Keys"

const n = Number(process.argv[2] ?? 200)
let steps = 0
class Counter extends Supervisor.AbstractSupervisor<void> {
  value = Effect.void
  override onEffect() {
    steps++
  }
}
const counter = new Counter()
const layer = AppLive.pipe(
  Layer.provideMerge(serverLayer({ port: 0, hostname: "127.0.0.1" })),
  Layer.provideMerge(ServicesLive),
  Layer.provideMerge(AppConfig.make({ databaseUrl: "sqlite::memory:", dnsResolvers: [], ctAggregatorUrl: "http://127.0.0.1:9" })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)
const scope = Effect.runSync(Scope.make())
const context = await Effect.runPromise(
  Layer.buildWithScope(layer, scope).pipe(
    Effect.supervised(counter),
    Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))
  )
)
const address = Context.get(context, HttpServer.HttpServer).address
if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
const { key } = await Effect.runPromise(Effect.flatMap(Keys, (k) => k.issueKey("bench", "enterprise")).pipe(Effect.provide(context)))
const base = `http://127.0.0.1:${address.port}`
for (const path of ["/healthz", "/v1/alerts/history", "/v1/analytics/cache", "/v1/analytics/usage", "/v1/alerts/rules", "/v1/account"]) {
  const get = async () => {
    const r = await fetch(base + path, { headers: path === "/healthz" ? {} : { authorization: `Bearer ${key}` } })
    if (!r.ok) throw new Error(`${path}: ${r.status}`)
    await r.arrayBuffer()
  }
  for (let i = 0; i < 30; i++) await get() // warm: key cache, quota block, read caches
  await Bun.sleep(50)
  const before = steps
  for (let i = 0; i < n; i++) await get()
  console.log(`${path.padEnd(24)} ${((steps - before) / n).toFixed(1).padStart(7)} steps per request`)
}
process.exit(0)
