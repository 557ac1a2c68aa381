/**
 * Results stored before the daily rollups existed (migration 0060) added to the rollups and
 * incidents of their monitor, in one transaction per monitor, which also clears the monitor's
 * `rollups_backfill_before` (so it is done once, by whichever instance gets there first).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { addRollups } from "./rollups"

export const recordRollupsOf = (monitorId: string, before: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.gen(function*() {
      const cleared = yield* sql`UPDATE monitors SET rollups_backfill_before = NULL
        WHERE id = ${monitorId} AND rollups_backfill_before IS NOT NULL RETURNING id`
      if (cleared.length === 0) return
      const runs = (yield* sql<{ started_at: number; duration_ms: number; ok: number }>`SELECT started_at, duration_ms, ok
        FROM monitor_results WHERE monitor_id = ${monitorId} AND started_at < ${before} ORDER BY id`)
        .map((r) => ({ monitorId, startedAt: Number(r.started_at), durationMs: Number(r.duration_ms), verdict: { ok: Number(r.ok) === 1 } }))
      yield* addRollups(sql, runs)
      // Incidents as the writer opens and ends them; one still open is ended by the next ok run.
      let open: number | null = null
      const incidents: Array<{ started_at: number; ended_at: number | null }> = []
      for (const r of runs) {
        if (!r.verdict.ok && open === null) open = r.startedAt
        if (r.verdict.ok && open !== null) {
          incidents.push({ started_at: open, ended_at: r.startedAt })
          open = null
        }
      }
      if (open !== null) {
        // Ended already if an ok run was stored after the migration (the writer found no incident to end).
        const after = yield* sql<{ at: number | null }>`SELECT MIN(started_at) AS at FROM monitor_results
          WHERE monitor_id = ${monitorId} AND started_at >= ${before} AND ok = 1`
        incidents.push({ started_at: open, ended_at: after[0]?.at === null || after[0]?.at === undefined ? null : Number(after[0].at) })
      }
      for (const i of incidents) {
        yield* sql`INSERT INTO monitor_incidents ${sql.insert({ id: `inc_${randomBytes(10).toString("hex")}`, monitor_id: monitorId, ...i })}`
      }
    }))
  })
