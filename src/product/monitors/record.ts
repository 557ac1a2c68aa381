/**
 * Storing runs, a batch per transaction (the scheduler's result writer gathers what finished
 * meanwhile): the result rows, each monitor's run state, its alert transition
 * (src/product/monitors/model/analyze.ts `transition`) with signed notifications, its incidents and its daily
 * rollup (src/product/monitors/rollups.ts). A run whose scheduled time already has a result is
 * dropped (`duplicate`: the store's unique key is the last word on "exactly once"); a monitor
 * deleted while its run was in flight records nothing.
 */
import { SqlClient } from "@effect/sql"
import { Array as Arr, Clock, Effect } from "effect"
import { randomBytes } from "node:crypto"
import type { AlertRow } from "../alerts/analyze"
import { enqueueNotifications } from "../alerts/testSend"
import { addRollups, trackIncident } from "./rollups"
import { resultId, transition, type Verdict } from "./model/analyze"
import type { MonitorRow } from "./rows"
import { placeholders, valuesTable } from "../../platform/store/Sql"

export interface RunRecord {
  readonly monitorId: string
  readonly scheduledFor: number
  readonly startedAt: number
  readonly durationMs: number
  readonly verdict: Verdict
  readonly runner: string
}

export type RunStep = "open" | "recover" | "none" | "deleted" | "duplicate"

/** A monitor's run state after a run: one row of the batch's single UPDATE (`writeRunStates`). */
interface RunState {
  readonly id: string
  readonly last_run_at: number
  readonly last_ok: number
  readonly last_summary: string
  readonly consecutive_failures: number
  readonly baseline: string | null
  readonly open_alert_id: string | null
  readonly last_alert_at: number | null
}

/**
 * One run's alert transition, in the batch's transaction: the alert and its notifications and
 * the incident are written here (rare: only when a state changes); the run state is returned for
 * the batch's one UPDATE.
 */
const applyRun = (sql: SqlClient.SqlClient, m: MonitorRow, run: RunRecord, now: number) =>
  Effect.gen(function*() {
    const v = run.verdict
    const consecutive = v.ok ? 0 : m.consecutive_failures + 1
    const step = transition({
      ok: v.ok,
      consecutiveFailures: consecutive,
      failuresBeforeAlert: m.failures_before_alert,
      incidentOpen: m.open_alert_id !== null,
      lastAlertAt: m.last_alert_at === null ? null : Number(m.last_alert_at),
      cooldownMinutes: m.cooldown_minutes,
      now
    })
    const extra = { summary: v.summary, monitor: { id: m.id, kind: m.kind, target: m.target } }
    let openAlertId = m.open_alert_id
    let lastAlertAt = m.last_alert_at === null ? null : Number(m.last_alert_at)
    if (step === "open") {
      const alert: AlertRow = {
        id: `alert_${randomBytes(10).toString("hex")}`,
        org_id: m.org_id,
        source: "monitor",
        rule_id: null,
        monitor_id: m.id,
        status: "pending",
        metric: m.kind,
        observed_value: consecutive,
        threshold_value: m.failures_before_alert,
        triggered_at: now,
        acknowledged_at: null,
        resolved_at: null,
        resolution_notes: null
      }
      yield* sql`INSERT INTO alerts ${sql.insert({ ...alert })}`
      yield* enqueueNotifications(sql, alert, "monitor.failed", m, now, extra)
      openAlertId = alert.id
      lastAlertAt = now
    } else if (step === "recover") {
      // Resolved here unless someone resolved it by hand meanwhile (then no second notice).
      const resolved = yield* sql<AlertRow>`UPDATE alerts SET status = 'resolved', resolved_at = ${now},
          resolution_notes = 'recovered'
        WHERE id = ${m.open_alert_id} AND status IN ('pending', 'acknowledged') RETURNING *`
      if (resolved[0]) yield* enqueueNotifications(sql, resolved[0], "monitor.recovered", m, now, extra)
      openAlertId = null
    }
    yield* trackIncident(sql, m, v.ok, run.startedAt)
    const state: RunState = {
      id: m.id,
      last_run_at: run.startedAt,
      last_ok: v.ok ? 1 : 0,
      last_summary: v.summary.slice(0, 500),
      consecutive_failures: consecutive,
      baseline: v.baseline === null ? null : JSON.stringify(v.baseline),
      open_alert_id: openAlertId,
      last_alert_at: lastAlertAt
    }
    return { step, state, next: { ...m, ...state, claimed_until: null } as MonitorRow }
  })

