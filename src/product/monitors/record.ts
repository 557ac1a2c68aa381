/**
 * Storing runs, a batch per transaction (the scheduler's result writer gathers what finished
 * meanwhile): the result rows, and then
 * - for an any-location monitor's run: the monitor's run state and its outcome
 *   (src/product/monitors/outcome.ts: alert transition, notifications, incident);
 * - for a located monitor's run (its share in one location): the share's last run;
 * and every run's daily rollup (src/product/monitors/rollups.ts). After the commit, the located
 * monitors' due runs that may now be decided are (src/product/monitors/rounds.ts): deciding locks
 * the monitors' rows, which the locations' writers, storing the same monitors' runs at the same
 * moment, would otherwise wait on for their whole batches. A run whose scheduled time already has
 * a result in its location is dropped (`duplicate`: the store's unique key is the last word on
 * "exactly once"); a monitor deleted while its run was in flight records nothing.
 */
import { SqlClient } from "@effect/sql"
import { Array as Arr, Clock, Effect } from "effect"
import { randomBytes } from "node:crypto"
import { addRollups } from "./rollups"
import { resultId, type Verdict } from "./model/analyze"
import { DEFAULT_LOCATION } from "./model/locations"
import { applyOutcome } from "./outcome"
import { decideAfterStoring, readMonitors, type RoundCandidate } from "./rounds"
import type { MonitorRow } from "./rows"
import { updateRows } from "./updateRows"

export interface RunRecord {
  readonly monitorId: string
  readonly scheduledFor: number
  readonly startedAt: number
  readonly durationMs: number
  readonly verdict: Verdict
  readonly runner: string
  /** Where the run was made (absent: `default`). */
  readonly location?: string
  /** The run is a located monitor's share (its location's run of the due run). */
  readonly share?: boolean
}

export type RunStep = "open" | "recover" | "none" | "deleted" | "duplicate"

/** A claim to free without a result (the run was skipped); `share`: the located monitor's location. */
export interface Release {
  readonly monitorId: string
  readonly share: string | null
}

const locationOf = (r: RunRecord) => r.location ?? DEFAULT_LOCATION

/** A monitor's run state after a run: one row of the batch's single UPDATE (`updateRows`). */
const STATE_COLUMNS = [
  ["id", "TEXT"],
  ["last_run_at", "BIGINT"],
  ["last_ok", "INTEGER"],
  ["last_summary", "TEXT"],
  ["consecutive_failures", "INTEGER"],
  ["baseline", "TEXT"],
  ["open_alert_id", "TEXT"],
  ["last_alert_at", "BIGINT"],
  ["last_location", "TEXT"]
] as const

/** A share's last run: one row of the batch's single UPDATE of `monitor_shares`. */
const SHARE_COLUMNS = [
  ["monitor_id", "TEXT"],
  ["location", "TEXT"],
  ["last_for", "BIGINT"],
  ["last_run_at", "BIGINT"],
  ["last_ok", "INTEGER"],
  ["last_summary", "TEXT"],
  ["baseline", "TEXT"]
] as const

const releaseClaims = (sql: SqlClient.SqlClient, released: ReadonlyArray<Release>) =>
  Effect.gen(function*() {
    for (const ids of Arr.chunksOf(released.filter((r) => r.share === null).map((r) => r.monitorId), 500)) {
      yield* sql`UPDATE monitors SET claimed_until = NULL WHERE id IN ${sql.in(ids as Array<string>)}`
    }
    for (const r of released.filter((r) => r.share !== null)) {
      yield* sql`UPDATE monitor_shares SET claimed_until = NULL WHERE monitor_id = ${r.monitorId} AND location = ${r.share}`
    }
  })

/** Inserts the runs' results (a second one for a due time and location is dropped); the keys stored. */
const insertResults = (sql: SqlClient.SqlClient, runs: ReadonlyArray<RunRecord>, monitors: ReadonlyMap<string, MonitorRow>) =>
  Effect.gen(function*() {
    const stored = new Set<string>()
    for (const batch of Arr.chunksOf(runs, 200)) {
      const rows = batch.map((r) => ({
        id: resultId(r.startedAt, randomBytes(6).toString("hex")),
        monitor_id: r.monitorId,
        org_id: monitors.get(r.monitorId)!.org_id,
        scheduled_for: r.scheduledFor,
        started_at: r.startedAt,
        duration_ms: Math.round(r.durationMs * 10) / 10,
        ok: r.verdict.ok ? 1 : 0,
        summary: r.verdict.summary.slice(0, 500),
        report: JSON.stringify(r.verdict.report),
        runner: r.runner,
        location: locationOf(r)
      }))
      const inserted = yield* sql<{ monitor_id: string; scheduled_for: number; location: string }>`INSERT INTO monitor_results ${sql.insert(rows)}
        ON CONFLICT (monitor_id, scheduled_for, location) DO NOTHING RETURNING monitor_id, scheduled_for, location`
      for (const k of inserted) stored.add(`${k.monitor_id}|${Number(k.scheduled_for)}|${k.location}`)
    }
    return stored
  })

