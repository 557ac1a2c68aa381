/**
 * Reports over rollups written by the real batch writer into a real (in-memory) SQLite store,
 * with TestClock placing "now": counts checked against what the test wrote, percentiles against
 * exact percentiles of the same latencies.
 */
import { describe, expect, test } from "bun:test"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Analytics } from "../../src/product/analytics/Analytics"
import { pruneOnce } from "../../src/product/analytics/Pruning"
import { DAY, HOUR, MINUTE } from "../../src/product/metering/rollup"
import * as Sketch from "../../src/product/metering/sketch"
import type { Organization } from "../../src/product/accounts/Keys"
import { Quota } from "../../src/product/metering/Quota"
import type { RequestRecord } from "../../src/product/metering/RequestLog"
import { mulberry32, rec, runTest, storeLayer, write } from "./support"

const orgA: Organization = { id: "org_a", name: "a", plan: "developer" }
const orgB: Organization = { id: "org_b", name: "b", plan: "free" }
// 2026-03-18 13:37:42.5 UTC
const NOW = Date.UTC(2026, 2, 18, 13, 37, 42, 500)
const first = Date.UTC(2026, 3, 1, 0, 30)

describe("usage report", () => {
  test("totals, categories, zero days and quota over each period", () =>
    runTest(Effect.gen(function*() {
      const analytics = yield* Analytics
      const records: Array<RequestRecord> = []
      const put = (ts: number, category: string, org = "org_a", status = 200) =>
        records.push(rec({ ts, category, orgId: org, status, path: `/v1/${category}/x`, operation: `${category}Op` }))
      // inside the current month
      for (let i = 0; i < 5; i++) put(NOW - 2 * DAY, "dns")
      for (let i = 0; i < 3; i++) put(NOW - 30 * 1000, "domain")
      put(NOW - 10 * MINUTE, "network", "org_a", 500)
      put(NOW - 10 * MINUTE, "network", "org_a", 429) // logged, not counted against quota
      // other org: never visible
      for (let i = 0; i < 7; i++) put(NOW - HOUR, "dns", "org_b")
      // previous month (inside 30d, outside current and 7d)
      for (let i = 0; i < 4; i++) put(Date.UTC(2026, 1, 25, 10), "dns")
      // just inside and just outside the 7d window (minute resolution)
      const sevenStart = Math.floor(NOW / MINUTE) * MINUTE + MINUTE - 7 * DAY
      put(sevenStart, "alerts")
      put(sevenStart - 1, "advanced")
      yield* write(records)
      // The quota counts what the quota decision allowed (the 429 above never got that far).
      yield* Effect.flatMap(Quota, (q) => q.consume(orgA, 11))

      const cur = yield* analytics.usage(orgA, "current")
      expect(cur.total_requests).toBe(5 + 3 + 2 + 2) // the two window-edge requests are in March too
      expect(cur.by_category).toMatchObject({ dns: 5, domain: 3, network: 2, alerts: 1, advanced: 1, analytics: 0 })
      expect(cur.daily_breakdown.length).toBe(18)
      expect(cur.daily_breakdown[0]).toEqual({ date: "2026-03-01", count: 0 })
      expect(cur.daily_breakdown.find((d) => d.date === "2026-03-16")!.count).toBe(5)
      expect(cur.daily_breakdown.find((d) => d.date === "2026-03-18")!.count).toBe(5)
      expect(cur.daily_breakdown.reduce((a, d) => a + d.count, 0)).toBe(cur.total_requests)
      // quota: this month's counted requests (the 429 is not counted)
      expect(cur.quota).toEqual({ limit: 50_000, used: 11, remaining: 49_989, percentage_used: 0.02 })

      const seven = yield* analytics.usage(orgA, "7d")
      expect(seven.total_requests).toBe(5 + 3 + 2 + 1)
      expect(seven.by_category.advanced).toBe(0)
      expect(seven.daily_breakdown.length).toBe(8) // 7 × 24 h starting mid-day span 8 dates
      expect(seven.daily_breakdown.reduce((a, d) => a + d.count, 0)).toBe(11)

      const thirty = yield* analytics.usage(orgA, "30d")
      expect(thirty.total_requests).toBe(12 + 4)
      expect(thirty.daily_breakdown.length).toBe(31)
      expect(thirty.daily_breakdown.find((d) => d.date === "2026-02-25")!.count).toBe(4)

      const b = yield* analytics.usage(orgB, "current")
      expect(b.total_requests).toBe(7)
      expect(b.quota.limit).toBe(1000)
    }), { now: NOW }))

  test("current period restarts on the 1st of the month (UTC)", () =>
    runTest(Effect.gen(function*() {
      const analytics = yield* Analytics
      yield* write([rec({ ts: first - HOUR }), rec({ ts: first - HOUR }), rec({ ts: first - 10 * MINUTE })])
      const cur = yield* analytics.usage(orgA, "current")
      expect(cur.total_requests).toBe(1)
      expect(cur.daily_breakdown).toEqual([{ date: "2026-04-01", count: 1 }])
      const seven = yield* analytics.usage(orgA, "7d")
      expect(seven.total_requests).toBe(3)
    }), { now: first }))
})

