/**
 * `domain-intel serve`: loaded only when the server runs (src/main.ts imports it lazily), so the
 * account commands start without evaluating the whole service.
 */
import { Console, Effect, Layer, Option } from "effect"
import { Keys } from "../../product/accounts/Keys"
import { ServerLive, ServicesLive } from "./Http"

/**
 * The server, then (only once the listener is bound) the bootstrap key of an empty store: a
 * start that cannot bind its port creates nothing, so the next start prints the key. The
 * configuration comes from src/main.ts, read once for the logger and the server alike.
 */
export const serveProgram = Effect.scoped(
  Effect.gen(function*() {
    yield* Layer.build(ServerLive)
    const created = yield* (yield* Keys).bootstrap()
    if (Option.isSome(created)) {
      yield* Console.log("No organization existed: created 'default' on the enterprise plan. Its API key (shown once):")
      yield* Console.log(created.value)
    }
    // Start-up leaves garbage (module evaluation, layer construction, migrations): one full
    // collection now returns it, rather than whenever the first requests trigger one.
    yield* Effect.sleep("200 millis").pipe(Effect.andThen(Effect.sync(() => Bun.gc(true))), Effect.forkScoped)
    return yield* Effect.never
  })
).pipe(Effect.provide(ServicesLive))
