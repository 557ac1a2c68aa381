/**
 * What an outcome does to a monitor's alerting, in the transaction that stores it: the alert
 * transition (src/product/monitors/model/analyze.ts `transition`) with its signed notifications,
 * and the incident. An outcome is one run of an any-location monitor, or the combined state of a
 * located monitor's due run (src/product/monitors/rounds.ts); `unknown` never gets here.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import type { AlertRow } from "../alerts/analyze"
import { enqueueNotifications } from "../alerts/testSend"
import { trackIncident } from "./rollups"
import { transition } from "./model/analyze"
import type { MonitorRow } from "./rows"

export interface Outcome {
  readonly ok: boolean
  readonly summary: string
  /** When it was observed (the run's start; a combined state's latest report). */
  readonly at: number
  /** A located monitor's: the locations that reported not ok; null for any-location monitors. */
  readonly locationsFailing: ReadonlyArray<string> | null
}

export type Step = "open" | "recover" | "none"

/** Applies `o` to `m`'s alerting; answers the step and the monitor's alert state after it. */
export const applyOutcome = (sql: SqlClient.SqlClient, m: MonitorRow, o: Outcome, now: number) =>
  Effect.gen(function*() {
    const consecutive = o.ok ? 0 : m.consecutive_failures + 1
    const step: Step = transition({
      ok: o.ok,
      consecutiveFailures: consecutive,
      failuresBeforeAlert: m.failures_before_alert,
      incidentOpen: m.open_alert_id !== null,
      lastAlertAt: m.last_alert_at === null ? null : Number(m.last_alert_at),
      cooldownMinutes: m.cooldown_minutes,
      now
    })
    const extra = { summary: o.summary, monitor: { id: m.id, kind: m.kind, target: m.target } }
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
        resolution_notes: null,
        locations_failing: o.locationsFailing === null ? null : JSON.stringify(o.locationsFailing)
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
    yield* trackIncident(sql, m, o.ok, o.at)
    return { step, consecutive, openAlertId, lastAlertAt }
  })
