/** The JIT policy's work signal (src/platform/jitPolicy.ts): when start-up ends and work begins. */
import { describe, expect, test } from "bun:test"
import { makeWorkSignal, RUNNING_JIT_POLICY } from "../../src/platform/jitPolicy"

const recording = (workRequests?: number) => {
  const applied: Array<number> = []
  return { applied, signal: makeWorkSignal((p) => applied.push(p), workRequests) }
}

describe("work signal", () => {
  test("anonymous requests are not work until there are many of them", () => {
    const { applied, signal } = recording(5)
    for (let i = 0; i < 4; i++) signal.request(false)
    expect(applied).toEqual([])
    expect(signal.settled()).toBe(false)
    signal.request(false)
    expect(applied).toEqual([RUNNING_JIT_POLICY])
    expect(signal.settled()).toBe(true)
  })

  test("the first request for a caller is work, and the policy is set once", () => {
    const { applied, signal } = recording()
    signal.request(false)
    signal.request(true)
    signal.request(true)
    signal.work()
    for (let i = 0; i < 2000; i++) signal.request(false)
    expect(applied).toEqual([RUNNING_JIT_POLICY])
  })

  test("a monitor run is work", () => {
    const { applied, signal } = recording()
    signal.work()
    signal.request(true)
    expect(applied).toEqual([RUNNING_JIT_POLICY])
  })
})
