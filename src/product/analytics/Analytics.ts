/**
 * The three account reports and the alert metrics, read from the rollup tables only (never the
 * raw request log). Each report also counts the organization's requests the request log has not
 * written yet (aggregated here the way the writer will), so it sees the latest requests without
 * a write of its own: a flush per report cost a write transaction per request.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import type { Organization } from "../accounts/Keys"
import { Quota } from "../metering/Quota"
import { makeReadCache, type ReadCache } from "../../platform/store/readCache"
import { RequestLog, type UnwrittenBuckets } from "../metering/RequestLog"
import {
  cacheReport,
  type EndpointRow,
  type Metric,
  type OrgRow,
  type Period,
  performanceReport,
  periods,
  type QuotaFigures,
  splitRanges,
  trailingMinutes,
  usageReport,
  type Window,
  windowAt,
  windowMetric
} from "./analyze"
import { DAY, floorTo, orgColumns } from "../metering/rollup"

const noneUnwritten: UnwrittenBuckets = { org: [], endpoint: [] }

/** Rollup-shaped rows of the minute buckets not written yet inside [from, to) (minute-aligned windows). */
const pendingRows = (pending: UnwrittenBuckets, from: number, to: number) => {
  const inside = (b: { readonly ts: number }) => b.ts >= from && b.ts < to
  const org: Array<OrgRow> = pending.org.filter(inside).map(orgColumns)
  const endpoint: Array<EndpointRow> = pending.endpoint.filter(inside).map((e) => ({
    operation: e.operation,
    path: e.path,
    category: e.category,
    requests: e.requests,
    errors: e.errors,
    cache_hits: e.cacheHits,
    cache_misses: e.cacheMisses,
    hit_latency_sum: e.hitLatencySum,
    miss_latency_sum: e.missLatencySum
  }))
  return { org, endpoint }
}

/** What the usage report reads of rollup rows: requests per UTC day and per category. */
interface UsageCounts {
  readonly days: ReadonlyMap<number, number>
  readonly categories: ReadonlyMap<string, number>
}
const usageCounts = (rows: ReadonlyArray<OrgRow>, endpoints: ReadonlyArray<EndpointRow>): UsageCounts => {
  const days = new Map<number, number>()
  for (const r of rows) days.set(floorTo(r.ts, DAY), (days.get(floorTo(r.ts, DAY)) ?? 0) + Number(r.requests))
  const categories = new Map<string, number>()
  for (const e of endpoints) categories.set(e.category, (categories.get(e.category) ?? 0) + Number(e.requests))
  return { days, categories }
}

/** Endpoint rows summed per operation (the store's rows and the pending ones). */
const byOperation = (rows: ReadonlyArray<EndpointRow>): Array<EndpointRow> => {
  const out = new Map<string, EndpointRow>()
  for (const r of rows) {
    const o = out.get(r.operation)
    out.set(r.operation, o === undefined ? { ...r } : {
      ...o,
      requests: o.requests + r.requests,
      errors: o.errors + r.errors,
      cache_hits: o.cache_hits + r.cache_hits,
      cache_misses: o.cache_misses + r.cache_misses,
      hit_latency_sum: o.hit_latency_sum + r.hit_latency_sum,
      miss_latency_sum: o.miss_latency_sum + r.miss_latency_sum
    })
  }
  return [...out.values()]
}