const STATE_COLUMNS = [
  ["id", "TEXT"],
  ["last_run_at", "BIGINT"],
  ["last_ok", "INTEGER"],
  ["last_summary", "TEXT"],
  ["consecutive_failures", "INTEGER"],
  ["baseline", "TEXT"],
  ["open_alert_id", "TEXT"],
  ["last_alert_at", "BIGINT"]
] as const

/**
 * The batch's run states in one UPDATE … FROM (VALUES …) (a statement per run was most of a
 * batch's statements on PostgreSQL, each a round trip), and each lease freed.
 */
const writeRunStates = (sql: SqlClient.SqlClient, states: ReadonlyArray<RunState>) =>
  Effect.forEach(Arr.chunksOf(states, 200), (batch) => {
    const v = valuesTable(sql, "v", STATE_COLUMNS, batch.map((s) => STATE_COLUMNS.map(([c]) => s[c])))
    const set = STATE_COLUMNS.slice(1).map(([c]) => `${c} = v.${c}`).join(", ")
    return sql.unsafe(placeholders(sql, `UPDATE monitors SET ${set}, claimed_until = NULL FROM ${v.text} WHERE monitors.id = v.id`), v.params as Array<any>)
  }, { discard: true })

/**
 * Stores a batch of runs (and frees the claims of `released` monitors, whose runs were skipped);
 * answers each run's step, in order.
 */
export const recordRuns = (runs: ReadonlyArray<RunRecord>, released: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      for (const ids of Arr.chunksOf(released, 500)) {
        yield* sql`UPDATE monitors SET claimed_until = NULL WHERE id IN ${sql.in(ids as Array<string>)}`
      }
      if (runs.length === 0) return [] as Array<RunStep>
      const monitors = new Map<string, MonitorRow>()
      for (const ids of Arr.chunksOf([...new Set(runs.map((r) => r.monitorId))].sort(), 500)) {
        for (const m of yield* sql<MonitorRow>`SELECT * FROM monitors WHERE id IN ${sql.in(ids as Array<string>)}`) monitors.set(m.id, m)
      }
      const stored = new Set<string>()
      for (const batch of Arr.chunksOf(runs.filter((r) => monitors.has(r.monitorId)), 200)) {
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
          runner: r.runner
        }))
        const inserted = yield* sql<{ monitor_id: string; scheduled_for: number }>`INSERT INTO monitor_results ${sql.insert(rows)}
          ON CONFLICT (monitor_id, scheduled_for) DO NOTHING RETURNING monitor_id, scheduled_for`
        for (const k of inserted) stored.add(`${k.monitor_id}|${Number(k.scheduled_for)}`)
      }
      const steps: Array<RunStep> = []
      const kept: Array<RunRecord> = []
      // One row per monitor, its last run's (a monitor's runs in one batch apply in order).
      const states = new Map<string, RunState>()
      for (const run of runs) {
        const m = monitors.get(run.monitorId)
        if (m === undefined) steps.push("deleted")
        else if (!stored.has(`${run.monitorId}|${run.scheduledFor}`)) steps.push("duplicate")
        else {
          const applied = yield* applyRun(sql, m, run, now)
          monitors.set(m.id, applied.next)
          states.set(m.id, applied.state)
          steps.push(applied.step)
          kept.push(run)
        }
      }
      yield* writeRunStates(sql, [...states.values()])
      yield* addRollups(sql, kept)
      return steps
    }))
  })

/** One run on its own (tests, and the shape the writer batches). */
export const recordRun = (run: RunRecord) => Effect.map(recordRuns([run]), (steps) => steps[0])
