/**
 * Monthly quota usage per organization: `used` is the count the quota decision keeps
 * (src/product/metering/Quota.ts), one atomic conditional upsert per reserved block. Created from the
 * request log of databases that predate it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.gen(function*() {
        yield* sql`CREATE TABLE quota_usage (
          org_id TEXT NOT NULL,
          month BIGINT NOT NULL,
          used BIGINT NOT NULL,
          PRIMARY KEY (org_id, month)
        )`
        yield* sql`INSERT INTO quota_usage (org_id, month, used)
          SELECT org_id,
                 (EXTRACT(EPOCH FROM date_trunc('month', to_timestamp(ts / 1000.0) AT TIME ZONE 'UTC')) * 1000)::BIGINT,
                 COUNT(*)
          FROM request_log WHERE status NOT IN (401, 429)
          GROUP BY 1, 2`
      }),
    orElse: () =>
      Effect.gen(function*() {
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
  })
})