describe("performance report", () => {
  test("percentiles within 1% of exact, average, error rate, timeline", () =>
    runTest(Effect.gen(function*() {
      const analytics = yield* Analytics
      const r = mulberry32(7)
      const inWindow: Array<RequestRecord> = []
      for (let i = 0; i < 20_000; i++) {
        const u = Math.max(r(), 1e-9)
        const latencyMs = r() < 0.95 ? 2 + 40 * u : 300 + 3000 * u
        inWindow.push(rec({ ts: NOW - Math.floor(r() * 6.9 * DAY), latencyMs, status: r() < 0.07 ? (r() < 0.5 ? 404 : 503) : 200 }))
      }
      // outside 7d but inside the month; very slow, to prove the window excludes them
      const outside = Array.from({ length: 500 }, () => rec({ ts: NOW - 8 * DAY, latencyMs: 99_999 }))
      yield* write(inWindow.slice(0, 10_000))
      yield* write(outside)
      yield* write(inWindow.slice(10_000))

      const report = yield* analytics.performance(orgA, "7d")
      const sorted = inWindow.map((x) => x.latencyMs).sort((a, b) => a - b)
      for (const [field, q] of [["p50", 0.5], ["p95", 0.95], ["p99", 0.99]] as const) {
        const exact = Sketch.exactQuantile(sorted, q)
        expect(Math.abs(report[field] - exact) / exact).toBeLessThanOrEqual(0.0101)
      }
      const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length
      expect(report.avg_response_time).toBeCloseTo(mean, 1)
      const errors = inWindow.filter((x) => x.status >= 400).length
      expect(report.error_rate).toBeCloseTo((100 * errors) / inWindow.length, 2)
      expect(report.total_requests).toBe(20_000)
      // hourly timeline over 7 days: every hour present, counts add up
      expect(report.timeline_bucket_seconds).toBe(3600)
      expect(report.timeline.length).toBe(7 * 24 + 1)
      expect(report.timeline.reduce((a, t) => a + t.requests, 0)).toBe(20_000)
      for (let i = 1; i < report.timeline.length; i++) {
        expect(Date.parse(report.timeline[i].timestamp) - Date.parse(report.timeline[i - 1].timestamp)).toBe(HOUR)
      }
      // one bucket checked exactly against its own records
      const busiest = report.timeline.reduce((a, t) => (t.requests > a.requests ? t : a))
      const start = Date.parse(busiest.timestamp)
      const own = inWindow.filter((x) => x.ts >= start && x.ts < start + HOUR)
      expect(own.length).toBe(busiest.requests)
      const ownSorted = own.map((x) => x.latencyMs).sort((a, b) => a - b)
      const exactP95 = Sketch.exactQuantile(ownSorted, 0.95)
      expect(Math.abs(busiest.p95_ms - exactP95) / exactP95).toBeLessThanOrEqual(0.0101)
      expect(busiest.error_rate).toBeCloseTo((100 * own.filter((x) => x.status >= 400).length) / own.length, 2)

      const month = yield* analytics.performance(orgA, "current")
      expect(month.timeline_bucket_seconds).toBe(6 * 3600)
      expect(month.p99).toBeGreaterThan(90_000) // now the slow ones are in
    }), { now: NOW }))

  test("an organization with no traffic gets zeros, not NaN", () =>
    runTest(Effect.gen(function*() {
      const report = yield* (yield* Analytics).performance(orgB, "30d")
      expect(report).toMatchObject({ avg_response_time: 0, p50: 0, p95: 0, p99: 0, error_rate: 0, total_requests: 0 })
      expect(report.timeline.length).toBe(121)
      expect(JSON.stringify(report)).not.toContain("null")
    }), { now: NOW }))
})

