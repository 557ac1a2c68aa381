/** Monitor and result rows as stored, and their wire form. */
import type { Channel } from "../alerts/analyze"
import type { MonitorKind } from "../../kernel/monitorKinds"

export interface MonitorRow {
  readonly id: string
  readonly org_id: string
  readonly name: string
  readonly kind: MonitorKind
  readonly target: string
  readonly interval_seconds: number
  readonly conditions: string
  readonly channels: string
  readonly enabled: number
  readonly failures_before_alert: number
  readonly cooldown_minutes: number
  readonly created_at: number
  readonly updated_at: number
  readonly next_run_at: number
  readonly claimed_until: number | null
  readonly last_run_at: number | null
  readonly last_ok: number | null
  readonly last_summary: string | null
  readonly consecutive_failures: number
  readonly baseline: string | null
  readonly open_alert_id: string | null
  readonly last_alert_at: number | null
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

export const monitorStatus = (r: Pick<MonitorRow, "enabled" | "last_ok">) =>
  r.enabled !== 1 ? "paused" as const : r.last_ok === null ? "pending" as const : r.last_ok === 1 ? "up" as const : "down" as const

export const monitorJson = (r: MonitorRow) => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  target: r.target,
  interval_seconds: Number(r.interval_seconds),
  conditions: JSON.parse(r.conditions) as Record<string, unknown>,
  channels: JSON.parse(r.channels) as ReadonlyArray<Channel>,
  enabled: r.enabled === 1,
  failures_before_alert: r.failures_before_alert,
  cooldown_minutes: r.cooldown_minutes,
  status: monitorStatus(r),
  consecutive_failures: r.consecutive_failures,
  last_run_at: iso(r.last_run_at),
  next_run_at: r.enabled === 1 ? iso(r.next_run_at) : null,
  open_alert_id: r.open_alert_id,
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!
})
export type MonitorJson = ReturnType<typeof monitorJson>

export interface ResultRow {
  readonly id: string
  readonly started_at: number
  readonly duration_ms: number
  readonly ok: number
  readonly summary: string
  readonly report: string
}

export const resultJson = (r: ResultRow) => ({
  id: r.id,
  started_at: iso(r.started_at)!,
  duration_ms: r.duration_ms,
  ok: r.ok === 1,
  summary: r.summary,
  report: JSON.parse(r.report) as unknown
})
