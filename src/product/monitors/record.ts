/**
 * Storing one run: the result row, the monitor's run state, and the alert transition
 * (src/product/monitors/analyze.ts `transition`) with its signed notifications, all in one transaction.
 * A monitor deleted while its run was in flight records nothing.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { randomBytes } from "node:crypto"
import type { AlertRow } from "../alerts/analyze"
import { enqueueNotifications } from "../alerts/testSend"
import { type Baseline, resultId, transition, type Verdict } from "./analyze"
import type { MonitorRow } from "./rows"

export interface RunRecord {
  readonly monitorId: string
  readonly scheduledFor: number
  readonly startedAt: number
  readonly durationMs: number
  readonly verdict: Verdict
  readonly runner: string
}

export const recordRun = (run: RunRecord) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const rows = yield* sql<MonitorRow>`SELECT * FROM monitors WHERE id = ${run.monitorId}`
      const m = rows[0]
      if (m === undefined) return "deleted" as const
      const v = run.verdict
      yield* sql`INSERT INTO monitor_results ${
        sql.insert({
          id: resultId(run.startedAt, randomBytes(6).toString("hex")),
          monitor_id: m.id,
          org_id: m.org_id,
          scheduled_for: run.scheduledFor,
          started_at: run.startedAt,
          duration_ms: Math.round(run.durationMs * 10) / 10,
          ok: v.ok ? 1 : 0,
          summary: v.summary.slice(0, 500),
          report: JSON.stringify(v.report),
          runner: run.runner
        })
      }`
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
      let lastAlertAt = m.last_alert_at
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
        yield* sql`INSERT INTO alerts ${sql.insert(alert as any)}`
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
      const baseline: Baseline | null = v.baseline
      yield* sql`UPDATE monitors SET ${
        sql.update({
          last_run_at: run.startedAt,
          last_ok: v.ok ? 1 : 0,
          last_summary: v.summary.slice(0, 500),
          consecutive_failures: consecutive,
          baseline: baseline === null ? null : JSON.stringify(baseline),
          open_alert_id: openAlertId,
          last_alert_at: lastAlertAt,
          claimed_until: null
        })
      } WHERE id = ${m.id}`
      return step
    }))
  })
