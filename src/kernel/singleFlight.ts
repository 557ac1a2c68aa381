/**
 * One computation per key at a time: concurrent callers with the same key share its result.
 * The computation runs in a daemon fiber, so a caller that goes away (client disconnect,
 * request deadline) does not cancel it for the others; registering and forking are one
 * uninterruptible step, so no key is left without a computation behind it.
 */
import { Deferred, Effect, FiberId } from "effect"

export const makeSingleFlight = <A, E>() => {
  const inflight = new Map<string, Deferred.Deferred<A, E>>()
  const run = <R>(key: string, compute: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.uninterruptible(
      Effect.suspend(() => {
        const existing = inflight.get(key)
        if (existing) return Effect.succeed(existing)
        const def = Deferred.unsafeMake<A, E>(FiberId.none)
        inflight.set(key, def)
        const work = compute.pipe(
          Effect.onExit((exit) => Effect.sync(() => inflight.delete(key)).pipe(Effect.zipRight(Deferred.done(def, exit))))
        )
        // The fork inherits the uninterruptible region: give the work back its interruptibility
        // (its own timeouts interrupt what it waits for).
        return Effect.as(Effect.forkDaemon(Effect.interruptible(work)), def)
      })
    ).pipe(Effect.flatMap((def) => Deferred.await(def)))
  return { run }
}
