/**
 * Rollup aggregation (src/product/metering/rollup.ts, pure): a batch whose records interleave
 * organizations, minutes and operations gives the same buckets as counting each record on its
 * own, whatever the order of the batch.
 */
import { describe, expect, test } from "bun:test"
import { aggregate, HOUR, MINUTE } from "../../src/product/metering/rollup"
import type { RequestRecord } from "../../src/product/metering/RequestRecord"

const t0 = Date.UTC(2026, 10, 23, 11, 58, 0)
const orgs = ["org-a", "org-b", "org-c"]
const ops = [
  { operation: "ctLogs", category: "ct", path: "/v1/domain/ct-logs" },
  { operation: "usageReport", category: "analytics", path: "/v1/analytics/usage" },
  { operation: "listAlertRules", category: "alerts", path: "/v1/alerts/rules" }
]
const caches = [null, "hit", "miss", "stale", "bypass"]

/** A deterministic pseudo-random batch: runs of alike records broken by switches of every kind. */
const batch = (n: number, seed: number): Array<RequestRecord> => {
  let x = seed
  const next = (k: number) => {
    x = (x * 1103515245 + 12345) % 2147483648
    return x % k
  }
  let org = 0, op = 0, ts = t0
  return Array.from({ length: n }, () => {
    if (next(4) === 0) org = next(orgs.length)
    if (next(3) === 0) op = next(ops.length)
    ts += next(40_000) // crosses minutes, and the hour at 12:00
    if (next(7) === 0) ts -= next(150_000) // late records go back to buckets seen before
    return {
      orgId: orgs[org], ...ops[op], method: "GET",
      status: next(5) === 0 ? 500 : 200, latencyMs: 1 + next(300), cache: caches[next(caches.length)], ts
    }
  })
}

/** Each record counted on its own, keyed as the rollup tables key their rows. */
const reference = (records: ReadonlyArray<RequestRecord>, unit: number) => {
  const org = new Map<string, { requests: number; errors: number; latencySum: number; cacheHits: number; cacheMisses: number; count: number }>()
  const endpoint = new Map<string, { requests: number; errors: number; latencySum: number; hitLatencySum: number; missLatencySum: number }>()
  for (const r of records) {
    const ts = Math.floor(r.ts / unit) * unit
    const hit = r.cache === "hit" || r.cache === "stale"
    const miss = r.cache === "miss"
    const o = org.get(`${r.orgId} ${ts}`) ?? { requests: 0, errors: 0, latencySum: 0, cacheHits: 0, cacheMisses: 0, count: 0 }
    org.set(`${r.orgId} ${ts}`, {
      requests: o.requests + 1, errors: o.errors + (r.status >= 400 ? 1 : 0), latencySum: o.latencySum + r.latencyMs,
      cacheHits: o.cacheHits + (hit ? 1 : 0), cacheMisses: o.cacheMisses + (miss ? 1 : 0), count: o.count + 1
    })
    const key = `${r.orgId} ${ts} ${r.operation}`
    const e = endpoint.get(key) ?? { requests: 0, errors: 0, latencySum: 0, hitLatencySum: 0, missLatencySum: 0 }
    endpoint.set(key, {
      requests: e.requests + 1, errors: e.errors + (r.status >= 400 ? 1 : 0), latencySum: e.latencySum + r.latencyMs,
      hitLatencySum: e.hitLatencySum + (hit ? r.latencyMs : 0), missLatencySum: e.missLatencySum + (miss ? r.latencyMs : 0)
    })
  }
  return { org, endpoint }
}

const view = (records: ReadonlyArray<RequestRecord>, unit: number) => {
  const agg = aggregate(records, unit)
  const org = new Map([...agg.org.values()].map((b) => [`${b.orgId} ${b.ts}`, {
    requests: b.requests, errors: b.errors, latencySum: b.latencySum, cacheHits: b.cacheHits, cacheMisses: b.cacheMisses, count: b.sketch.count
  }]))
  const endpoint = new Map([...agg.endpoint.values()].map((e) => [`${e.orgId} ${e.ts} ${e.operation}`, {
    requests: e.requests, errors: e.errors, latencySum: e.latencySum, hitLatencySum: e.hitLatencySum, missLatencySum: e.missLatencySum
  }]))
  return { org, endpoint }
}

describe("aggregate", () => {
  for (const [name, unit] of [["minute", MINUTE], ["hour", HOUR]] as const) {
    test(`per ${name}: interleaved records give the buckets of counting each one alone`, () => {
      for (const seed of [1, 2, 3, 42]) {
        const records = batch(2_000, seed)
        const expected = reference(records, unit)
        expect(view(records, unit)).toEqual(expected)
        // The order of the batch does not matter.
        expect(view([...records].reverse(), unit)).toEqual(expected)
        expect(view([...records].sort((a, b) => a.orgId.localeCompare(b.orgId) || a.operation.localeCompare(b.operation)), unit)).toEqual(expected)
      }
    })
  }

  test("the batch really interleaves (several organizations, operations and buckets)", () => {
    const agg = aggregate(batch(2_000, 1), MINUTE)
    expect(new Set([...agg.org.values()].map((b) => b.orgId)).size).toBe(3)
    expect(agg.org.size).toBeGreaterThan(30)
    expect(agg.endpoint.size).toBeGreaterThan(agg.org.size)
  })
})
