/**
 * Enforcement of every request's deadline (src/platform/http/pipeline.ts) by one sweeper for all of them:
 * the pipeline registers each request's fiber here while it waits on the work; every `tickMs` the
 * sweeper interrupts the fibers whose deadline has passed, and the pipeline answers them. One
 * background fiber instead of a timer and a race (or a forked fiber) per request, which cost
 * about as much as the whole framework per request under load. A request is cut at most
 * `tickMs` after its deadline.
 */
import { Clock, Duration, Effect, FiberId, Schedule } from "effect"
import type { RuntimeFiber } from "effect/Fiber"

export interface Tracked {
  /** Epoch ms, by the Clock, past which the work is interrupted. */
  readonly deadlineAt: () => number
  readonly fiber: RuntimeFiber<any, any>
  /** Set by the sweeper when it interrupted the work. */
  expired: boolean
}

const tickMs = 50

/** The FiberId the sweeper interrupts with. */
export const deadlineFiberId = FiberId.make(-1, 0)

export class Deadlines extends Effect.Service<Deadlines>()("domain-intel/Deadlines", {
  scoped: Effect.gen(function*() {
    const inFlight = new Set<Tracked>()
    // Time is the Clock's (Effect's `Clock`, a test's TestClock included), so a test moves a
    // request past its deadline without waiting for it.
    const sweep = Effect.map(Clock.currentTimeMillis, (now) => {
      if (inFlight.size === 0) return
      for (const t of inFlight) {
        if (t.deadlineAt() <= now) {
          inFlight.delete(t)
          t.expired = true
          t.fiber.unsafeInterruptAsFork(deadlineFiberId)
        }
      }
    })
    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(Duration.millis(tickMs))))
    return {
      track: (t: Tracked): void => {
        inFlight.add(t)
      },
      untrack: (t: Tracked): void => {
        inFlight.delete(t)
      }
    } as const
  })
}) {}
