import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { writeRollups } from "../analytics/rollup"
import type { RequestRecord } from "./RequestLog"

const chunk = 400

/**
 * Writes one batch of request records in a single transaction: the raw rows first (which takes
 * SQLite's write lock), then the analytics rollups (src/analytics/rollup.ts), so the log and
 * its rollups never disagree.
 */
export const writeBatch = (sql: SqlClient.SqlClient, batch: ReadonlyArray<RequestRecord>) =>
  sql.withTransaction(
    Effect.forEach(
      Array.from({ length: Math.ceil(batch.length / chunk) }, (_, i) => batch.slice(i * chunk, (i + 1) * chunk)),
      (rows) =>
        sql`INSERT INTO request_log ${
          sql.insert(rows.map((r) => ({
            org_id: r.orgId,
            operation: r.operation,
            category: r.category,
            method: r.method,
            path: r.path,
            status: r.status,
            latency_ms: r.latencyMs,
            cache: r.cache,
            ts: r.ts
          })))
        }`,
      { discard: true }
    ).pipe(Effect.zipRight(writeRollups(sql, batch)))
  )
