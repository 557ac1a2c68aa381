/**
 * The monitor form, one per kind: the target and the kind's own conditions
 * (docs/operations/monitors.md, "Kinds"). Create sends every field; edit sends a PATCH of the
 * fields (the kind is fixed once created). The kinds listed are the service's kind table's.
 */
import { field, h, submitting } from "../dom"
import { channelText, parseChannels, type Channel } from "./ruleForm"
import { type LocationInfo, type LocationStatus, locationsFieldset } from "./monitorLocations"

type Control =
  | { readonly name: string; readonly label: string; readonly type: "flag" }
  | { readonly name: string; readonly label: string; readonly type: "number"; readonly min: number; readonly max: number }
  | { readonly name: string; readonly label: string; readonly type: "choice"; readonly options: ReadonlyArray<string>; readonly optional?: boolean }
  | { readonly name: string; readonly label: string; readonly type: "list"; readonly hint: string }

interface KindForm {
  readonly label: string
  readonly target: string
  /** Minimum interval as a multiple of MONITOR_MIN_INTERVAL_S (default 60 s). */
  readonly factor: number
  readonly conditions: ReadonlyArray<Control>
}

const GRADES = ["A", "B", "C", "D", "F"]

export const KINDS: Record<string, KindForm> = {
  http_check: {
    label: "HTTP check",
    target: "https://example.com/health",
    factor: 1,
    conditions: [
      { name: "status_not_ok", label: "Status is not 2xx", type: "flag" },
      { name: "error", label: "Request fails", type: "flag" },
      { name: "total_ms_gt", label: "Total time above (ms)", type: "number", min: 1, max: 600000 }
    ]
  },
  certificate: {
    label: "TLS certificate",
    target: "example.com:443",
    factor: 10,
    conditions: [
      { name: "days_left_lt", label: "Days left below", type: "number", min: 0, max: 3650 },
      { name: "invalid", label: "Certificate invalid", type: "flag" }
    ]
  },
  ct_new_certificate: {
    label: "New certificate in CT logs",
    target: "example.com",
    factor: 10,
    conditions: [
      { name: "new_certificate", label: "Any new certificate", type: "flag" },
      { name: "issuer_not_in", label: "Issuers allowed", type: "list", hint: "one issuer per line; others make the run not ok" }
    ]
  },
  zone_hygiene: {
    label: "Zone hygiene",
    target: "example.com",
    factor: 10,
    conditions: [
      { name: "grade_below", label: "Grade below", type: "choice", options: GRADES, optional: true },
      { name: "new_finding_severity_at_least", label: "New finding of severity", type: "choice", options: ["critical", "high", "medium", "low", "info"], optional: true }
    ]
  },
  waf: {
    label: "WAF / CDN provider",
    target: "example.com",
    factor: 1,
    conditions: [
      { name: "provider_changed", label: "Provider changed", type: "flag" },
      { name: "provider_absent", label: "No provider", type: "flag" }
    ]
  },
  domain_expiry: {
    label: "Domain expiry (RDAP)",
    target: "example.com",
    factor: 10,
    conditions: [{ name: "days_left_lt", label: "Days left below", type: "number", min: 0, max: 3650 }]
  },
  dns_records: {
    label: "DNS records",
    target: "www.example.com",
    factor: 1,
    conditions: [
      { name: "record_type", label: "Record type (default A)", type: "choice", options: ["A", "AAAA", "CNAME", "MX", "NS", "TXT", "CAA", "SRV", "SOA", "PTR"], optional: true },
      { name: "changed", label: "Answer changed", type: "flag" },
      { name: "expected", label: "Expected answer", type: "list", hint: "one record per line (e.g. 192.0.2.1 or 10 mail.example.com)" }
    ]
  },
  dnssec: {
    label: "DNSSEC",
    target: "example.com",
    factor: 10,
    conditions: [
      { name: "status_not_secure", label: "Not secure", type: "flag" },
      { name: "signature_expires_within_days", label: "Signatures expire within (days)", type: "number", min: 0, max: 365 }
    ]
  },
  email_security: {
    label: "Email security",
    target: "example.com",
    factor: 10,
    conditions: [
      { name: "grade_below", label: "Grade below", type: "choice", options: GRADES, optional: true },
      { name: "record_changed", label: "SPF, DMARC or MTA-STS id changed", type: "flag" }
    ]
  },
  tls: {
    label: "TLS configuration",
    target: "example.com:443",
    factor: 10,
    conditions: [
      { name: "grade_below", label: "Grade below", type: "choice", options: ["A+", "A", "A-", "B", "C", "D", "E", "F"], optional: true },
      { name: "protocol_enabled", label: "Protocols that must be off", type: "list", hint: "one per line: ssl3, tls1_0, tls1_1, tls1_2, tls1_3" }
    ]
  },
  takeover: {
    label: "Subdomain takeover",
    target: "example.com",
    factor: 10,
    conditions: [{ name: "new_candidate_confidence_at_least", label: "New candidate of confidence", type: "choice", options: ["confirmed", "potential", "unlikely"], optional: true }]
  },
  lookalikes: {
    label: "Lookalike domains",
    target: "example.com",
    factor: 60,
    conditions: [
      { name: "new_lookalike_risk_at_least", label: "New lookalike of risk at least (default medium)", type: "choice", options: ["high", "medium", "low"], optional: true }
    ]
  },
  audit: {
    label: "Domain audit",
    target: "example.com",
    factor: 10,
    conditions: [
      { name: "grade_below", label: "Grade below", type: "choice", options: GRADES, optional: true },
      { name: "check_failed", label: "Checks that must pass", type: "list", hint: "one check id per line, e.g. mail_spf, web_hsts, exposure_takeover" }
    ]
  },
  blocklist: {
    label: "Blocklists (DNSBL)",
    target: "192.0.2.25 or example.com",
    factor: 10,
    conditions: [{ name: "listed", label: "Newly listed on a blocklist", type: "flag" }]
  }
}

