/** Monitor, share and result rows as stored, and their wire form. */
import type { Channel } from "../alerts/analyze"
import type { MonitorKind } from "../../kernel/monitorKinds"
import { type CombinedState, quorumOf } from "./model/locations"

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
  /** JSON array of location names; '[]': any one location. */
  readonly locations: string
  /** null: a majority of `locations`. */
  readonly quorum: number | null
  /** Located monitors: the combined state of the last decided run (null before the first). */
  readonly state: CombinedState | null
  /** Located monitors: the due time of the last decided run. */
  readonly decided_for: number | null
  /** Where the last run was made (any-location monitors). */
  readonly last_location: string | null
}

/** One listed location's share of a located monitor: its claims and its last run. */
export interface ShareRow {
  readonly monitor_id: string
  readonly location: string
  readonly enabled: number
  readonly interval_seconds: number
  readonly next_run_at: number
  readonly claimed_for: number | null
  readonly claimed_until: number | null
  readonly last_for: number | null
  readonly last_run_at: number | null
  readonly last_ok: number | null
  readonly last_summary: string | null
  readonly baseline: string | null
}

export const locationsOf = (r: Pick<MonitorRow, "locations">): ReadonlyArray<string> => JSON.parse(r.locations)

/** What a monitor's wire form needs beside its row: the live locations and its shares. */
export interface MonitorView {
  readonly live: ReadonlySet<string>
  readonly shares: ReadonlyArray<ShareRow>
}

const num = (x: number | null) => (x === null ? null : Number(x))

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

export const monitorStatus = (r: Pick<MonitorRow, "enabled" | "last_ok">) =>
  r.enabled !== 1 ? "paused" as const : r.last_ok === null ? "pending" as const : r.last_ok === 1 ? "up" as const : "down" as const

/**
 * The monitor's state: a located monitor's is `unknown` while fewer than its quorum of listed
 * locations are live, else its last decided run's; an any-location monitor's is its last run's.
 */
export const monitorState = (r: MonitorRow, live: ReadonlySet<string>): CombinedState => {
  const locations = locationsOf(r)
  if (locations.length === 0) return r.last_ok === null ? "unknown" : Number(r.last_ok) === 1 ? "ok" : "not_ok"
  if (locations.filter((l) => live.has(l)).length < quorumOf(locations, r.quorum)) return "unknown"
  return r.state ?? "unknown"
}

const locationStatus = (r: MonitorRow, view: MonitorView) => {
  const locations = locationsOf(r)
  if (locations.length === 0) {
    return r.last_location === null
      ? []
      : [{ location: r.last_location, live: view.live.has(r.last_location), last_run_at: iso(num(r.last_run_at)), ok: r.last_ok === null ? null : Number(r.last_ok) === 1 }]
  }
  const byLocation = new Map(view.shares.filter((s) => s.monitor_id === r.id).map((s) => [s.location, s]))
  return locations.map((location) => {
    const s = byLocation.get(location)
    return {
      location,
      live: view.live.has(location),
      last_run_at: iso(num(s?.last_run_at ?? null)),
      ok: s === undefined || s.last_ok === null ? null : Number(s.last_ok) === 1
    }
  })
}

/** A located monitor's next due time: the earliest of its shares' (they share one cadence). */
const nextRunAt = (r: MonitorRow, view: MonitorView) => {
  if (r.enabled !== 1) return null
  const own = view.shares.filter((s) => s.monitor_id === r.id).map((s) => Number(s.next_run_at))
  return iso(locationsOf(r).length > 0 && own.length > 0 ? Math.min(...own) : r.next_run_at)
}

export const monitorJson = (r: MonitorRow, view: MonitorView) => ({
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
  next_run_at: nextRunAt(r, view),
  open_alert_id: r.open_alert_id,
  locations: locationsOf(r),
  quorum: quorumOf(locationsOf(r), r.quorum === null ? null : Number(r.quorum)),
  state: monitorState(r, view.live),
  location_status: locationStatus(r, view),
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
  readonly location: string
}

export const resultJson = (r: ResultRow) => ({
  id: r.id,
  started_at: iso(r.started_at)!,
  duration_ms: r.duration_ms,
  ok: r.ok === 1,
  summary: r.summary,
  location: r.location,
  report: JSON.parse(r.report) as unknown
})
