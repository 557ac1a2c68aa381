import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { placeholders } from "../../platform/store/Sql"
import type { RequestRecord } from "./RequestRecord"
import type { Aggregated } from "./rollup"
import { writeRollups } from "./writeRollups"

const columns = "org_id, operation, category, method, path, status, latency_ms, cache, ts"
const rowPlaceholders = "(?, ?, ?, ?, ?, ?, ?, ?, ?)"
const insertText = (rows: number) =>
  `INSERT INTO request_log (${columns}) VALUES ${Array.from({ length: rows }, () => rowPlaceholders).join(", ")}`
const chunk = 400
// A full chunk is the common case: its statement text is built once per dialect (and the
// driver keeps the prepared statement for the same text), instead of compiling `sql.insert`
// over 400 objects.
const fullChunkText = insertText(chunk)
let fullChunkPg: string | undefined

const insertRows = (sql: SqlClient.SqlClient, rows: ReadonlyArray<RequestRecord>) => {
  const params: Array<string | number | null> = []
  for (const r of rows) {
    params.push(r.orgId, r.operation, r.category, r.method, r.path, r.status, r.latencyMs, r.cache, r.ts)
  }
  const text = rows.length === chunk
    ? sql.onDialectOrElse({ pg: () => (fullChunkPg ??= placeholders(sql, fullChunkText)), orElse: () => fullChunkText })
    : placeholders(sql, insertText(rows.length))
  return sql.unsafe(text, params)
}

/**
 * Writes one batch of request records in a single transaction: the raw rows first (which takes
 * SQLite's write lock), then the analytics rollups (src/product/metering/writeRollups.ts), so the log and
 * its rollups never disagree. The monthly quota count is not written here: the quota decision
 * keeps it (src/product/metering/Quota.ts), one writer of the count.
 */
export const writeBatch = (sql: SqlClient.SqlClient, batch: ReadonlyArray<RequestRecord>, minute?: Aggregated) =>
  sql.withTransaction(
    Effect.forEach(
      Array.from({ length: Math.ceil(batch.length / chunk) }, (_, i) => batch.slice(i * chunk, (i + 1) * chunk)),
      (rows) => insertRows(sql, rows),
      { discard: true }
    ).pipe(Effect.zipRight(writeRollups(sql, batch, minute)))
  )
