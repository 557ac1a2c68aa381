/**
 * One computation per key at a time: concurrent callers with the same key share its result.
 * The computation runs in a daemon fiber, so a caller that goes away (client disconnect,
 * request deadline) does not cancel it for the others; registering and forking are one
 * uninterruptible step, so no key is left without a computation behind it.
 *
 * Why not Effect's `Cache` (or `Effect.cachedFunction`): a `Cache` lookup runs in the fiber of
 * the first caller, and when that caller is interrupted every caller waiting on the same key is
 * interrupted with it (test/dns/limits.test.ts shows both behaviours). Requests here are cut by
 * deadlines and client aborts all the time, and the others must still get their answer.
 */
import { Deferred, Effect } from "effect"

export const makeSingleFlight = <A, E>() => {
  const inflight = new Map<string, Deferred.Deferred<A, E>>()
  const run = <R>(key: string, compute: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(Deferred.make<A, E>(), (fresh) => {
        // From the lookup to the registration nothing yields: one computation per key.
        const running = inflight.get(key)
        if (running !== undefined) return restore(Deferred.await(running))
        inflight.set(key, fresh)
        const work = compute.pipe(
          Effect.onExit((exit) => Effect.zipRight(Effect.sync(() => inflight.delete(key)), Deferred.done(fresh, exit)))
        )
        // The fork inherits the uninterruptible region: give the work back its interruptibility
        // (its own timeouts interrupt what it waits for).
        return Effect.zipRight(Effect.forkDaemon(Effect.interruptible(work)), restore(Deferred.await(fresh)))
      })
    )
  return { run }
}
