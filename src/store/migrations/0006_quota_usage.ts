/**
 * Monthly quota usage per organization, kept by the request-log writer in the same transaction
 * as the log, so the quota survives restarts and raw-log retention, and loading it is one row.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE quota_usage (
    org_id TEXT NOT NULL,
    month INTEGER NOT NULL,
    used INTEGER NOT NULL,
    PRIMARY KEY (org_id, month)
  ) WITHOUT ROWID`
  yield* sql`INSERT INTO quota_usage (org_id, month, used)
    SELECT org_id,
           CAST(strftime('%s', datetime(ts / 1000, 'unixepoch', 'start of month')) AS INTEGER) * 1000,
           COUNT(*)
    FROM request_log WHERE status NOT IN (401, 429)
    GROUP BY 1, 2`
})
