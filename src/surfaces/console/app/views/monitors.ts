/**
 * Monitors (shown only when GET /v1/monitors answers 200): create, edit, pause/resume and delete
 * monitors of every kind; per monitor its uptime over the selected period and its recent runs
 * as a timeline (ok / not ok, duration).
 */
import { del, get, messageOf, patch, post } from "../api"
import { bar, errorBox, fmt, h, replace, stat, table } from "../dom"
import { KINDS, type Monitor, monitorForm } from "./monitorForm"
import { type ByLocation, byLocationTable, type LocationInfo, locationCell, locationsLine } from "./monitorLocations"
import type { View } from "./types"

interface Uptime {
  readonly runs: number
  readonly ok_runs: number
  readonly uptime_percentage: number | null
  readonly incidents: ReadonlyArray<{ started_at: string; ended_at: string | null }>
  readonly p50_ms: number | null
  readonly p95_ms: number | null
  readonly by_location: ReadonlyArray<ByLocation>
}

interface Result {
  readonly id: string
  readonly started_at: string
  readonly duration_ms: number
  readonly ok: boolean
  readonly summary: string
  readonly location: string
}

const path = (m: Monitor, rest = "") => `/v1/monitors/${encodeURIComponent(m.id)}${rest}`

const uptimeCell = (u: Uptime | string) => {
  if (typeof u === "string") return errorBox(u)
  const pct = u.uptime_percentage
  return pct === null ? "–" : h("span", {}, bar(pct / 100, `uptime ${fmt.pct(pct)}`, pct >= 99 ? "good" : "warn"), ` ${fmt.pct(pct)}`)
}

/** Recent runs, oldest to newest: one mark per run (its height the duration), then the list. */
const timeline = (results: ReadonlyArray<Result>) => {
  if (results.length === 0) return h("p", { class: "empty" }, "No runs yet.")
  const runs = [...results].reverse()
  const longest = Math.max(...runs.map((r) => r.duration_ms), 1)
  const marks = runs.map((r) => {
    const label = `${fmt.date(r.started_at)}: ${r.ok ? "ok" : "not ok"}, ${fmt.ms(r.duration_ms)}`
    const where = ` from ${r.location}`
    const mark = h("span", { class: `run-mark ${r.ok ? "ok" : "fail"}`, role: "listitem", "aria-label": label, title: `${label}${where} — ${r.summary}` })
    mark.style.height = `${20 + Math.round((80 * r.duration_ms) / longest)}%`
    return mark
  })
  return h(
    "div",
    {},
    h("div", { class: "run-timeline", role: "list", "aria-label": "Recent runs, oldest first" }, marks),
    table(["Started", "Location", "Result", "Duration", "Summary"], results.slice(0, 10).map((r) => [
      fmt.date(r.started_at),
      r.location,
      h("span", { class: `badge ${r.ok ? "mon-up" : "mon-down"}` }, r.ok ? "ok" : "not ok"),
      fmt.ms(r.duration_ms),
      r.summary
    ]), "Latest runs")
  )
}

