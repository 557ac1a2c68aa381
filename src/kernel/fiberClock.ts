/**
 * The fiber's Clock read without an Effect step, for hot paths already inside
 * `Effect.withFiberRuntime`. It is the clock `Clock.currentTimeMillis` would read (a test's
 * TestClock included).
 */
import { Clock, Context, DefaultServices, Effect, type Fiber } from "effect"

export const nowIn = (fiber: Fiber.RuntimeFiber<unknown, unknown>): number =>
  Context.get(fiber.getFiberRef(DefaultServices.currentServices), Clock.Clock).unsafeCurrentTimeMillis()

/**
 * A read that usually needs no I/O: `peek` at the fiber's clock answers when it can (a cache
 * hit), in the same step; otherwise `load` runs.
 */
export const peekOr = <A, E, R>(peek: (now: number) => A | undefined, load: () => Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime<A, E, R>((fiber) => {
    const hit = peek(nowIn(fiber))
    return hit !== undefined ? Effect.succeed(hit) : load()
  })