export class Analytics extends Effect.Service<Analytics>()("domain-intel/Analytics", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const log = yield* RequestLog
    const quota = yield* Quota
    // An empty blob literal, for reports that need no latency sketch.
    const noSketch = sql.onDialectOrElse({ pg: () => sql.literal("'\\x'::bytea"), orElse: () => sql.literal("X''") })
    // The usage report's store rows by (organization, window), valid while the request log has
    // written no batch since (its `version`) and for at most READ_CACHE_MAX_AGE_MS (rollups written
    // by another instance on the same database; src/platform/store/readCache.ts). The log's unwritten
    // records are added on every read, so each request is still counted exactly.
    // One cache per period, by organization; an entry holds the window it was read for.
    const usageReads = Object.fromEntries(
      periods.map((p) => [p, makeReadCache<string, { readonly from: number; readonly to: number; readonly counts: UsageCounts }>()])
    ) as Record<Period, ReadCache<string, { readonly from: number; readonly to: number; readonly counts: UsageCounts }>>
    const storedUsage = (orgId: string, period: Period, w: Window, now: number): UsageCounts | undefined => {
      const e = usageReads[period].get(orgId, log.version(), now)
      return e !== undefined && e.from === w.from && e.to === w.to ? e.counts : undefined
    }

    /** Organization rollup rows covering [from, to): whole hours plus edge minutes, in one statement. */
    const orgRows = (orgId: string, from: number, to: number, withSketch: boolean) =>
      Effect.suspend(() => {
        const r = splitRanges(from, to)
        const cols = withSketch
          ? sql`ts, requests, errors, latency_sum, cache_hits, cache_misses, sketch`
          : sql`ts, requests, errors, latency_sum, cache_hits, cache_misses, ${noSketch} AS sketch`
        const parts = [
          ...(r.hours[0] < r.hours[1] ? [sql`SELECT ${cols} FROM rollup_hour
              WHERE org_id = ${orgId} AND ts >= ${r.hours[0]} AND ts < ${r.hours[1]}`] : []),
          ...r.minutes.map(([a, b]) => sql`SELECT ${cols} FROM rollup_minute
              WHERE org_id = ${orgId} AND ts >= ${a} AND ts < ${b}`)
        ]
        return sql<OrgRow>`${parts.reduce((acc, p) => sql`${acc} UNION ALL ${p}`)}`.pipe(Effect.map((rows): Array<OrgRow> => [...rows]))
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

    const window = (period: Period) => Effect.map(Clock.currentTimeMillis, (now) => windowAt(period, now))

    /**
     * `read` from the store, plus the organization's records not written yet; read again when a
     * batch was written meanwhile (its records would be counted twice or not at all), and after
     * a few such races, flush and read the store alone.
     */
    const fresh = <A, E>(orgId: string, read: Effect.Effect<A, E>) => {
      const attempt = (n: number): Effect.Effect<readonly [A, UnwrittenBuckets, number | undefined], E> =>
        Effect.suspend(() => {
          const before = log.unwrittenBuckets(orgId)
          return Effect.flatMap(read, (a) =>
            log.version() === before.version
              ? Effect.succeed([a, before, before.version] as const)
              : n < 3
              ? attempt(n + 1)
              : Effect.zipRight(log.flush, Effect.map(read, (b) => [b, noneUnwritten, undefined] as const)))
        })
      return attempt(0)
    }

    /**
     * The report from the stored counts, plus the records not written yet counted as the
     * writer's rollups will count them: `records` when they were read with the store, else the
     * log's running counts (read in the same synchronous step as the version the stored counts
     * were checked against).
     */
    const usageOf = (w: Window, stored: UsageCounts, pending: UnwrittenBuckets | undefined, orgId: string, q: QuotaFigures) => {
      const pendingDays = new Map<number, number>()
      const pendingCategories = new Map<string, number>()
      // The window is minute-aligned, so a minute is either wholly inside it or wholly outside.
      const count = (minute: number, category: string, n: number) => {
        if (minute < w.from || minute >= w.to) return
        const d = floorTo(minute, DAY)
        pendingDays.set(d, (pendingDays.get(d) ?? 0) + n)
        pendingCategories.set(category, (pendingCategories.get(category) ?? 0) + n)
      }
      if (pending === undefined) log.eachUnwrittenCount(orgId, count)
      else for (const e of pending.endpoint) count(e.ts, e.category, e.requests)
      return usageReport(w, [stored.days, pendingDays], [stored.categories, pendingCategories], q)
    }

    const usageFromStore = Effect.fnUntraced(function*(org: Organization, period: Period) {
      const w = yield* window(period)
      const now = yield* Clock.currentTimeMillis
      let stored = storedUsage(org.id, period, w, now)
      let pending: UnwrittenBuckets | undefined
      if (stored === undefined) {
        const [[rows, endpoints], unwritten, version] = yield* fresh(org.id, Effect.all([orgRows(org.id, w.from, w.to, false), endpointRows(org.id, w.from, w.to)]))
        stored = usageCounts(rows, endpoints)
        pending = unwritten
        if (version !== undefined) usageReads[period].set(org.id, version, now, { from: w.from, to: w.to, counts: stored })
      }
      return usageOf(w, stored, pending, org.id, yield* quota.used(org))
    }, Effect.orDie)

    /** The usage report (its stored counts read through `usageReads`, the quota's through `Quota.used`). */
    const usage = usageFromStore

    const performance = Effect.fn("Analytics.performance")(function*(org: Organization, period: Period) {
      const w = yield* window(period)
      const [rows, pending] = yield* fresh(org.id, orgRows(org.id, w.from, w.to, true))
      return performanceReport(w, [...rows, ...pendingRows(pending, w.from, w.to).org])
    }, Effect.orDie)

    const cache = Effect.fn("Analytics.cache")(function*(org: Organization, period: Period) {
      const w = yield* window(period)
      const [endpoints, pending] = yield* fresh(org.id, endpointRows(org.id, w.from, w.to))
      return cacheReport(w, byOperation([...endpoints, ...pendingRows(pending, w.from, w.to).endpoint]))
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
