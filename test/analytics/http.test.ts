/**
 * The three reports through real HTTP against the running service: traffic sent by the test,
 * reports checked against what the test sent and against exact percentiles of the logged
 * latencies.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { FetchHttpClient } from "@effect/platform"
import { Effect, Schema } from "effect"
import { makeClient } from "../../src/surfaces/client"
import { UsageReport } from "../../src/surfaces/api/analytics"
import * as Sketch from "../../src/product/metering/sketch"
import { RequestLog } from "../../src/product/metering/RequestLog"
import { startService, type TestService } from "../support/service"

let svc: TestService
beforeAll(async () => {
  svc = await startService()
})
afterAll(() => svc.stop())

const get = async (path: string, key: string) => {
  const r = await svc.call(path, { key })
  return { status: r.status, body: (await r.json()) as any }
}

describe("analytics over HTTP", () => {
  test("the usage report, encoded by the contract, decodes through the derived client and strictly", async () => {
    const { key } = await svc.newKey("developer")
    for (let i = 0; i < 3; i++) await svc.call("/v1/alerts/rules", { key })
    const strict = Schema.decodeUnknownSync(UsageReport, { onExcessProperty: "error", errors: "all" })
    for (const period of ["current", "7d", "30d"] as const) {
      const viaClient = await Effect.runPromise(
        Effect.flatMap(makeClient({ baseUrl: svc.baseUrl, apiKey: key }), (c) => c.analytics.usageSummary({ urlParams: { period } })).pipe(
          Effect.provide(FetchHttpClient.layer)
        )
      )
      expect(viaClient.period).toBe(period)
      const { body, status } = await get(`/v1/analytics/usage?period=${period}`, key)
      expect(status).toBe(200)
      expect(Schema.encodeSync(UsageReport)(strict(body))).toEqual(body)
    }
    // The check can fail: a field too many, or one of the wrong type, is refused.
    const { body } = await get("/v1/analytics/usage", key)
    expect(() => strict({ ...body, extra: 1 })).toThrow()
    expect(() => strict({ ...body, total_requests: String(body.total_requests) })).toThrow()
  })

  test("usage counts exactly the requests sent, by category, with quota", async () => {
    const { key } = await svc.newKey("developer")
    const other = await svc.newKey("developer")
    let sent = 0
    for (let i = 0; i < 25; i++) {
      expect((await svc.call("/v1/analytics/usage?period=7d", { key })).status).toBe(200)
      sent++
    }
    for (let i = 0; i < 7; i++) {
      expect((await svc.call("/v1/alerts/rules", { key })).status).toBe(200)
      sent++
    }
    for (let i = 0; i < 3; i++) {
      expect((await svc.call("/v1/alerts/rules/rule_missing", { key })).status).toBe(404)
      sent++
    }
    expect((await svc.call("/v1/analytics/usage?period=week", { key })).status).toBe(400)
    sent++
    // other organization's traffic and unauthenticated requests are not ours
    for (let i = 0; i < 5; i++) await svc.call("/v1/analytics/usage", { key: other.key })
    await svc.call("/v1/analytics/usage", { key: "di_0000000000000000_bogusbogusbogusbogusbogusbogusbogusbogusbog" })

    let reports = 0
    for (const period of ["current", "7d", "30d"]) {
      const { status, body } = await get(`/v1/analytics/usage?period=${period}`, key)
      expect(status).toBe(200)
      expect(body.total_requests).toBe(sent)
      expect(body.by_category).toMatchObject({ analytics: 25 + 1 + reports, alerts: 10, dns: 0, domain: 0, network: 0 })
      expect(body.daily_breakdown.reduce((a: number, d: any) => a + d.count, 0)).toBe(sent)
      expect(body.daily_breakdown.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), count: sent })
      sent++ // this report request itself is counted from now on
      reports++
      // quota counts the report request too
      expect(body.quota).toEqual({ limit: 50_000, used: sent, remaining: 50_000 - sent, percentage_used: Math.round((10000 * sent) / 50000) / 100 })
    }
    const def = await get("/v1/analytics/usage", key)
    expect(def.body.period).toBe("current")
    expect(def.body.total_requests).toBe(sent)
    expect((await get("/v1/analytics/usage", other.key)).body.total_requests).toBe(5)
  })

  test("performance percentiles match exact percentiles of the logged latencies within 1%", async () => {
    const { key, orgId } = await svc.newKey("developer")
    for (let i = 0; i < 60; i++) await svc.call("/v1/alerts/rules", { key })
    for (let i = 0; i < 15; i++) await svc.call("/v1/alerts/history/nope/resolve", { key, method: "POST" })
    await svc.flushLog()
    const logged = await svc.sql<{ latency_ms: number; status: number }>(
      "SELECT latency_ms, status FROM request_log WHERE org_id = ?", [orgId])
    expect(logged.length).toBe(75)
    const { status, body } = await get("/v1/analytics/performance?period=30d", key)
    expect(status).toBe(200)
    const sorted = logged.map((r) => r.latency_ms).sort((a, b) => a - b)
    for (const [f, q] of [["p50", 0.5], ["p95", 0.95], ["p99", 0.99]] as const) {
      const exact = Sketch.exactQuantile(sorted, q)
      // reported values are rounded to 0.01 ms
      expect(Math.abs(body[f] - exact)).toBeLessThanOrEqual(0.01 * exact + 0.005)
    }
    expect(body.avg_response_time).toBeCloseTo(sorted.reduce((a, b) => a + b, 0) / sorted.length, 1)
    expect(body.error_rate).toBe(20) // 15 of 75
    expect(body.total_requests).toBe(75)
    // 6-hour buckets from the one holding `start` up to `end`: 121, or 120 when `end` falls on a
    // bucket boundary (a run in the minute before 00:00, 06:00, 12:00 or 18:00 UTC).
    const bucket = 6 * 3_600_000
    const first = Math.floor(Date.parse(body.start) / bucket) * bucket
    expect(body.timeline.length).toBe(Math.ceil((Date.parse(body.end) - first) / bucket))
    expect([120, 121]).toContain(body.timeline.length)
    expect(body.timeline.reduce((a: number, t: any) => a + t.requests, 0)).toBe(75)
    expect(Object.keys(body.timeline[0]).sort()).toEqual(["avg_ms", "error_rate", "p95_ms", "requests", "timestamp"])

    const free = await svc.newKey("free")
    for (const path of ["/v1/analytics/performance", "/v1/analytics/cache"]) {
      const r = await get(path, free.key)
      expect(r.status).toBe(403)
      expect(r.body.error.code).toBe("plan_forbidden")
    }
    expect((await get("/v1/analytics/usage", free.key)).status).toBe(200)
    for (const bad of ["1d", "", "CURRENT", "7d&period=30d"]) {
      const r = await get(`/v1/analytics/performance?period=${bad}`, key)
      expect([bad, r.status, r.body.error.code]).toEqual([bad, 400, "invalid_request"])
    }
    expect((await svc.call("/v1/analytics/performance")).status).toBe(401)
  })

  test("cache report over cache outcomes recorded through the request log", async () => {
    const { key, orgId } = await svc.newKey("developer")
    const now = Date.now()
    const outcomes: Array<[string, string | null, number]> = [
      ...Array.from({ length: 8 }, () => ["/v1/domain/ct-logs", "hit", 3] as [string, string | null, number]),
      ...Array.from({ length: 2 }, () => ["/v1/domain/ct-logs", "miss", 803] as [string, string | null, number]),
      ...Array.from({ length: 1 }, () => ["/v1/dns/zone-hygiene", "hit", 10] as [string, string | null, number]),
      ...Array.from({ length: 4 }, () => ["/v1/dns/zone-hygiene", "miss", 510] as [string, string | null, number]),
      ...Array.from({ length: 5 }, () => ["/v1/network/http-check", "bypass", 40] as [string, string | null, number])
    ]
    await svc.run(Effect.flatMap(RequestLog, (log) =>
      Effect.forEach(outcomes, ([path, cache, latencyMs]) =>
        log.record({
          orgId, operation: path.split("/").at(-1)!, category: path.split("/")[2], method: "GET", path,
          status: 200, latencyMs, cache, ts: now
        }), { discard: true })))
    const { status, body } = await get("/v1/analytics/cache?period=7d", key)
    expect(status).toBe(200)
    expect(body.hits).toBe(9)
    expect(body.misses).toBe(6)
    expect(body.hit_rate).toBe(60)
    expect(body.by_endpoint.map((e: any) => [e.endpoint, e.hits, e.misses, e.hit_rate])).toEqual([
      ["/v1/dns/zone-hygiene", 1, 4, 20],
      ["/v1/domain/ct-logs", 8, 2, 80]
    ])
    expect(body.savings).toEqual({
      requests_saved: 9,
      cost_saved_cents: 0.9,
      latency_saved_ms: 8 * 800 + 1 * 500
    })
  })
})
