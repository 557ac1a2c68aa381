/**
 * The deadline sweeper (src/platform/http/Deadlines.ts) runs on Effect's Clock: a test moves a
 * request past its deadline with TestClock instead of waiting (the real-time default is covered
 * once by test/api/deadlines.test.ts).
 */
import { describe, expect, test } from "bun:test"
import { Effect, Fiber, Layer, TestClock, TestContext } from "effect"
import { Deadlines } from "../../src/platform/http/Deadlines"
import type { Tracked } from "../../src/platform/http/Deadlines"

const run = <A, E>(effect: Effect.Effect<A, E, Deadlines>) =>
  Effect.runPromise(effect.pipe(Effect.provide(Deadlines.Default), Effect.scoped, Effect.provide(TestContext.TestContext)) as Effect.Effect<A, E>)

describe("Deadlines under TestClock", () => {
  test("work past its deadline is interrupted and marked expired; work within it is not", () =>
    run(Effect.gen(function*() {
      const deadlines = yield* Deadlines
      const start = yield* TestClock.currentTimeMillis
      const late = yield* Effect.fork(Effect.never)
      const onTime = yield* Effect.fork(Effect.never)
      const lateT: Tracked = { deadlineAt: () => start + 2_500, fiber: late, expired: false }
      const onTimeT: Tracked = { deadlineAt: () => start + 6_000, fiber: onTime, expired: false }
      deadlines.track(lateT)
      deadlines.track(onTimeT)

      yield* TestClock.adjust("2400 millis")
      expect(lateT.expired).toBe(false)
      expect(yield* Fiber.poll(late)).toEqual(expect.objectContaining({ _tag: "None" }))

      yield* TestClock.adjust("200 millis")
      expect(lateT.expired).toBe(true)
      yield* Effect.yieldNow()
      const exit = yield* Fiber.poll(late)
      expect(exit._tag === "Some" && exit.value._tag === "Failure").toBe(true)
      expect(onTimeT.expired).toBe(false)

      // Untracked work is never cut.
      deadlines.untrack(onTimeT)
      yield* TestClock.adjust("5 seconds")
      expect(onTimeT.expired).toBe(false)
      expect((yield* Fiber.poll(onTime))._tag).toBe("None")
      yield* Fiber.interrupt(onTime)
    })))
})
