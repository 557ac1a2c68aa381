// Temporary: Effect steps per request, by path, for the checkout in cwd.
import { Context, Effect, Layer, Logger, LogLevel, RuntimeFlags, RuntimeFlagsPatch, Scope, Supervisor } from "effect"
import { HttpServer } from "@effect/platform"
const root = process.cwd()
const { AppConfig } = await import(`${root}/src/platform/Config`)
const Http = await import(`${root}/src/surfaces/server/Http`)
const { Keys } = await import(`${root}/src/product/accounts/Keys`)
let steps = 0
class Counter extends Supervisor.AbstractSupervisor<void> {
  value = Effect.void
  override onEffect() { steps++ }
}
const counter = new Counter()
const counted = <A, E, R>(e: Effect.Effect<A, E, R>) => e.pipe(Effect.supervised(counter), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision)))
const config = AppConfig.make({ databaseUrl: "sqlite::memory:", allowPrivateTargets: true, dnsResolvers: [], ctAggregatorUrl: "http://127.0.0.1:9" })
const layer = Http.AppLive.pipe(
  Layer.provideMerge(Http.serverLayer({ port: 0, hostname: "127.0.0.1" })),
  Layer.provideMerge(Http.ServicesLive),
  Layer.provideMerge(config),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)
const scope = Effect.runSync(Scope.make())
const ctx: Context.Context<any> = await Effect.runPromise(counted(Layer.buildWithScope(layer as any, scope)) as any)
const address: any = Context.get(ctx, HttpServer.HttpServer).address
const key = (await Effect.runPromise(Effect.flatMap(Keys, (k: any) => k.issueKey("bench", "enterprise")).pipe(Effect.provide(ctx)) as any) as any).key
const base = `http://127.0.0.1:${address.port}`
const paths = ["/healthz", "/v1/alerts/history", "/v1/analytics/cache", "/v1/analytics/usage", "/v1/alerts/rules", "/v1/account"]
for (const p of paths) {
  const get = () => fetch(base + p, { headers: p === "/healthz" ? {} : { authorization: `Bearer ${key}` } }).then(async (r) => { if (!r.ok) throw new Error(`${p} ${r.status}`); await r.arrayBuffer() })
  for (let i = 0; i < 30; i++) await get()
  await Bun.sleep(50)
  const n = 200
  const before = steps
  for (let i = 0; i < n; i++) await get()
  console.log(p.padEnd(24), ((steps - before) / n).toFixed(1), "steps/request")
}
process.exit(0)
