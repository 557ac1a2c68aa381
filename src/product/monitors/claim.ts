/**
 * Claiming due runs: one statement per batch, on SQLite and PostgreSQL alike. It picks the due,
 * unclaimed monitors oldest first (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so instances claiming
 * at once take disjoint rows instead of queueing), and in the same UPDATE records the due time
 * being run (`claimed_for`), leases the monitor until its run is stored (`claimed_until`: a
 * crashed runner's monitor is free again after the lease) and moves `next_run_at` on by
 * `nextDue` (src/product/monitors/model/analyze.ts): one interval, or to the next point of the monitor's own
 * cadence after now when whole intervals were missed. An instance can only claim a due time
 * that no other instance has claimed, so each due run is claimed exactly once. A located
 * monitor's runs are claimed the same way from its shares, one per listed location, each only by
 * that location's instances (`claimShares`; docs/monitors.md, "Several locations").
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import type { MonitorRow } from "./rows"
import { forUpdate } from "../../platform/store/Sql"

export interface Claimed {
  readonly monitor: MonitorRow
  /** The due time this run is for (its result's `scheduled_for`). */
  readonly due: number
  /** A located monitor's share this run is (its location); null: an any-location monitor's run. */
  readonly share: string | null
}

/** Any-location monitors (`locations = '[]'`: the partial index `monitors_due` holds exactly those). */
export const claimDue = (limit: number, leaseMs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    if (limit <= 0) return [] as Array<Claimed>
    const due = sql`enabled = 1 AND locations = '[]' AND next_run_at <= ${now} AND (claimed_until IS NULL OR claimed_until < ${now})`
    // CAST: SQLite may bind `now` as a real, and the count of missed intervals must be whole.
    const rows = yield* sql<MonitorRow & { claimed_for: number }>`UPDATE monitors SET
        claimed_for = next_run_at,
        claimed_until = ${now + leaseMs},
        next_run_at = next_run_at + interval_seconds * 1000 * (CAST((${now} - next_run_at) / (interval_seconds * 1000) AS BIGINT) + 1)
      WHERE id IN (SELECT id FROM monitors WHERE ${due} ORDER BY next_run_at LIMIT ${limit} ${forUpdate(sql, true)})
        AND ${due}
      RETURNING *`
    return rows.map((m): Claimed => ({ monitor: m, due: Number(m.claimed_for), share: null }))
  })

/**
 * The shares of located monitors that `location` is to run: the same statement over
 * `monitor_shares` (the location's due, unclaimed shares, oldest first), then the monitors of what
 * it claimed in one read. A share carries its own baseline: each location keeps its own history of
 * "seen before" (a GeoDNS answer, a CDN edge differ by location).
 */
export const claimShares = (location: string, limit: number, leaseMs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    if (limit <= 0) return [] as Array<Claimed>
    const due = sql`enabled = 1 AND location = ${location} AND next_run_at <= ${now} AND (claimed_until IS NULL OR claimed_until < ${now})`
    const shares = yield* sql<{ monitor_id: string; claimed_for: number; baseline: string | null }>`UPDATE monitor_shares SET
        claimed_for = next_run_at,
        claimed_until = ${now + leaseMs},
        next_run_at = next_run_at + interval_seconds * 1000 * (CAST((${now} - next_run_at) / (interval_seconds * 1000) AS BIGINT) + 1)
      WHERE location = ${location}
        AND monitor_id IN (SELECT monitor_id FROM monitor_shares WHERE ${due} ORDER BY next_run_at LIMIT ${limit} ${forUpdate(sql, true)})
        AND ${due}
      RETURNING monitor_id, claimed_for, baseline`
    if (shares.length === 0) return [] as Array<Claimed>
    const monitors = new Map(
      (yield* sql<MonitorRow>`SELECT * FROM monitors WHERE id IN ${sql.in(shares.map((s) => s.monitor_id))}`).map((m) => [m.id, m])
    )
    const claimed: Array<Claimed> = []
    for (const s of shares) {
      const m = monitors.get(s.monitor_id)
      // A share whose monitor was deleted meanwhile: nothing to run (the delete removes the share).
      if (m !== undefined) claimed.push({ monitor: { ...m, baseline: s.baseline }, due: Number(s.claimed_for), share: location })
    }
    return claimed
  })