export interface Monitor {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly target: string
  readonly interval_seconds: number
  readonly conditions: Record<string, unknown>
  readonly channels: ReadonlyArray<Channel>
  readonly enabled: boolean
  readonly status: "pending" | "up" | "down" | "paused"
  readonly last_run_at: string | null
  readonly failures_before_alert: number
  readonly locations: ReadonlyArray<string>
  readonly quorum: number
  readonly state: "ok" | "not_ok" | "unknown"
  readonly location_status: ReadonlyArray<LocationStatus>
}

/** The controls of one kind's conditions, filled from `values`; `read` collects what is set. */
const conditionsFieldset = (kind: string, values: Record<string, unknown>) => {
  const spec = KINDS[kind]
  const read: Array<(into: Record<string, unknown>) => void> = []
  const fields = spec.conditions.map((c) => {
    const v = values[c.name]
    switch (c.type) {
      case "flag": {
        const box = h("input", { type: "checkbox", name: c.name, checked: v === true })
        read.push((into) => { if (box.checked) into[c.name] = true })
        return h("div", { class: "field checkbox" }, box, h("label", { for: (box.id ||= `cond-${kind}-${c.name}`) }, c.label))
      }
      case "number": {
        const input = h("input", { type: "number", name: c.name, min: c.min, max: c.max, step: "any", value: typeof v === "number" ? v : "" })
        read.push((into) => { if (input.value.trim() !== "") into[c.name] = Number(input.value) })
        return field(c.label, input)
      }
      case "choice": {
        const select = h("select", { name: c.name },
          c.optional ? h("option", { value: "" }, "—") : null,
          c.options.map((o) => h("option", { value: o, selected: v === o }, o)))
        read.push((into) => { if (select.value !== "") into[c.name] = select.value })
        return field(c.label, select)
      }
      case "list": {
        const area = h("textarea", { name: c.name, rows: 2 })
        area.value = Array.isArray(v) ? v.join("\n") : ""
        read.push((into) => {
          const lines = area.value.split("\n").map((l) => l.trim()).filter((l) => l.length > 0)
          if (lines.length > 0) into[c.name] = lines
        })
        return field(c.label, area, c.hint)
      }
    }
  })
  return {
    node: h("fieldset", { class: "conditions" }, h("legend", {}, "Not ok when"), fields),
    read: () => {
      const out: Record<string, unknown> = {}
      for (const r of read) r(out)
      return out
    }
  }
}

