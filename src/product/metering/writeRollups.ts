/**
 * Writes a batch's rollups (src/product/metering/rollup.ts aggregates them) inside the transaction
 * that logs the batch (src/product/metering/writeBatch.ts), so the log and its rollups never disagree.
 */
import type { SqlClient } from "@effect/sql"
import { Array as Arr, Effect } from "effect"
import { type Aggregated, aggregate, HOUR, MINUTE } from "./rollup"
import { addToSketchRows, type SketchRowsTable } from "./sketchRows"
import type { RequestRecord } from "./RequestRecord"

const byKey = <A extends { orgId: string; ts: number; operation?: string }>(a: A, b: A) =>
  a.orgId < b.orgId ? -1 : a.orgId > b.orgId ? 1 : a.ts !== b.ts ? a.ts - b.ts :
  (a.operation ?? "") < (b.operation ?? "") ? -1 : (a.operation ?? "") > (b.operation ?? "") ? 1 : 0

/** An organization's rollup row: counters added, the latency sketch merged (./sketchRows.ts). */
const orgTable = (grain: "minute" | "hour"): SketchRowsTable => ({
  table: `rollup_${grain}`,
  key: [["org_id", "TEXT"], ["ts", "BIGINT"]],
  counters: [["requests", "BIGINT"], ["errors", "BIGINT"], ["latency_sum", "DOUBLE PRECISION"], ["cache_hits", "BIGINT"], ["cache_misses", "BIGINT"]]
})
const ORG_TABLES = { minute: orgTable("minute"), hour: orgTable("hour") }

/**
 * Adds the aggregated buckets to one grain's tables. Several instances may write the same
 * bucket at once (PostgreSQL): counters are added in SQL (`x = table.x + new.x`),
 * and the latency sketch, which SQL cannot merge, is merged under the row's lock
 * (./sketchRows.ts). Rows are touched in key order, so two writers never wait on each other in
 * a cycle.
 */
const writeGrain = (sql: SqlClient.SqlClient, grain: "minute" | "hour", agg: Aggregated) =>
  Effect.gen(function*() {
    const endpointTable = sql(`rollup_${grain}_endpoint`)
    yield* addToSketchRows(sql, ORG_TABLES[grain], [...agg.org.values()].sort(byKey).map((b) => ({
      key: [b.orgId, b.ts],
      counters: [b.requests, b.errors, b.latencySum, b.cacheHits, b.cacheMisses],
      sketch: b.sketch
    })))
    const t = endpointTable
    for (const rows of Arr.chunksOf([...agg.endpoint.values()].sort(byKey), 200)) {
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
        requests = ${t}.requests + excluded.requests, errors = ${t}.errors + excluded.errors,
        latency_sum = ${t}.latency_sum + excluded.latency_sum, cache_hits = ${t}.cache_hits + excluded.cache_hits,
        cache_misses = ${t}.cache_misses + excluded.cache_misses,
        hit_latency_sum = ${t}.hit_latency_sum + excluded.hit_latency_sum,
        miss_latency_sum = ${t}.miss_latency_sum + excluded.miss_latency_sum`
    }
  })

/**
 * Adds a batch to the minute and hour rollups. Run inside the transaction that logs the batch.
 * `minute`: the batch's minute aggregation when the caller has it already (the request log keeps
 * one as records arrive).
 */
export const writeRollups = (sql: SqlClient.SqlClient, batch: ReadonlyArray<RequestRecord>, minute?: Aggregated) =>
  Effect.gen(function*() {
    if (batch.length === 0) return
    yield* writeGrain(sql, "minute", minute ?? aggregate(batch, MINUTE))
    yield* writeGrain(sql, "hour", aggregate(batch, HOUR))
  })