export const monitorsView: View = async (root, ctx) => {
  const notices = h("div", { class: "notices", "aria-live": "polite" })
  const listBox = h("div")
  const locationsBox = h("div")
  let known: ReadonlyArray<LocationInfo> = []
  const formBox = h("section", { class: "card" })
  const detailBox = h("section", { class: "card", hidden: true })
  const notify = (node: HTMLElement) => notices.replaceChildren(node)

  const act = async (what: () => Promise<void>) => {
    try {
      await what()
    } catch (e) {
      notify(errorBox(messageOf(e)))
    }
  }

  const showDetail = async (m: Monitor) => {
    detailBox.hidden = false
    replace(detailBox, h("p", { class: "loading" }, "Loading…"))
    const [u, r] = await Promise.all([
      get<Uptime>(path(m, `/uptime?period=${ctx.period}`)).catch((e) => messageOf(e)),
      get<{ results: ReadonlyArray<Result> }>(path(m, "/results?limit=60")).catch((e) => messageOf(e))
    ])
    replace(
      detailBox,
      h("h3", {}, `Runs of “${m.name}”`),
      typeof u === "string"
        ? errorBox(u)
        : h("div", { class: "stats" },
            stat("Uptime", uptimeCell(u), `${u.ok_runs} of ${u.runs} runs ok`),
            stat("p50 / p95", `${fmt.ms(u.p50_ms)} / ${fmt.ms(u.p95_ms)}`),
            stat("Incidents", String(u.incidents.length), u.incidents.some((i) => i.ended_at === null) ? "one ongoing" : undefined)),
      typeof u === "string" ? null : byLocationTable(u.by_location),
      typeof r === "string" ? errorBox(r) : timeline(r.results)
    )
  }

  const actions = (m: Monitor) => {
    const label = (verb: string) => ({ "aria-label": `${verb} ${m.name}` })
    const remove = h("button", { type: "button", class: "danger", ...label("Delete") }, "Delete")
    remove.addEventListener("click", () =>
      act(async () => {
        if (remove.dataset.confirm !== "yes") {
          remove.dataset.confirm = "yes"
          remove.textContent = "Confirm delete"
          return
        }
        await del(path(m))
        notify(h("p", { class: "ok-text" }, `Deleted “${m.name}”.`))
        detailBox.hidden = true
        newForm()
        await load()
      }))
    return h(
      "div",
      { class: "row-actions" },
      h("button", { type: "button", class: "secondary", ...label("Runs of"), onclick: () => act(() => showDetail(m)) }, "Runs"),
      h("button", { type: "button", class: "secondary", ...label("Edit"), onclick: () => editForm(m) }, "Edit"),
      h("button", {
        type: "button",
        class: "secondary",
        ...label(m.enabled ? "Pause" : "Resume"),
        onclick: () => act(async () => {
          await patch(path(m), { enabled: !m.enabled })
          notices.replaceChildren()
          await load()
        })
      }, m.enabled ? "Pause" : "Resume"),
      remove
    )
  }

  const load = async () => {
    const [{ monitors }, where] = await Promise.all([
      get<{ monitors: ReadonlyArray<Monitor> }>("/v1/monitors"),
      get<{ locations: ReadonlyArray<LocationInfo> }>("/v1/locations").catch(() => ({ locations: [] as ReadonlyArray<LocationInfo> }))
    ])
    known = where.locations
    replace(locationsBox, known.length === 0 ? null : h("div", {}, h("h3", {}, "Locations"), locationsLine(known)))
    const uptimes = await Promise.all(
      monitors.map((m) => get<Uptime>(path(m, `/uptime?period=${ctx.period}`)).catch((e) => messageOf(e)))
    )
    replace(
      listBox,
      monitors.length === 0
        ? h("p", { class: "empty" }, "No monitors yet.")
        : table(
            ["Monitor", "Kind", "Target", "Every", "State", "Locations", "Uptime", "Last run", "Actions"],
            monitors.map((m, i) => [
              h("span", { class: "monitor-name" }, m.name),
              h("span", { title: KINDS[m.kind]?.label ?? m.kind }, m.kind),
              m.target,
              fmt.duration(m.interval_seconds),
              h("span", { class: `badge mon-${m.status}` }, m.status === "paused" ? "Paused" : m.status === "up" ? "Up" : m.status === "down" ? "Down" : "Pending"),
              locationCell(m),
              uptimeCell(uptimes[i]),
              fmt.date(m.last_run_at),
              actions(m)
            ]),
            "Monitors"
          )
    )
  }

  const newForm = () =>
    replace(formBox, h("h3", {}, "New monitor"), monitorForm({
      locations: known,
      onSubmit: async (body) => {
        const created = await post<{ monitor: Monitor }>("/v1/monitors", body)
        notify(h("p", { class: "ok-text", role: "status" }, `Monitor “${created.monitor.name}” created.`))
        newForm()
        await load()
      }
    }))

  const editForm = (m: Monitor) => {
    replace(formBox, h("h3", {}, `Edit “${m.name}”`), monitorForm({
      monitor: m,
      locations: known,
      onSubmit: async (body) => {
        await patch(path(m), body)
        notify(h("p", { class: "ok-text", role: "status" }, `Monitor “${String(body.name)}” saved.`))
        newForm()
        await load()
      },
      onCancel: newForm
    }))
    formBox.querySelector("input")?.focus()
  }

  replace(
    root,
    h("h2", {}, "Monitors"),
    h("p", { class: "muted" }, "Continuous checks of your sites, certificates, domains and DNS; uptime over the selected period."),
    notices,
    h("section", { class: "card" }, locationsBox, listBox),
    detailBox,
    formBox
  )
  await load()
  newForm()
}
