/** The alert rule form, for create (all fields) and edit (PATCH of the changed fields). */
import { field, h, submitting } from "../dom"

export const METRICS = ["request_count", "error_rate", "p95_latency_ms", "avg_latency_ms", "quota_percentage_used", "cache_hit_rate"] as const
export const OPERATORS = { gt: ">", gte: "≥", lt: "<", lte: "≤" } as const

export type Channel = { type: "webhook"; url: string } | { type: "email"; address: string }

export interface Rule {
  readonly id: string
  readonly name: string
  readonly metric: string
  readonly operator: keyof typeof OPERATORS
  readonly threshold_value: number
  readonly window_minutes: number
  readonly channels: ReadonlyArray<Channel>
  readonly cooldown_minutes: number
  readonly enabled: boolean
  readonly last_triggered_at: string | null
}

/** One channel per line: a line with "@" and no scheme is an email address, anything else a webhook URL. */
export const parseChannels = (text: string): Array<Channel> =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((l) => (/^[^\s@/:]+@[^\s@]+$/.test(l) ? { type: "email", address: l } : { type: "webhook", url: l }))

export const channelText = (c: Channel) => (c.type === "email" ? c.address : c.url)

const wide = (el: HTMLElement) => {
  el.classList.add("wide")
  return el
}

export const ruleForm = (options: {
  readonly rule?: Rule
  readonly onSubmit: (body: Record<string, unknown>) => Promise<void>
  readonly onCancel?: () => void
}): HTMLFormElement => {
  const r = options.rule
  const name = h("input", { name: "name", required: true, maxlength: 200, value: r?.name ?? "" })
  const metric = h("select", { name: "metric", disabled: r !== undefined }, METRICS.map((m) => h("option", { value: m, selected: r?.metric === m }, m)))
  const operator = h("select", { name: "operator" }, Object.entries(OPERATORS).map(([k, v]) => h("option", { value: k, selected: r?.operator === k }, `${v} (${k})`)))
  const threshold = h("input", { name: "threshold_value", type: "number", step: "any", required: true, value: r?.threshold_value ?? "" })
  const windowMin = h("input", { name: "window_minutes", type: "number", min: 1, max: 1440, required: true, value: r?.window_minutes ?? 5 })
  const cooldown = h("input", { name: "cooldown_minutes", type: "number", min: 0, max: 10080, required: true, value: r?.cooldown_minutes ?? 15 })
  const channels = h("textarea", { name: "channels", rows: 2, placeholder: "https://hooks.example.net/alerts\nops@example.net" })
  channels.value = (r?.channels ?? []).map(channelText).join("\n")
  const enabled = h("input", { name: "enabled", type: "checkbox", checked: r ? r.enabled : true })
  const status = h("div", { "aria-live": "polite" })
  const submit = h("button", { type: "submit", class: "primary" }, r ? "Save changes" : "Create rule")
  const form = h(
    "form",
    {
      class: "rule-form",
      onsubmit: async (e: Event) => {
        e.preventDefault()
        const body: Record<string, unknown> = {
          name: name.value.trim(),
          operator: operator.value,
          threshold_value: Number(threshold.value),
          window_minutes: Number(windowMin.value),
          cooldown_minutes: Number(cooldown.value),
          channels: parseChannels(channels.value)
        }
        if (!r) {
          body.metric = metric.value
          body.enabled = enabled.checked
        }
        await submitting(submit, status, () => options.onSubmit(body))
      }
    },
    h(
      "div",
      { class: "form-grid" },
      field("Name", name),
      field("Metric", metric, r ? "fixed once created" : undefined),
      field("Operator", operator),
      field("Threshold", threshold),
      field("Window (minutes)", windowMin),
      field("Cooldown (minutes)", cooldown),
      wide(field("Channels", channels, "one per line: a webhook URL or an email address")),
      r ? null : h("div", { class: "field checkbox" }, enabled, h("label", { for: (enabled.id ||= "rule-enabled-new") }, "Enabled"))
    ),
    h("div", { class: "actions" }, submit, options.onCancel ? h("button", { type: "button", class: "secondary", onclick: options.onCancel }, "Cancel") : null),
    status
  )
  return form
}
