/**
 * A named lease row in the store: whoever holds an unexpired lease does the work, so several
 * service instances on one database run one evaluator and one outbox sender between them.
 * Taking or renewing is one conditional upsert: on PostgreSQL concurrent upserts of the row
 * serialize on its lock and the loser's WHERE sees the winner's row; on SQLite the write lock
 * serializes them. The row comes back only when this holder has the lease.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"

export const acquireLease = (name: string, holder: string, ttlMs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    const rows = yield* sql<{ holder: string }>`INSERT INTO leases (name, holder, expires_at)
      VALUES (${name}, ${holder}, ${now + ttlMs})
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
      WHERE leases.holder = excluded.holder OR leases.expires_at <= ${now}
      RETURNING holder`
    return rows[0]?.holder === holder
  })

export const releaseLease = (name: string, holder: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM leases WHERE name = ${name} AND holder = ${holder}`)
