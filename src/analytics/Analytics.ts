/**
 * The three account reports and the alert metrics, read from the rollup tables only (never the
 * raw request log). Each report first flushes the request log so it sees the latest requests.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import type { Organization } from "../auth/Keys"
import { Quota } from "../metering/Quota"
import { RequestLog } from "../metering/RequestLog"
import {
  cacheReport,
  type EndpointRow,
  type Metric,
  type OrgRow,
  type Period,
  performanceReport,
  resolveWindow,
  splitRanges,
  trailingMinutes,
  usageReport,
  windowMetric
} from "./analyze"

export class Analytics extends Effect.Service<Analytics>()("domain-intel/Analytics", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const log = yield* RequestLog
    const quota = yield* Quota
    // An empty blob literal, for reports that need no latency sketch.
    const noSketch = sql.onDialectOrElse({ pg: () => sql.literal("'\\x'::bytea"), orElse: () => sql.literal("X''") })

    /** Organization rollup rows covering [from, to): whole hours plus edge minutes. */
    const orgRows = (orgId: string, from: number, to: number, withSketch: boolean) =>
      Effect.gen(function*() {
        const r = splitRanges(from, to)
        const cols = withSketch
          ? sql`ts, requests, errors, latency_sum, cache_hits, cache_misses, sketch`
          : sql`ts, requests, errors, latency_sum, cache_hits, cache_misses, ${noSketch} AS sketch`
        const out: Array<OrgRow> = []
        if (r.hours[0] < r.hours[1]) {
          out.push(...(yield* sql<OrgRow>`SELECT ${cols} FROM rollup_hour
            WHERE org_id = ${orgId} AND ts >= ${r.hours[0]} AND ts < ${r.hours[1]}`))
        }
        for (const [a, b] of r.minutes) {
          out.push(...(yield* sql<OrgRow>`SELECT ${cols} FROM rollup_minute
            WHERE org_id = ${orgId} AND ts >= ${a} AND ts < ${b}`))
        }
        return out
      })

    /** Per-operation totals over [from, to). */
    const endpointRows = (orgId: string, from: number, to: number) =>
      Effect.gen(function*() {
        const r = splitRanges(from, to)
        const parts = [
          ...(r.hours[0] < r.hours[1] ? [sql`SELECT * FROM rollup_hour_endpoint
              WHERE org_id = ${orgId} AND ts >= ${r.hours[0]} AND ts < ${r.hours[1]}`] : []),
          ...r.minutes.map(([a, b]) => sql`SELECT * FROM rollup_minute_endpoint
              WHERE org_id = ${orgId} AND ts >= ${a} AND ts < ${b}`)
        ]
        const union = parts.reduce((acc, p) => sql`${acc} UNION ALL ${p}`)
        return yield* sql<EndpointRow>`
          SELECT operation, MAX(path) AS path, MAX(category) AS category, SUM(requests) AS requests,
            SUM(errors) AS errors, SUM(cache_hits) AS cache_hits, SUM(cache_misses) AS cache_misses,
            SUM(hit_latency_sum) AS hit_latency_sum, SUM(miss_latency_sum) AS miss_latency_sum
          FROM (${union}) AS parts GROUP BY operation`
      })

    const window = (period: Period) => Effect.map(Clock.currentTimeMillis, (now) => resolveWindow(period, now))

    const usage = Effect.fn("Analytics.usage")(function*(org: Organization, period: Period) {
      yield* log.flush
      const w = yield* window(period)
      const rows = yield* orgRows(org.id, w.from, w.to, false)
      const endpoints = yield* endpointRows(org.id, w.from, w.to)
      const byCat = new Map<string, number>()
      for (const e of endpoints) byCat.set(e.category, (byCat.get(e.category) ?? 0) + e.requests)
      const q = yield* quota.used(org)
      return usageReport(w, rows, [...byCat].map(([category, requests]) => ({ category, requests })), q)
    }, Effect.orDie)

    const performance = Effect.fn("Analytics.performance")(function*(org: Organization, period: Period) {
      yield* log.flush
      const w = yield* window(period)
      return performanceReport(w, yield* orgRows(org.id, w.from, w.to, true))
    }, Effect.orDie)

    const cache = Effect.fn("Analytics.cache")(function*(org: Organization, period: Period) {
      yield* log.flush
      const w = yield* window(period)
      return cacheReport(w, yield* endpointRows(org.id, w.from, w.to))
    }, Effect.orDie)

    /** A rule metric over the trailing `windowMinutes` (undefined: no data, never triggers). */
    const metric = Effect.fn("Analytics.metric")(function*(org: Organization, m: Metric, windowMinutes: number) {
      if (m === "quota_percentage_used") {
        const q = yield* quota.used(org)
        return q.limit === 0 ? undefined : Math.round((10000 * q.used) / q.limit) / 100
      }
      const now = yield* Clock.currentTimeMillis
      const { from, to } = trailingMinutes(windowMinutes, now)
      const rows = yield* sql<OrgRow>`SELECT ts, requests, errors, latency_sum, cache_hits, cache_misses,
          ${m === "p95_latency_ms" ? sql`sketch` : sql`${noSketch} AS sketch`}
        FROM rollup_minute WHERE org_id = ${org.id} AND ts >= ${from} AND ts < ${to}`
      return windowMetric(m, rows)
    }, Effect.orDie)

    return { usage, performance, cache, metric } as const
  })
}) {}
