/**
 * Writes a batch's rollups (src/analytics/rollup.ts aggregates them) inside the transaction
 * that logs the batch (src/metering/writeBatch.ts), so the log and its rollups never disagree.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type Aggregated, aggregate, HOUR, MINUTE } from "../analytics/rollup"
import * as Sketch from "../analytics/sketch"
import type { RequestRecord } from "./RequestRecord"

const chunks = <A>(xs: ReadonlyArray<A>, n: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n))

const writeGrain = (sql: SqlClient.SqlClient, grain: "minute" | "hour", agg: Aggregated) =>
  Effect.gen(function*() {
    const orgTable = sql(`rollup_${grain}`)
    const endpointTable = sql(`rollup_${grain}_endpoint`)
    // Organization buckets: read-merge-write the sketch (the caller's transaction already holds
    // the write lock, having inserted the raw rows first).
    for (const b of agg.org.values()) {
      const existing = yield* sql<{ requests: number; errors: number; latency_sum: number; cache_hits: number; cache_misses: number; sketch: Uint8Array }>`
        SELECT requests, errors, latency_sum, cache_hits, cache_misses, sketch FROM ${orgTable}
        WHERE org_id = ${b.orgId} AND ts = ${b.ts}`
      const row = existing[0]
      const sketch = row ? Sketch.mergeInto(Sketch.decode(row.sketch), b.sketch) : b.sketch
      yield* sql`INSERT INTO ${orgTable} ${
        sql.insert({
          org_id: b.orgId,
          ts: b.ts,
          requests: b.requests + (row?.requests ?? 0),
          errors: b.errors + (row?.errors ?? 0),
          latency_sum: b.latencySum + (row?.latency_sum ?? 0),
          cache_hits: b.cacheHits + (row?.cache_hits ?? 0),
          cache_misses: b.cacheMisses + (row?.cache_misses ?? 0),
          sketch: Sketch.encode(sketch)
        })
      } ON CONFLICT (org_id, ts) DO UPDATE SET requests = excluded.requests, errors = excluded.errors,
        latency_sum = excluded.latency_sum, cache_hits = excluded.cache_hits,
        cache_misses = excluded.cache_misses, sketch = excluded.sketch`
    }
    for (const rows of chunks([...agg.endpoint.values()], 200)) {
      yield* sql`INSERT INTO ${endpointTable} ${
        sql.insert(rows.map((e) => ({
          org_id: e.orgId,
          ts: e.ts,
          operation: e.operation,
          category: e.category,
          path: e.path,
          requests: e.requests,
          errors: e.errors,
          latency_sum: e.latencySum,
          cache_hits: e.cacheHits,
          cache_misses: e.cacheMisses,
          hit_latency_sum: e.hitLatencySum,
          miss_latency_sum: e.missLatencySum
        })))
      } ON CONFLICT (org_id, ts, operation) DO UPDATE SET
        requests = requests + excluded.requests, errors = errors + excluded.errors,
        latency_sum = latency_sum + excluded.latency_sum, cache_hits = cache_hits + excluded.cache_hits,
        cache_misses = cache_misses + excluded.cache_misses,
        hit_latency_sum = hit_latency_sum + excluded.hit_latency_sum,
        miss_latency_sum = miss_latency_sum + excluded.miss_latency_sum`
    }
  })

/** Adds a batch to the minute and hour rollups. Run inside the transaction that logs the batch. */
export const writeRollups = (sql: SqlClient.SqlClient, batch: ReadonlyArray<RequestRecord>) =>
  Effect.gen(function*() {
    if (batch.length === 0) return
    yield* writeGrain(sql, "minute", aggregate(batch, MINUTE))
    yield* writeGrain(sql, "hour", aggregate(batch, HOUR))
  })
