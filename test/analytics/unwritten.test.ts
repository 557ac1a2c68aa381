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
})
