/**
 * Report arithmetic (pure): period → window, window → rollup ranges, rollup rows → reports.
 * No Effect, no I/O. docs/operations/analytics.md states every rule implemented here.
 */
import { memoize } from "../../kernel/memo"
import { monthStart } from "../metering/Quota"
import { DAY, floorTo, HOUR, MINUTE } from "../metering/rollup"
import * as Sketch from "../metering/sketch"

export type Period = "7d" | "30d" | "current"
export const periods: ReadonlyArray<Period> = ["7d", "30d", "current"]

export interface Window {
  readonly period: Period
  /** Inclusive start, minute aligned (ms). */
  readonly from: number
  /** Exclusive end: the end of the current minute (ms). */
  readonly to: number
  /** Timeline bucket size (ms). */
  readonly bucket: number
}

/**
 * `current`: from the start of the UTC calendar month. `7d`/`30d`: the last 7×1440 / 30×1440
 * minutes, the current minute included. Resolution is one minute (the finest rollup).
 */
export const resolveWindow = (period: Period, now: number): Window => {
  const to = floorTo(now, MINUTE) + MINUTE
  switch (period) {
    case "current":
      return { period, from: monthStart(now), to, bucket: 6 * HOUR }
    case "7d":
      return { period, from: to - 7 * DAY, to, bucket: HOUR }
    case "30d":
      return { period, from: to - 30 * DAY, to, bucket: 6 * HOUR }
  }
}

/** `resolveWindow`, remembered per period for the current minute (every usage request asks). */
const lastWindows = new Map<Period, Window>()
export const windowAt = (period: Period, now: number): Window => {
  const known = lastWindows.get(period)
  if (known !== undefined && now < known.to && now >= known.to - MINUTE) return known
  const w = resolveWindow(period, now)
  lastWindows.set(period, w)
  return w
}

/** The last `minutes` minutes, the current one included. */
export const trailingMinutes = (minutes: number, now: number): { from: number; to: number } => {
  const to = floorTo(now, MINUTE) + MINUTE
  return { from: to - minutes * MINUTE, to }
}

export interface Ranges {
  /** [from, to) of whole hours read from the hour rollups (empty when from === to). */
  readonly hours: readonly [number, number]
  /** [from, to) minute ranges read from the minute rollups. */
  readonly minutes: ReadonlyArray<readonly [number, number]>
}

/** Splits a minute-aligned window into whole hours plus the minutes at either edge. */
export const splitRanges = (from: number, to: number): Ranges => {
  const h0 = Math.ceil(from / HOUR) * HOUR
  const h1 = floorTo(to, HOUR)
  if (h0 >= h1) return { hours: [h0, h0], minutes: [[from, to]] }
  const minutes: Array<readonly [number, number]> = []
  if (from < h0) minutes.push([from, h0])
  if (h1 < to) minutes.push([h1, to])
  return { hours: [h0, h1], minutes }
}

export interface OrgRow {
  readonly ts: number
  readonly requests: number
  readonly errors: number
  readonly latency_sum: number
  readonly cache_hits: number
  readonly cache_misses: number
  readonly sketch: Uint8Array
}

export interface EndpointRow {
  readonly operation: string
  readonly path: string
  readonly category: string
  readonly requests: number
  readonly errors: number
  readonly cache_hits: number
  readonly cache_misses: number
  readonly hit_latency_sum: number
  readonly miss_latency_sum: number
}

export const round2 = (x: number) => Math.round(x * 100) / 100
export const pct = (part: number, whole: number) => (whole === 0 ? 0 : round2((100 * part) / whole))
/** ISO strings of the few instants reports repeat (window edges, day starts), built once each. */
const iso = memoize((ms: number) => new Date(ms).toISOString(), 4096)
const isoDate = (ms: number) => iso(ms).slice(0, 10)

// ---- Usage -----------------------------------------------------------------------------------

/** Categories always present in `by_category` (docs/operations/analytics.md, "Usage Summary"), zero when unused. */
export const knownCategories = ["dns", "domain", "network", "analytics", "alerts", "advanced"] as const

export interface QuotaFigures {
  readonly limit: number
  readonly used: number
}

/** Day starts of a window, with their dates, built once per window (every usage request asks). */
let windowDays: { readonly from: number; readonly to: number; readonly days: ReadonlyArray<{ readonly ts: number; readonly date: string }> } | undefined
const daysOf = (w: Window) => {
  if (windowDays?.from !== w.from || windowDays.to !== w.to) {
    const days: Array<{ ts: number; date: string }> = []
    for (let d = floorTo(w.from, DAY); d < w.to; d += DAY) days.push({ ts: d, date: isoDate(d) })
    windowDays = { from: w.from, to: w.to, days }
  }
  return windowDays.days
}

/**
 * The usage report from request counts by day start (every day of the window, in order) and by
 * category, each given as the sum of two sources (the store's rollups and the records not
 * written yet), so neither is copied per request.
 */
export const usageReport = (
  w: Window,
  days: ReadonlyArray<ReadonlyMap<number, number>>,
  categories: ReadonlyArray<ReadonlyMap<string, number>>,
  quota: QuotaFigures
) => {
  let total = 0
  const daily_breakdown = daysOf(w).map(({ date, ts }) => {
    let count = 0
    for (const m of days) count += m.get(ts) ?? 0
    total += count
    return { date, count }
  })
  const by_category: Record<string, number> = {}
  for (const c of knownCategories) by_category[c] = 0
  for (const m of categories) for (const [c, n] of m) by_category[c] = (by_category[c] ?? 0) + n
  const remaining = Math.max(0, quota.limit - quota.used)
  return {
    period: w.period,
    start: iso(w.from),
    end: iso(w.to),
    total_requests: total,
    by_category,
    daily_breakdown,
    quota: {
      limit: quota.limit,
      used: quota.used,
      remaining,
      percentage_used: pct(quota.used, quota.limit)
    }
  }
}

