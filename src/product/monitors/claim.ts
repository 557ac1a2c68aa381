/**
 * Claiming due runs: one statement per batch, on SQLite and PostgreSQL alike. It picks the due,
 * unclaimed monitors oldest first (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so instances claiming
 * at once take disjoint rows instead of queueing), and in the same UPDATE records the due time
 * being run (`claimed_for`), leases the monitor until its run is stored (`claimed_until`: a
 * crashed runner's monitor is free again after the lease) and moves `next_run_at` on by
 * `nextDue` (src/product/monitors/model/analyze.ts): one interval, or to the next point of the monitor's own
 * cadence after now when whole intervals were missed. An instance can only claim a due time
 * that no other instance has claimed, so each due run is claimed exactly once.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import type { MonitorRow } from "./rows"
import { forUpdate } from "../../platform/store/Sql"

export interface Claimed {
  readonly monitor: MonitorRow
  /** The due time this run is for (its result's `scheduled_for`). */
  readonly due: number
}

export const claimDue = (limit: number, leaseMs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    if (limit <= 0) return [] as Array<Claimed>
    const due = sql`enabled = 1 AND next_run_at <= ${now} AND (claimed_until IS NULL OR claimed_until < ${now})`
    // CAST: SQLite may bind `now` as a real, and the count of missed intervals must be whole.
    const rows = yield* sql<MonitorRow & { claimed_for: number }>`UPDATE monitors SET
        claimed_for = next_run_at,
        claimed_until = ${now + leaseMs},
        next_run_at = next_run_at + interval_seconds * 1000 * (CAST((${now} - next_run_at) / (interval_seconds * 1000) AS BIGINT) + 1)
      WHERE id IN (SELECT id FROM monitors WHERE ${due} ORDER BY next_run_at LIMIT ${limit} ${forUpdate(sql, true)})
        AND ${due}
      RETURNING *`
    return rows.map((m): Claimed => ({ monitor: m, due: Number(m.claimed_for) }))
  })