export const monitorForm = (options: {
  readonly monitor?: Monitor
  /** The known locations (GET /v1/locations), to choose from. */
  readonly locations: ReadonlyArray<LocationInfo>
  readonly onSubmit: (body: Record<string, unknown>) => Promise<void>
  readonly onCancel?: () => void
}): HTMLFormElement => {
  const m = options.monitor
  const kind = h("select", { name: "kind", disabled: m !== undefined }, Object.entries(KINDS).map(([k, s]) => h("option", { value: k, selected: m?.kind === k }, s.label)))
  const name = h("input", { name: "name", required: true, maxlength: 200, value: m?.name ?? "" })
  const target = h("input", { name: "target", required: true, maxlength: 2048, value: m?.target ?? "" })
  const interval = h("input", { name: "interval_seconds", type: "number", min: 1, max: 604800, required: true, value: m?.interval_seconds ?? "" })
  const failures = h("input", { name: "failures_before_alert", type: "number", min: 1, max: 100, required: true, value: m?.failures_before_alert ?? 1 })
  const channels = h("textarea", { name: "channels", rows: 2, placeholder: "https://hooks.example.net/monitors\nops@example.net" })
  channels.value = (m?.channels ?? []).map(channelText).join("\n")
  const conditionsBox = h("div", { class: "full" })
  const where = locationsFieldset(options.locations, m)
  let conditions = conditionsFieldset(m?.kind ?? kind.value, m?.conditions ?? {})
  const targetHint = h("small", {})
  const showKind = () => {
    const spec = KINDS[kind.value]
    target.placeholder = spec.target
    // The floor is the service's (MONITOR_MIN_INTERVAL_S, default 60 s); the service checks it.
    if (!m && interval.value === "") interval.value = String(spec.factor * 60)
    targetHint.textContent = `e.g. ${spec.target}; runs at most every ${spec.factor > 1 ? "10 × " : ""}MONITOR_MIN_INTERVAL_S (${spec.factor * 60} s by default)`
    if (!m) conditions = conditionsFieldset(kind.value, {})
    conditionsBox.replaceChildren(conditions.node)
  }
  kind.addEventListener("change", () => {
    if (!m) interval.value = ""
    showKind()
  })
  const status = h("div", { "aria-live": "polite" })
  const submit = h("button", { type: "submit", class: "primary" }, m ? "Save monitor" : "Create monitor")
  const form = h(
    "form",
    {
      class: "monitor-form",
      onsubmit: async (e: Event) => {
        e.preventDefault()
        const body: Record<string, unknown> = {
          name: name.value.trim(),
          target: target.value.trim(),
          interval_seconds: Number(interval.value),
          failures_before_alert: Number(failures.value),
          channels: parseChannels(channels.value)
        }
        const c = conditions.read()
        // No condition chosen: on create the kind's defaults apply; an edit keeps the current ones.
        if (Object.keys(c).length > 0) body.conditions = c
        if (!m) body.kind = kind.value
        Object.assign(body, where.read())
        await submitting(submit, status, () => options.onSubmit(body))
      }
    },
    h(
      "div",
      { class: "form-grid" },
      field("Kind", kind, m ? "fixed once created" : undefined),
      field("Name", name),
      h("div", { class: "field wide" }, h("label", { for: (target.id ||= `monitor-target-${m?.id ?? "new"}`) }, "Target"), target, targetHint),
      field("Interval (seconds)", interval),
      field("Failures before alert", failures),
      conditionsBox,
      h("div", { class: "full" }, where.node),
      h("div", { class: "full" }, field("Channels", channels, "one per line: a webhook URL or an email address"))
    ),
    h("div", { class: "actions" }, submit, options.onCancel ? h("button", { type: "button", class: "secondary", onclick: options.onCancel }, "Cancel") : null),
    status
  )
  showKind()
  return form
}