describe("cache report", () => {
  test("hits, misses, null/bypass excluded, stale is a hit, lowest hit rate first, savings", () =>
    runTest(Effect.gen(function*() {
      const analytics = yield* Analytics
      const ep = (path: string, cache: string | null, latencyMs: number) =>
        rec({ ts: NOW - HOUR * 3, path, operation: path, category: path.split("/")[2], cache, latencyMs })
      const records = [
        ...Array.from({ length: 9 }, () => ep("/v1/domain/ct-logs", "hit", 2)),
        ...Array.from({ length: 1 }, () => ep("/v1/domain/ct-logs", "stale", 2)),
        ...Array.from({ length: 10 }, () => ep("/v1/domain/ct-logs", "miss", 402)),
        ...Array.from({ length: 1 }, () => ep("/v1/domain/waf", "hit", 5)),
        ...Array.from({ length: 3 }, () => ep("/v1/domain/waf", "miss", 105)),
        ...Array.from({ length: 6 }, () => ep("/v1/network/http-check", "bypass", 50)),
        ...Array.from({ length: 6 }, () => ep("/v1/analytics/usage", null, 1))
      ]
      yield* write(records)
      const report = yield* analytics.cache(orgA, "current")
      expect(report.hits).toBe(11)
      expect(report.misses).toBe(13)
      expect(report.hit_rate).toBeCloseTo((100 * 11) / 24, 2)
      expect(report.by_endpoint.map((e) => [e.endpoint, e.hits, e.misses, e.hit_rate])).toEqual([
        ["/v1/domain/waf", 1, 3, 25],
        ["/v1/domain/ct-logs", 10, 10, 50]
      ])
      expect(report.savings.requests_saved).toBe(11)
      expect(report.savings.cost_saved_cents).toBeCloseTo(1.1, 5)
      // ct-logs: 10 hits × (402 − 2) ms; waf: 1 hit × (105 − 5) ms
      expect(report.savings.latency_saved_ms).toBeCloseTo(10 * 400 + 100, 3)
    }), { now: NOW }))
})

describe("retention", () => {
  test("pruning deletes old raw rows but reports (rollups) are unchanged", () =>
    runTest(Effect.gen(function*() {
      const analytics = yield* Analytics
      const sql = yield* SqlClient.SqlClient
      yield* write([
        ...Array.from({ length: 4 }, (_, i) => rec({ ts: NOW - 20 * DAY - i })),
        ...Array.from({ length: 6 }, (_, i) => rec({ ts: NOW - 2 * DAY + i }))
      ])
      const before = yield* analytics.usage(orgA, "30d")
      const pruned = yield* pruneOnce
      expect(pruned.raw).toBe(4)
      const left = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM request_log`
      expect(left[0].n).toBe(6)
      const after = yield* analytics.usage(orgA, "30d")
      expect(after.total_requests).toBe(10)
      expect(after.daily_breakdown).toEqual(before.daily_breakdown)
    }), { now: NOW, layer: storeLayer({ requestLogRetentionDays: 10 }) }))
})
