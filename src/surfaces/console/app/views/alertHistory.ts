/** Alert history: filter by status, acknowledge, resolve with notes, time to resolution. */
import { get, messageOf, post } from "../api"
import { errorBox, field, fmt, h, replace, table } from "../dom"

interface AlertRecord {
  readonly id: string
  readonly rule_id: string | null
  readonly status: "pending" | "acknowledged" | "resolved"
  readonly metric: string
  readonly observed_value: number
  readonly threshold_value: number
  readonly triggered_at: string
  readonly acknowledged_at: string | null
  readonly resolved_at: string | null
  readonly resolution_notes: string | null
  readonly time_to_resolution_seconds: number | null
  readonly source?: string
  readonly monitor_id?: string | null
}

export const historySection = async (box: HTMLElement, ruleName: (id: string) => string | undefined) => {
  const filter = h(
    "select",
    { name: "status" },
    h("option", { value: "" }, "All"),
    ["pending", "acknowledged", "resolved"].map((s) => h("option", { value: s }, s))
  )
  const list = h("div")
  const status = h("div", { "aria-live": "polite" })
  const refresh = h("button", { type: "button", class: "secondary" }, "Refresh")

  const load = async () => {
    try {
      const q = filter.value ? `?status=${filter.value}` : ""
      const { alerts } = await get<{ alerts: ReadonlyArray<AlertRecord> }>(`/v1/alerts/history${q}`)
      replace(
        list,
        alerts.length === 0
          ? h("p", { class: "empty" }, "No alerts.")
          : table(
              ["Triggered", "Rule", "Observed", "Status", "Time to resolution", "Notes", "Actions"],
              alerts.map((a) => [
                fmt.date(a.triggered_at),
                a.rule_id ? (ruleName(a.rule_id) ?? a.rule_id) : a.monitor_id ? `monitor ${a.monitor_id}` : "–",
                `${a.metric} = ${fmt.num(a.observed_value, 2)} (threshold ${a.threshold_value})`,
                h("span", { class: `badge ${a.status}` }, a.status),
                fmt.duration(a.time_to_resolution_seconds),
                a.resolution_notes ?? "",
                actions(a)
              ]),
              "Alert history, newest first"
            )
      )
    } catch (e) {
      replace(list, errorBox(messageOf(e)))
    }
  }

  const run = async (what: () => Promise<unknown>) => {
    try {
      await what()
      status.replaceChildren()
      await load()
    } catch (e) {
      status.replaceChildren(errorBox(messageOf(e)))
    }
  }

  const actions = (a: AlertRecord) => {
    if (a.status === "resolved") return h("span", { class: "muted" }, `resolved ${fmt.date(a.resolved_at)}`)
    const cell = h("div", { class: "row-actions" })
    const ack =
      a.status === "pending"
        ? h("button", { type: "button", class: "secondary", onclick: () => run(() => post(`/v1/alerts/history/${encodeURIComponent(a.id)}/acknowledge`)) }, "Acknowledge")
        : null
    const resolve = h("button", { type: "button", class: "secondary" }, "Resolve…")
    resolve.addEventListener("click", () => {
      const notes = h("textarea", { name: "notes", rows: 2, maxlength: 10000 })
      const form = h(
        "form",
        {
          class: "resolve-form",
          onsubmit: (e: Event) => {
            e.preventDefault()
            const text = notes.value.trim()
            void run(() => post(`/v1/alerts/history/${encodeURIComponent(a.id)}/resolve`, text ? { notes: text } : {}))
          }
        },
        field("Resolution notes", notes),
        h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, "Resolve"), h("button", { type: "button", class: "secondary", onclick: () => void load() }, "Cancel"))
      )
      replace(cell, form)
      notes.focus()
    })
    cell.append(...[ack, resolve].filter((x): x is HTMLButtonElement => x !== null))
    return cell
  }

  filter.addEventListener("change", () => void load())
  refresh.addEventListener("click", () => void load())
  replace(box, h("h3", {}, "History"), h("div", { class: "toolbar" }, field("Status", filter), refresh), status, list)
  await load()
}
