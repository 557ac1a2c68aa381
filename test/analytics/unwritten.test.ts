/**
 * Reports count the request log's records that are not written yet, without a write of their
 * own: under concurrent traffic (the log writing batches meanwhile) a report never counts a
 * request twice and, once traffic stops, counts every request exactly once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"

let svc: TestService

beforeAll(async () => {
  svc = await startService()
})
afterAll(() => svc?.stop())

describe("reports and the unwritten request log", () => {
  test("concurrent traffic: totals never exceed what was sent; afterwards exact", async () => {
    const { key } = await svc.newKey("enterprise")
    const usage = async () => ((await (await svc.call("/v1/analytics/usage", { key })).json()) as any).total_requests as number
    let sent = 0
    const traffic = Promise.all(Array.from({ length: 400 }, async (_, i) => {
      await Bun.sleep(i % 50)
      const res = await svc.call("/v1/alerts/rules", { key })
      await res.arrayBuffer()
      sent++
    }))
    const seen: Array<number> = []
    for (let i = 0; i < 25; i++) {
      seen.push(await usage())
      await Bun.sleep(5)
    }
    await traffic
    // Each usage call before this one is itself a logged request.
    for (const [i, total] of seen.entries()) expect(total).toBeLessThanOrEqual(400 + i)
    expect(await usage()).toBe(400 + seen.length)
    expect(sent).toBe(400)
  })

  test("the performance and cache reports add the unwritten minute buckets: never a request twice, afterwards exact", async () => {
    const { key } = await svc.newKey("enterprise")
    const report = async (path: string) => (await (await svc.call(path, { key })).json()) as any
    let sent = 0
    const traffic = Promise.all(Array.from({ length: 300 }, async (_, i) => {
      await Bun.sleep(i % 40)
      const res = await svc.call("/v1/alerts/rules", { key })
      await res.arrayBuffer()
      sent++
    }))
    const seen: Array<number> = []
    for (let i = 0; i < 20; i++) {
      seen.push((await report("/v1/analytics/performance")).total_requests)
      await Bun.sleep(5)
    }
    await traffic
    // Each report call before this one is itself a logged request.
    for (const [i, total] of seen.entries()) expect(total).toBeLessThanOrEqual(300 + i)
    const done = await report("/v1/analytics/performance")
    expect(done.total_requests).toBe(300 + seen.length)
    expect(sent).toBe(300)
    // The cache report sees the same requests by endpoint (none of them cached: no hit or miss).
    const cache = await report("/v1/analytics/cache")
    expect(cache.hits + cache.misses).toBe(0)
    // And after everything is written, the same figure from the store alone.
    await svc.flushLog()
    expect((await report("/v1/analytics/performance")).total_requests).toBe(300 + seen.length + 2)
  })
})
