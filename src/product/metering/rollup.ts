/**
 * Rollup aggregation (pure): a batch of request records → per-(org, minute) and per-(org, hour)
 * totals with a latency sketch, and the same counters per (org, bucket, operation).
 * The request-log writer adds them to the rollup tables (src/product/metering/writeRollups.ts).
 */
import type { RequestRecord } from "./RequestRecord"
import * as Sketch from "./sketch"

export const MINUTE = 60_000
export const HOUR = 3_600_000
export const DAY = 86_400_000

export const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit
export const ceilTo = (ms: number, unit: number) => Math.ceil(ms / unit) * unit

/** Hit: served from cache (fresh or stale). Miss: computed. `bypass` and null are neither. */
export const cacheClass = (cache: string | null): "hit" | "miss" | null =>
  cache === "hit" || cache === "stale" ? "hit" : cache === "miss" ? "miss" : null

export const isError = (status: number) => status >= 400

export interface OrgBucket {
  orgId: string
  ts: number
  requests: number
  errors: number
  latencySum: number
  cacheHits: number
  cacheMisses: number
  sketch: Sketch.Sketch
}

/** An organization bucket as the columns of its rollup row (`org_id` aside). */
export const orgColumns = (b: OrgBucket) => ({
  ts: b.ts,
  requests: b.requests,
  errors: b.errors,
  latency_sum: b.latencySum,
  cache_hits: b.cacheHits,
  cache_misses: b.cacheMisses,
  sketch: Sketch.encode(b.sketch)
})

export interface EndpointBucket {
  orgId: string
  ts: number
  operation: string
  category: string
  path: string
  requests: number
  errors: number
  latencySum: number
  cacheHits: number
  cacheMisses: number
  hitLatencySum: number
  missLatencySum: number
}

export interface Aggregated {
  readonly org: Map<string, OrgBucket>
  readonly endpoint: Map<string, EndpointBucket>
}

/**
 * An aggregation that grows one record at a time: the writer folds a batch with it, and the
 * request log keeps one over its unwritten records, so a report adds a few buckets rather than
 * aggregating every unwritten record again on each read.
 */
export const makeAggregator = (unit: number): Aggregated & { readonly add: (r: RequestRecord) => void } => {
  const org = new Map<string, OrgBucket>()
  const endpoint = new Map<string, EndpointBucket>()
  // Neighbouring records mostly share their organization, bucket and operation (a batch is a
  // few hundred ms of traffic): the buckets of the record before are reused without building
  // their keys.
  let o: OrgBucket | undefined
  let e: EndpointBucket | undefined
  let okey = ""
  const add = (r: RequestRecord): void => {
    const ts = floorTo(r.ts, unit)
    const err = isError(r.status) ? 1 : 0
    const cls = cacheClass(r.cache)
    if (o === undefined || o.ts !== ts || o.orgId !== r.orgId) {
      okey = `${r.orgId}\u0000${ts}`
      o = org.get(okey)
      if (!o) {
        o = { orgId: r.orgId, ts, requests: 0, errors: 0, latencySum: 0, cacheHits: 0, cacheMisses: 0, sketch: Sketch.empty() }
        org.set(okey, o)
      }
      e = undefined
    }
    o.requests++
    o.errors += err
    o.latencySum += r.latencyMs
    if (cls === "hit") o.cacheHits++
    else if (cls === "miss") o.cacheMisses++
    Sketch.add(o.sketch, r.latencyMs)

    if (e === undefined || e.operation !== r.operation) {
      const ekey = `${okey}\u0000${r.operation}`
      e = endpoint.get(ekey)
      if (!e) {
        e = {
          orgId: r.orgId, ts, operation: r.operation, category: r.category, path: r.path,
          requests: 0, errors: 0, latencySum: 0, cacheHits: 0, cacheMisses: 0, hitLatencySum: 0, missLatencySum: 0
        }
        endpoint.set(ekey, e)
      }
    }
    e.requests++
    e.errors += err
    e.latencySum += r.latencyMs
    if (cls === "hit") {
      e.cacheHits++
      e.hitLatencySum += r.latencyMs
    } else if (cls === "miss") {
      e.cacheMisses++
      e.missLatencySum += r.latencyMs
    }
  }
  return { org, endpoint, add }
}

export const aggregate = (batch: ReadonlyArray<RequestRecord>, unit: number): Aggregated => {
  const a = makeAggregator(unit)
  for (const r of batch) a.add(r)
  return { org: a.org, endpoint: a.endpoint }
}

