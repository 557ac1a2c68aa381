/**
 * A located monitor's shares (docs/monitors.md, "Several locations"): one row per listed
 * location, which that location's instances claim (src/product/monitors/claim.ts). All shares of
 * a monitor keep one cadence: `monitors.next_run_at` is its anchor (the first due time), and a
 * share's due times are the anchor plus whole intervals, so every location runs the same due run.
 * Also here: the check of `locations` and `quorum`, and what a monitor's wire form reads beside
 * its row (the live locations and its shares).
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { InvalidRequest } from "../../kernel/errors"
import { liveLocations, neverSeen } from "./Locations"
import { locationsProblem } from "./model/locations"
import { locationsOf, type MonitorRow, type MonitorView, type ShareRow } from "./rows"

/** `locations` and `quorum` as a monitor may have them: names once each, quorum 1..n, every location seen. */
export const checkLocations = (sql: SqlClient.SqlClient, locations: ReadonlyArray<string>, quorum: number | null) =>
  Effect.gen(function*() {
    const problem = locationsProblem(locations, quorum)
    if (problem !== undefined) return yield* new InvalidRequest({ message: problem })
    const unknown = yield* Effect.orDie(neverSeen(sql, locations))
    if (unknown.length > 0) {
      return yield* new InvalidRequest({
        message: `no instance has ever run in location ${unknown.join(", ")} (start one with INSTANCE_LOCATION=${unknown[0]}; GET /v1/locations lists the known ones)`
      })
    }
  })

/** The first due time at or after `now` on the cadence of `anchor`. */
export const nextOnCadence = (anchor: number, intervalMs: number, now: number) =>
  anchor >= now ? anchor : anchor + intervalMs * Math.ceil((now - anchor) / intervalMs)

/**
 * Makes the monitor's shares match its row, in the caller's transaction: shares of locations no
 * longer listed are dropped, new ones join the monitor's cadence at its next due time, every one
 * takes the monitor's interval and enabled flag; `rephase` (a new interval, a resume) moves each
 * share to the anchor.
 */
export const writeShares = (sql: SqlClient.SqlClient, m: MonitorRow, now: number, rephase: boolean) =>
  Effect.gen(function*() {
    const locations = locationsOf(m)
    yield* locations.length === 0
      ? sql`DELETE FROM monitor_shares WHERE monitor_id = ${m.id}`
      : sql`DELETE FROM monitor_shares WHERE monitor_id = ${m.id} AND location NOT IN ${sql.in(locations as Array<string>)}`
    if (locations.length === 0) return
    const next = rephase ? Number(m.next_run_at) : nextOnCadence(Number(m.next_run_at), Number(m.interval_seconds) * 1000, now)
    const rows = locations.map((location) => ({
      monitor_id: m.id,
      location,
      enabled: m.enabled,
      interval_seconds: m.interval_seconds,
      next_run_at: next
    }))
    yield* rephase
      ? sql`INSERT INTO monitor_shares ${sql.insert(rows)} ON CONFLICT (monitor_id, location) DO UPDATE SET
          enabled = excluded.enabled, interval_seconds = excluded.interval_seconds, next_run_at = excluded.next_run_at`
      : sql`INSERT INTO monitor_shares ${sql.insert(rows)} ON CONFLICT (monitor_id, location) DO UPDATE SET
          enabled = excluded.enabled, interval_seconds = excluded.interval_seconds`
  })

/** The live locations and the shares of `rows`, for their wire form (two reads whatever their number). */
export const viewOf = (sql: SqlClient.SqlClient, rows: ReadonlyArray<MonitorRow>) =>
  Effect.gen(function*() {
    const live = yield* liveLocations(sql)
    const located = rows.filter((r) => r.locations !== "[]").map((r) => r.id)
    const shares: Array<ShareRow> = []
    for (let i = 0; i < located.length; i += 500) {
      shares.push(...(yield* sql<ShareRow>`SELECT * FROM monitor_shares WHERE monitor_id IN ${sql.in(located.slice(i, i + 500))}`))
    }
    return { live, shares } satisfies MonitorView
  })