// ---- Performance -----------------------------------------------------------------------------

interface Acc {
  requests: number
  errors: number
  latencySum: number
  sketch: Sketch.Sketch
}
const newAcc = (): Acc => ({ requests: 0, errors: 0, latencySum: 0, sketch: Sketch.empty() })
const addRow = (a: Acc, r: OrgRow, sketch: Sketch.Sketch) => {
  a.requests += r.requests
  a.errors += r.errors
  a.latencySum += r.latency_sum
  Sketch.mergeInto(a.sketch, sketch)
}

export const performanceReport = (w: Window, rows: ReadonlyArray<OrgRow>) => {
  const total = newAcc()
  const buckets = new Map<number, Acc>()
  for (let b = floorTo(w.from, w.bucket); b < w.to; b += w.bucket) buckets.set(b, newAcc())
  for (const r of rows) {
    const s = Sketch.decode(r.sketch)
    const b = floorTo(r.ts, w.bucket)
    let acc = buckets.get(b)
    if (!acc) {
      acc = newAcc()
      buckets.set(b, acc)
    }
    addRow(acc, r, s)
    addRow(total, r, s)
  }
  return {
    period: w.period,
    start: iso(w.from),
    end: iso(w.to),
    total_requests: total.requests,
    avg_response_time: total.requests === 0 ? 0 : round2(total.latencySum / total.requests),
    p50: round2(Sketch.quantile(total.sketch, 0.5)),
    p95: round2(Sketch.quantile(total.sketch, 0.95)),
    p99: round2(Sketch.quantile(total.sketch, 0.99)),
    error_rate: pct(total.errors, total.requests),
    percentile_relative_error: Sketch.RELATIVE_ACCURACY,
    timeline_bucket_seconds: w.bucket / 1000,
    timeline: [...buckets.entries()].sort((a, b) => a[0] - b[0]).map(([b, a]) => ({
      timestamp: iso(b),
      requests: a.requests,
      avg_ms: a.requests === 0 ? 0 : round2(a.latencySum / a.requests),
      p95_ms: round2(Sketch.quantile(a.sketch, 0.95)),
      error_rate: pct(a.errors, a.requests)
    }))
  }
}

// ---- Cache -----------------------------------------------------------------------------------

/**
 * Cost of one avoided computation, in cents: the project's flat estimate of the upstream work
 * (DNS queries, fetches, CT aggregator calls) a cache hit saves (docs/operations/analytics.md, "Cache Statistics").
 */
export const COST_PER_MISS_CENTS = 0.1

export const cacheReport = (w: Window, endpoints: ReadonlyArray<EndpointRow>) => {
  let hits = 0
  let misses = 0
  let latencySaved = 0
  const by_endpoint = endpoints
    .filter((e) => e.cache_hits + e.cache_misses > 0)
    .map((e) => {
      hits += e.cache_hits
      misses += e.cache_misses
      // Each hit saved the difference between this endpoint's mean miss and mean hit latency.
      if (e.cache_hits > 0 && e.cache_misses > 0) {
        const gain = e.miss_latency_sum / e.cache_misses - e.hit_latency_sum / e.cache_hits
        if (gain > 0) latencySaved += gain * e.cache_hits
      }
      return {
        endpoint: e.path,
        operation: e.operation,
        hits: e.cache_hits,
        misses: e.cache_misses,
        hit_rate: pct(e.cache_hits, e.cache_hits + e.cache_misses)
      }
    })
    .sort((a, b) => a.hit_rate - b.hit_rate || (b.hits + b.misses) - (a.hits + a.misses) || a.endpoint.localeCompare(b.endpoint))
  return {
    period: w.period,
    start: iso(w.from),
    end: iso(w.to),
    hit_rate: pct(hits, hits + misses),
    hits,
    misses,
    by_endpoint,
    savings: {
      requests_saved: hits,
      cost_saved_cents: round2(hits * COST_PER_MISS_CENTS),
      latency_saved_ms: round2(latencySaved)
    }
  }
}

// ---- Alert metrics ---------------------------------------------------------------------------

export type Metric =
  | "error_rate"
  | "p95_latency_ms"
  | "avg_latency_ms"
  | "request_count"
  | "quota_percentage_used"
  | "cache_hit_rate"

/**
 * A metric over rollup rows, or undefined when it has no value (no requests for the latency and
 * error metrics, no cacheable requests for the hit rate): such a window never triggers.
 */
export const windowMetric = (
  metric: Exclude<Metric, "quota_percentage_used">,
  rows: ReadonlyArray<OrgRow>
): number | undefined => {
  const a = newAcc()
  let hits = 0
  let misses = 0
  for (const r of rows) {
    addRow(a, r, metric === "p95_latency_ms" ? Sketch.decode(r.sketch) : Sketch.empty())
    hits += r.cache_hits
    misses += r.cache_misses
  }
  switch (metric) {
    case "request_count":
      return a.requests
    case "error_rate":
      return a.requests === 0 ? undefined : pct(a.errors, a.requests)
    case "avg_latency_ms":
      return a.requests === 0 ? undefined : round2(a.latencySum / a.requests)
    case "p95_latency_ms":
      return a.requests === 0 ? undefined : round2(Sketch.quantile(a.sketch, 0.95))
    case "cache_hit_rate":
      return hits + misses === 0 ? undefined : pct(hits, hits + misses)
  }
}
