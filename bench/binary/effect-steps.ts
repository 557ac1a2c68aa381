/**
 * Effect steps (operations the fiber runtime evaluates) that building `serve`'s layers takes, as
 * `serve` builds them, counted by an op-supervising `Supervisor` over a migrated SQLite store.
 * A count, not a time: the same on any machine and at any load, so it shows what a change to the
 * layers' structure costs or saves (docs/operating.md, "Fourth pass: fewer layer nodes"). Binds
 * 127.0.0.1 on an ephemeral port, reaches nothing else.
 *
 *   ./node_modules/.bin/bun bench/binary/effect-steps.ts
 */
import { Context, Effect, Exit, Layer, RuntimeFlags, RuntimeFlagsPatch, Scope, Supervisor } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const work = mkdtempSync(join(tmpdir(), "di-steps-"))
const store = join(work, "store.db")
Object.assign(process.env, { DATABASE_URL: `sqlite:${store}`, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warning" })

const { AppConfig } = await import("../../src/platform/Config")
const Http = await import("../../src/surfaces/server/Http")
const { SqlLive } = await import("../../src/platform/store/Sql")

let steps = 0
class Counter extends Supervisor.AbstractSupervisor<void> {
  value = Effect.void
  override onEffect() {
    steps++
  }
}
const counter = new Counter()
const counted = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(Effect.supervised(counter), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision)))

// Migrate first (uncounted): every start but the first finds a current store.
await Effect.runPromise(Effect.scoped(Layer.build(SqlLive)).pipe(Effect.provide(AppConfig.Live)) as Effect.Effect<unknown>)

const rows: Array<[string, number]> = []
await Effect.runPromise(Effect.gen(function*() {
  const memo = yield* Layer.makeMemoMap
  const scope = yield* Scope.make()
  let context = Context.empty() as Context.Context<unknown>
  for (const [name, layer] of [["AppConfig", AppConfig.Live], ["ServicesLive", Http.ServicesLive], ["ServerLive", Http.ServerLive]] as const) {
    const before = steps
    const built = yield* counted(Layer.buildWithMemoMap(layer as Layer.Layer<unknown, unknown, unknown>, memo, scope).pipe(Effect.provide(context)))
    context = Context.merge(context, built)
    rows.push([name, steps - before])
  }
  yield* Scope.close(scope, Exit.void)
}) as Effect.Effect<void, unknown>)
rmSync(work, { recursive: true, force: true })
for (const [name, n] of rows) console.log(`${name.padEnd(14)} ${String(n).padStart(7)} steps`)
console.log(`${"total".padEnd(14)} ${String(steps).padStart(7)} steps`)
process.exit(0)
