/** Monitors (shown only when GET /v1/monitors answers 200): each monitor with its 7-day uptime. */
import { get, messageOf } from "../api"
import { bar, errorBox, fmt, h, replace, table } from "../dom"
import type { View } from "./types"

interface Monitor {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly target: string
  readonly interval_seconds: number
  readonly enabled: boolean
}

interface Uptime {
  readonly runs: number
  readonly ok_runs: number
  readonly uptime_percentage: number | null
  readonly incidents: ReadonlyArray<{ started_at: string; ended_at: string | null }>
  readonly p50_ms: number | null
  readonly p95_ms: number | null
}

export const monitorsView: View = async (root, ctx) => {
  const { monitors } = await get<{ monitors: ReadonlyArray<Monitor> }>("/v1/monitors")
  const period = ctx.period
  const uptimes = await Promise.all(
    monitors.map((m) => get<Uptime>(`/v1/monitors/${encodeURIComponent(m.id)}/uptime?period=${period}`).catch((e) => messageOf(e)))
  )
  replace(
    root,
    h("h2", {}, "Monitors"),
    h("p", { class: "muted" }, "Create and edit monitors with the API (POST /v1/monitors); uptime over the selected period."),
    h("section", { class: "card" }, monitors.length === 0
      ? h("p", { class: "empty" }, "No monitors yet.")
      : table(
          ["Monitor", "Kind", "Target", "Every", "State", "Uptime", "Runs", "p50 / p95", "Incidents"],
          monitors.map((m, i) => {
            const u = uptimes[i]
            if (typeof u === "string") return [m.name, m.kind, m.target, `${m.interval_seconds} s`, m.enabled ? "active" : "paused", errorBox(u), "", "", ""]
            const pct = u.uptime_percentage
            return [
              m.name,
              m.kind,
              m.target,
              `${m.interval_seconds} s`,
              h("span", { class: `badge ${m.enabled ? "ok" : "paused"}` }, m.enabled ? "Active" : "Paused"),
              pct === null ? "–" : h("span", {}, bar(pct / 100, `uptime ${fmt.pct(pct)}`, pct >= 99 ? "good" : "warn"), ` ${fmt.pct(pct)}`),
              `${u.ok_runs} / ${u.runs}`,
              `${fmt.ms(u.p50_ms)} / ${fmt.ms(u.p95_ms)}`,
              String(u.incidents.length)
            ]
          }),
          "Monitors"
        ))
  )
}
