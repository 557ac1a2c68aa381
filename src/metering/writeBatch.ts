import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { countsAgainstQuota, monthStart, nextMonthStart } from "./Quota"
import type { RequestRecord } from "./RequestRecord"
import { writeRollups } from "./writeRollups"

/** Adds the batch's counted requests to each organization's monthly usage. */
const writeQuotaUsage = (sql: SqlClient.SqlClient, batch: ReadonlyArray<RequestRecord>) => {
  const sums = new Map<string, { org_id: string; month: number; used: number }>()
  // A batch spans 200 ms: compute the month's bounds once, not per record.
  let month = 0
  let next = 0
  for (const r of batch) {
    if (!countsAgainstQuota(r.status)) continue
    if (r.ts < month || r.ts >= next) {
      month = monthStart(r.ts)
      next = nextMonthStart(r.ts)
    }
    const key = `${r.orgId}|${month}`
    const entry = sums.get(key)
    if (entry) entry.used++
    else sums.set(key, { org_id: r.orgId, month, used: 1 })
  }
  if (sums.size === 0) return Effect.void
  return sql`INSERT INTO quota_usage ${sql.insert([...sums.values()])}
    ON CONFLICT (org_id, month) DO UPDATE SET used = used + excluded.used`.pipe(Effect.asVoid)
}

const columns = "org_id, operation, category, method, path, status, latency_ms, cache, ts"
const rowPlaceholders = "(?, ?, ?, ?, ?, ?, ?, ?, ?)"
const insertText = (rows: number) =>
  `INSERT INTO request_log (${columns}) VALUES ${Array.from({ length: rows }, () => rowPlaceholders).join(", ")}`
const chunk = 400
// A full chunk is the common case: its statement text is built once (and bun:sqlite keeps the
// prepared statement for the same text), instead of compiling `sql.insert` over 400 objects.
const fullChunkText = insertText(chunk)

const insertRows = (sql: SqlClient.SqlClient, rows: ReadonlyArray<RequestRecord>) => {
  const params: Array<string | number | null> = []
  for (const r of rows) {
    params.push(r.orgId, r.operation, r.category, r.method, r.path, r.status, r.latencyMs, r.cache, r.ts)
  }
  return sql.unsafe(rows.length === chunk ? fullChunkText : insertText(rows.length), params)
}

/**
 * Writes one batch of request records in a single transaction: the raw rows first (which takes
 * SQLite's write lock), then the analytics rollups (src/analytics/rollup.ts), so the log and
 * its rollups never disagree.
 */
export const writeBatch = (sql: SqlClient.SqlClient, batch: ReadonlyArray<RequestRecord>) =>
  sql.withTransaction(
    Effect.forEach(
      Array.from({ length: Math.ceil(batch.length / chunk) }, (_, i) => batch.slice(i * chunk, (i + 1) * chunk)),
      (rows) => insertRows(sql, rows),
      { discard: true }
    ).pipe(
      Effect.zipRight(writeQuotaUsage(sql, batch)),
      Effect.zipRight(writeRollups(sql, batch))
    )
  )
