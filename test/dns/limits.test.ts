/** The pure parts of Zone Hygiene's limits, under TestClock (no real waiting). */
import { describe, expect, test } from "bun:test"
import { Cache, Duration, Effect, Either, Exit, Fiber, TestClock, TestContext } from "effect"
import { capTargets, makeDestinationLimiter } from "../../src/analyses/zone/model/limits"

const runTest = <A, E>(e: Effect.Effect<A, E>) => Effect.runPromise(e.pipe(Effect.provide(TestContext.TestContext)))

describe("capTargets", () => {
  test("round robin over nameservers, at most the cap", () => {
    expect(capTargets([["a1", "a2", "a3"], ["b1"], ["c1", "c2"]], 4)).toEqual({ chosen: ["a1", "b1", "c1", "a2"], total: 6 })
    expect(capTargets([["a1"], []], 8)).toEqual({ chosen: ["a1"], total: 1 })
    expect(capTargets([], 8)).toEqual({ chosen: [], total: 0 })
  })
})

describe("per-destination rate limit", () => {
  test("a burst passes, the next query waits for its token, other destinations are not held", async () => {
    const out = await runTest(Effect.gen(function*() {
      const l = makeDestinationLimiter({ perSecond: 2, burst: 2, maxWaitMs: 5000 })
      yield* l.take("192.0.2.1")
      yield* l.take("192.0.2.1")
      const third = yield* Effect.fork(l.take("192.0.2.1"))
      yield* Effect.yieldNow()
      yield* l.take("198.51.100.1") // another address: immediate
      yield* TestClock.adjust(Duration.millis(400))
      const early = third.unsafePoll()
      yield* TestClock.adjust(Duration.millis(200))
      yield* Fiber.join(third)
      return early
    }))
    expect(out).toBeNull()
  })
  test("a query that would wait longer than the limit fails instead of queueing", async () => {
    const r = await runTest(Effect.gen(function*() {
      const l = makeDestinationLimiter({ perSecond: 1, burst: 1, maxWaitMs: 1500 })
      yield* l.take("192.0.2.1")
      yield* Effect.fork(l.take("192.0.2.1")) // reserves the token of second 1
      yield* Effect.yieldNow()
      return yield* Effect.either(l.take("192.0.2.1")) // would wait 2 s
    }))
    expect(Either.isLeft(r) && r.left._tag).toBe("DestinationRateLimited")
  })
})

describe("single flight (shared zone audits and CT refreshes)", () => {
  test("callers share one computation, and the first one leaving does not cancel it for the others", async () => {
    const { makeSingleFlight } = await import("../../src/kernel/singleFlight")
    const out = await runTest(Effect.gen(function*() {
      const sf = makeSingleFlight<number, never>()
      let runs = 0
      const work = Effect.sync(() => runs++).pipe(Effect.zipRight(Effect.sleep(Duration.seconds(1))), Effect.as(42))
      const first = yield* Effect.fork(sf.run("zone", work))
      yield* Effect.yieldNow()
      const second = yield* Effect.fork(sf.run("zone", work))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(first)
      yield* TestClock.adjust(Duration.seconds(1))
      return { value: yield* Fiber.join(second), runs }
    }))
    expect(out).toEqual({ value: 42, runs: 1 })
  })

  test("why it is not Effect's Cache: there, the first caller leaving interrupts the others", async () => {
    const out = await runTest(Effect.gen(function*() {
      const cache = yield* Cache.make({ capacity: 10, timeToLive: Duration.zero, lookup: (_: string) => Effect.as(Effect.sleep(Duration.seconds(1)), 42) })
      const first = yield* Effect.fork(cache.get("zone"))
      yield* Effect.yieldNow()
      const second = yield* Effect.fork(cache.get("zone"))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(first)
      yield* TestClock.adjust(Duration.seconds(1))
      return yield* Fiber.await(second)
    }))
    expect(Exit.isInterrupted(out)).toBe(true)
  })
})
