/**
 * `monitor_status` (issue 17): the caller's monitors and their state, read-only. The data is the
 * monitors' own (`Monitors.statusFor`), published through the REST `Monitor` schema plus the
 * last run's summary, so the tool and `GET /v1/monitors` cannot drift.
 */
import { Effect, Schema } from "effect"
import { Monitor, MonitorStatus } from "../api/monitors"
import { Monitors } from "../../product/monitors/Monitors"
import { Unauthorized } from "../../kernel/errors"
import { ToolFailure } from "../../kernel/ToolFailure"
import { defineTool, McpCaller } from "./tool"

export const MonitorStatusArgs = Schema.Struct({
  status: Schema.optional(MonitorStatus.annotations({ description: "Only monitors in this state (pending, up, down, paused); default all" }))
})

export const MonitorStatusReport = Schema.Struct({
  monitors: Schema.Array(Schema.Struct({
    ...Monitor.fields,
    last_summary: Schema.NullOr(Schema.String).annotations({ description: "What the last run found, in one line" })
  }))
})

/** Each location's last run in a few words, e.g. " [eu-west ok, us-east not ok, ap-south stale]". */
const whereFrom = (status: ReadonlyArray<{ readonly location: string; readonly live: boolean; readonly ok: boolean | null }>) =>
  status.length === 0
    ? ""
    : ` [${status.map((s) => `${s.location} ${!s.live ? "stale" : s.ok === null ? "no run yet" : s.ok ? "ok" : "not ok"}`).join(", ")}]`

export const makeMonitorStatusTool = Effect.map(Monitors, (monitors) =>
  defineTool({
    name: "monitor_status",
    title: "Monitor status",
    description:
      "List the caller's own monitors (continuous uptime, certificate, CT, zone hygiene and WAF checks set up through /v1/monitors) with their current state. Use it to answer whether a watched site or certificate is up or failing right now, without running a new check. Optionally filter by `status`; answers at once from the service's own store. Main fields per monitor: `status` (pending, up, down, paused), `state` (ok, not_ok, unknown: for a monitor run from several `locations`, combined over them, unknown while fewer than its `quorum` of locations are live), `location_status` (each location's last run and whether the location is live), `consecutive_failures`, `last_run_at`, `next_run_at`, `last_summary` (what the last run found; for several locations, which failed), `open_alert_id` (an alert is open while it fails).",
    input: MonitorStatusArgs,
    output: MonitorStatusReport,
    run: (args) =>
      Effect.gen(function*() {
        const caller = yield* McpCaller
        if (caller.orgId === undefined) return yield* ToolFailure.fromApiError(new Unauthorized({ message: "monitor_status needs an authenticated caller" }))
        const all = yield* monitors.statusFor(caller.orgId)
        return args.status === undefined ? all : { monitors: all.monitors.filter((m) => m.status === args.status) }
      }) as Effect.Effect<typeof MonitorStatusReport.Type, ToolFailure>,
    summary: (r) =>
      r.monitors.length === 0
        ? "No monitors: create one with POST /v1/monitors."
        : r.monitors.map((m) => `${m.name} (${m.kind} ${m.target}): ${m.status}, state ${m.state}${whereFrom(m.location_status)}${m.last_summary ? ` — ${m.last_summary}` : ""}`).join("\n")
  })
)
