/**
 * What the uptime report reads once raw results are pruned (MONITOR_RESULTS_RETENTION_DAYS):
 * per monitor, UTC day and location, runs, ok runs and a duration sketch (src/product/metering/sketch.ts), and
 * each incident (a stretch of failed runs). Written in the transaction that stores the runs.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import * as Sketch from "../metering/sketch"
import { addToSketchRows, type SketchRowsTable } from "../metering/sketchRows"
import { dayOf } from "./model/analyze"
import { DEFAULT_LOCATION } from "./model/locations"
import type { MonitorRow } from "./rows"

interface DayTally {
  readonly monitorId: string
  readonly day: number
  readonly location: string
  runs: number
  okRuns: number
  readonly sketch: Sketch.Sketch
}

/** A run as the rollups count it (`location` absent: the default location). */
export interface RolledRun {
  readonly monitorId: string
  readonly startedAt: number
  readonly durationMs: number
  readonly verdict: { readonly ok: boolean }
  readonly location?: string
}

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Runs as (monitor, day, location) tallies, in key order (two writers never wait on each other in a cycle). */
export const tally = (runs: ReadonlyArray<RolledRun>) => {
  const byKey = new Map<string, DayTally>()
  for (const r of runs) {
    const day = dayOf(r.startedAt)
    const location = r.location ?? DEFAULT_LOCATION
    const key = `${r.monitorId}|${day}|${location}`
    let t = byKey.get(key)
    if (t === undefined) byKey.set(key, t = { monitorId: r.monitorId, day, location, runs: 0, okRuns: 0, sketch: Sketch.empty() })
    t.runs++
    if (r.verdict.ok) t.okRuns++
    Sketch.add(t.sketch, Math.round(r.durationMs * 10) / 10)
  }
  return [...byKey.values()].sort((a, b) => order(a.monitorId, b.monitorId) || a.day - b.day || order(a.location, b.location))
}

const ROLLUPS: SketchRowsTable = {
  table: "monitor_rollups",
  key: [["monitor_id", "TEXT"], ["day", "BIGINT"], ["location", "TEXT"]],
  counters: [["runs", "BIGINT"], ["ok_runs", "BIGINT"]]
}

/** Adds runs to the daily rollups, in the transaction that stores them (a few statements a batch). */
export const addRollups = (sql: SqlClient.SqlClient, runs: ReadonlyArray<RolledRun>) =>
  addToSketchRows(sql, ROLLUPS, tally(runs).map((t) => ({ key: [t.monitorId, t.day, t.location], counters: [t.runs, t.okRuns], sketch: t.sketch })))

/** A failed run after an ok one (or as the first run) opens an incident; the next ok run ends it. */
export const trackIncident = (sql: SqlClient.SqlClient, m: MonitorRow, ok: boolean, at: number) => {
  const last = m.last_ok === null ? null : Number(m.last_ok)
  if (!ok && last !== 0) {
    return sql`INSERT INTO monitor_incidents ${
      sql.insert({ id: `inc_${randomBytes(10).toString("hex")}`, monitor_id: m.id, started_at: at, ended_at: null })
    }`.pipe(Effect.asVoid)
  }
  if (ok && last === 0) {
    return sql`UPDATE monitor_incidents SET ended_at = ${at} WHERE monitor_id = ${m.id} AND ended_at IS NULL`.pipe(Effect.asVoid)
  }
  return Effect.void
}
