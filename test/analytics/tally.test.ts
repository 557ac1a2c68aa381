/**
 * The request log's running counts of unwritten records (what the usage report adds to the
 * rollups): per organization, minute and category; handed over with the batch being written,
 * kept when the write fails, gone once it succeeds. Real SQLite; the failure is a missing table.
 */
import { describe, expect, test } from "bun:test"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Analytics } from "../../src/product/analytics/Analytics"
import type { Organization } from "../../src/product/accounts/Keys"
import { RequestLog } from "../../src/product/metering/RequestLog"
import { rec, runTest } from "./support"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const now = Date.UTC(2026, 10, 23, 12, 30, 15)

// An operation has one category (the rollups group by operation).
const dns = { category: "dns", operation: "dnsLookup", path: "/v1/dns/lookup" }

const counts = (orgId: string) =>
  Effect.map(RequestLog, (log) => {
    const seen: Array<string> = []
    log.eachUnwrittenCount(orgId, (minute, category, n) => seen.push(`${new Date(minute).toISOString()} ${category} ${n}`))
    return seen.sort()
  })

describe("unwritten counts", () => {
  test("counted by minute and category, kept through a failed write, cleared by a good one; the usage report agrees", () =>
    runTest(
      Effect.gen(function*() {
        const log = yield* RequestLog
        const sql = yield* SqlClient.SqlClient
        const analytics = yield* Analytics
        const org = { id: "org_a", name: "a", plan: "enterprise" } as Organization
        log.unsafeRecord(rec({ ts: now - MINUTE, ...dns }))
        log.unsafeRecord(rec({ ts: now - MINUTE + 5, ...dns }))
        log.unsafeRecord(rec({ ts: now, category: "analytics" }))
        log.unsafeRecord(rec({ ts: now - DAY, ...dns })) // yesterday, in this month
        log.unsafeRecord(rec({ ts: now, orgId: "org_b", ...dns }))
        const expected = [
          "2026-11-22T12:30:00.000Z dns 1",
          "2026-11-23T12:29:00.000Z dns 2",
          "2026-11-23T12:30:00.000Z analytics 1"
        ]
        expect(yield* counts("org_a")).toEqual(expected)
        expect(yield* counts("org_b")).toEqual(["2026-11-23T12:30:00.000Z dns 1"])

        const report = () => analytics.usage(org, "current")
        const before = yield* report()
        expect(before.total_requests).toBe(4)
        expect(before.by_category).toMatchObject({ dns: 3, analytics: 1 })
        expect(before.daily_breakdown.filter((d) => d.count > 0)).toEqual([{ date: "2026-11-22", count: 1 }, { date: "2026-11-23", count: 3 }])

        // The write fails: the records and their counts stay, counted once.
        yield* sql`ALTER TABLE request_log RENAME TO request_log_away`
        yield* log.flush
        expect(yield* counts("org_a")).toEqual(expected)
        expect((yield* report()).total_requests).toBe(4)

        // It succeeds: the counts are gone and the rollups hold the same figures.
        yield* sql`ALTER TABLE request_log_away RENAME TO request_log`
        yield* log.flush
        expect(yield* counts("org_a")).toEqual([])
        const rows = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM request_log`
        expect(rows[0].n).toBe(5)
        const after = yield* report()
        expect(after.total_requests).toBe(4)
        expect(after.by_category).toEqual(before.by_category)
        expect(after.daily_breakdown).toEqual(before.daily_breakdown)
      }),
      { now }
    ))
})
