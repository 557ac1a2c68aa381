/**
 * Locations in the monitors view (docs/monitors.md, "Several locations"): the locations the
 * service runs in (GET /v1/locations, live or stale), each monitor's state with each location's
 * last run, the uptime per location, and the form's choice of locations and quorum.
 */
import { field, fmt, h } from "../dom"

export interface LocationInfo {
  readonly name: string
  readonly instances: number
  readonly last_seen_at: string
  readonly live: boolean
}

export interface LocationStatus {
  readonly location: string
  readonly live: boolean
  readonly last_run_at: string | null
  readonly ok: boolean | null
}

export interface ByLocation {
  readonly location: string
  readonly runs: number
  readonly ok_runs: number
  readonly uptime_percentage: number | null
  readonly p50_ms: number | null
  readonly p95_ms: number | null
}

/** What a location's last run says, in a word. */
const word = (s: LocationStatus) => (!s.live ? "stale" : s.ok === null ? "no run yet" : s.ok ? "ok" : "not ok")
const tone = (s: LocationStatus) => (!s.live ? "stale" : s.ok === null ? "none" : s.ok ? "ok" : "fail")

const STATE_TEXT: Record<string, string> = { ok: "OK", not_ok: "Not OK", unknown: "Unknown" }

/** The locations line above the list: each known location, live or stale, with its instances. */
export const locationsLine = (locations: ReadonlyArray<LocationInfo>) =>
  h(
    "ul",
    { class: "loc-list", "aria-label": "Locations" },
    locations.map((l) =>
      h(
        "li",
        { class: `loc-chip loc-${l.live ? "ok" : "stale"}`, title: `last seen ${fmt.date(l.last_seen_at)}` },
        `${l.name}: ${l.live ? "live" : "stale"}, ${l.instances} instance${l.instances === 1 ? "" : "s"}`
      ))
  )

/** A monitor's row cell: its combined state, then each location's last run (or "any location"). */
export const locationCell = (m: { readonly name: string; readonly locations: ReadonlyArray<string>; readonly state: string; readonly location_status: ReadonlyArray<LocationStatus> }) => {
  const chips = m.location_status.map((s) =>
    h("li", { class: `loc-chip loc-${tone(s)}`, title: `last run ${fmt.date(s.last_run_at)}` }, `${s.location}: ${word(s)}`)
  )
  return h(
    "div",
    { class: "loc-cell", "aria-label": `Locations of ${m.name}` },
    m.locations.length === 0
      ? h("span", { class: "muted" }, "any location")
      : h("span", { class: `loc-state loc-state-${m.state}` }, STATE_TEXT[m.state] ?? m.state),
    chips.length > 0 ? h("ul", { class: "loc-list" }, chips) : null
  )
}

/** The uptime of the period per location. */
export const byLocationTable = (rows: ReadonlyArray<ByLocation>) =>
  rows.length === 0
    ? null
    : h(
      "table",
      { class: "by-location" },
      h("caption", {}, "By location"),
      h("thead", {}, h("tr", {}, ["Location", "Runs", "OK runs", "Uptime", "p50 / p95"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, rows.map((r) =>
        h("tr", {},
          h("td", {}, r.location),
          h("td", {}, fmt.num(r.runs)),
          h("td", {}, fmt.num(r.ok_runs)),
          h("td", {}, r.uptime_percentage === null ? "–" : fmt.pct(r.uptime_percentage)),
          h("td", {}, `${fmt.ms(r.p50_ms)} / ${fmt.ms(r.p95_ms)}`))))
    )

/**
 * The form's locations: one box per known location (none checked: any one location) and the
 * quorum (blank: a majority of those checked).
 */
export const locationsFieldset = (known: ReadonlyArray<LocationInfo>, current?: { readonly locations: ReadonlyArray<string>; readonly quorum: number }) => {
  const names = [...new Set([...known.map((l) => l.name), ...(current?.locations ?? [])])]
  const boxes = names.map((name) => {
    const info = known.find((l) => l.name === name)
    const box = h("input", { type: "checkbox", name: "locations", value: name, checked: current?.locations.includes(name) ?? false })
    box.id = `loc-${name}-${Math.random().toString(36).slice(2, 8)}`
    return { name, box, node: h("div", { class: "field checkbox" }, box, h("label", { for: box.id }, `${name}${info && !info.live ? " (stale)" : ""}`)) }
  })
  const quorum = h("input", { type: "number", name: "quorum", min: 1, max: 16, value: current && current.locations.length > 0 ? current.quorum : "" })
  return {
    node: h(
      "fieldset",
      { class: "locations" },
      h("legend", {}, "Run from"),
      boxes.length === 0 ? h("p", { class: "muted" }, "No location known yet.") : boxes.map((b) => b.node),
      field("Quorum", quorum, "locations that must fail for the run to fail; blank: a majority. None checked: any one location")
    ),
    read: (): { locations: Array<string>; quorum?: number } => {
      const locations = boxes.filter((b) => b.box.checked).map((b) => b.name)
      return quorum.value.trim() === "" || locations.length === 0 ? { locations } : { locations, quorum: Number(quorum.value) }
    }
  }
}