/**
 * Stores a batch of runs (and frees the claims of `released` ones, whose runs were skipped);
 * answers each run's step, in order (a located monitor's run: the step of the due run's combined
 * state when this batch decided it, else `none`).
 */
export const recordRuns = (runs: ReadonlyArray<RunRecord>, released: ReadonlyArray<Release> = []) =>
  Effect.gen(function*() {
    const { rounds, steps, monitors } = yield* storeRuns(runs, released)
    if (rounds.length === 0) return steps
    // The runs are stored whatever happens here: a decision that fails is left to the pass that
    // decides due runs once their interval has passed (rounds.ts `closeRounds`).
    const decided = yield* decideAfterStoring(rounds, monitors).pipe(
      Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("monitor run decisions failed", cause), new Map<number, RunStep>()))
    )
    for (const [index, step] of decided) steps[index] = step
    return steps
  })

/** The batch's transaction: results, run states, share states, rollups; the due runs to decide after it. */
const storeRuns = (runs: ReadonlyArray<RunRecord>, released: ReadonlyArray<Release>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      yield* releaseClaims(sql, released)
      const rounds: Array<RoundCandidate> = []
      const monitors = new Map<string, MonitorRow>()
      if (runs.length === 0) return { steps: [] as Array<RunStep>, rounds, monitors }
      yield* readMonitors(sql, runs.map((r) => r.monitorId), false, monitors)
      const stored = yield* insertResults(sql, runs.filter((r) => monitors.has(r.monitorId)), monitors)
      const steps: Array<RunStep> = []
      const kept: Array<RunRecord> = []
      // One row per monitor (or share), its last run's (a monitor's runs in one batch apply in order).
      const states = new Map<string, Record<(typeof STATE_COLUMNS)[number][0], unknown>>()
      const shares = new Map<string, Record<(typeof SHARE_COLUMNS)[number][0], unknown>>()
      for (const [i, run] of runs.entries()) {
        const m = monitors.get(run.monitorId)
        const v = run.verdict
        const baseline = v.baseline === null ? null : JSON.stringify(v.baseline)
        if (m === undefined) steps.push("deleted")
        else if (!stored.has(`${run.monitorId}|${run.scheduledFor}|${locationOf(run)}`)) steps.push("duplicate")
        else if (run.share) {
          steps.push("none")
          kept.push(run)
          shares.set(`${m.id}|${locationOf(run)}`, {
            monitor_id: m.id, location: locationOf(run), last_for: run.scheduledFor, last_run_at: run.startedAt,
            last_ok: v.ok ? 1 : 0, last_summary: v.summary.slice(0, 500), baseline
          })
          // Worth deciding only while this due run is newer than the last decided one.
          if (m.decided_for === null || run.scheduledFor > Number(m.decided_for)) rounds.push({ monitorId: m.id, due: run.scheduledFor, index: i })
        } else {
          const o = yield* applyOutcome(sql, m, { ok: v.ok, summary: v.summary, at: run.startedAt, locationsFailing: null }, now)
          const state = {
            id: m.id, last_run_at: run.startedAt, last_ok: v.ok ? 1 : 0, last_summary: v.summary.slice(0, 500),
            consecutive_failures: o.consecutive, baseline, open_alert_id: o.openAlertId, last_alert_at: o.lastAlertAt,
            last_location: locationOf(run)
          }
          monitors.set(m.id, { ...m, ...state, claimed_until: null } as MonitorRow)
          states.set(m.id, state)
          steps.push(o.step)
          kept.push(run)
        }
      }
      yield* updateRows(sql, "monitors", STATE_COLUMNS, 1, [...states.values()], true)
      yield* updateRows(sql, "monitor_shares", SHARE_COLUMNS, 2, [...shares.values()], true)
      yield* addRollups(sql, kept)
      return { steps, rounds, monitors }
    }))
  })

/** One run on its own (tests, and the shape the writer batches). */
export const recordRun = (run: RunRecord) => Effect.map(recordRuns([run]), (steps) => steps[0])
