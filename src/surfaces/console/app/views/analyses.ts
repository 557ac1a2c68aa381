/** Run an analysis: one form per operation; the report rendered for people, raw JSON one click away. */
import { get, messageOf, qs } from "../api"
import { errorBox, field, h, replace } from "../dom"
import { ctReport, emailReport, freshnessReport, httpCheckReport, rawJson, wafReport, zoneReport } from "./reports"
import { headersReport, tlsReport } from "./securityReports"
import { takeoverReport } from "./takeoverReport"
import { lookalikesReport } from "./lookalikesReport"
import { blocklistReport } from "./blocklistReport"
import type { View } from "./types"

type Values = Record<string, string | boolean>

interface Operation {
  readonly id: string
  readonly label: string
  readonly path: string
  readonly fields: ReadonlyArray<{ name: string; label: string; type?: "text" | "number" | "checkbox" | "select"; options?: ReadonlyArray<string>; placeholder?: string; required?: boolean; value?: string }>
  readonly render: (report: any, rerun: (extra: Values) => void) => HTMLElement
}

const OPERATIONS: ReadonlyArray<Operation> = [
  {
    id: "http-check",
    label: "HTTP check",
    path: "/v1/network/http-check",
    fields: [
      { name: "url", label: "URL", placeholder: "https://example.com/", required: true },
      { name: "method", label: "Method", type: "select", options: ["HEAD", "GET"] },
      { name: "follow_redirects", label: "Follow redirects", type: "checkbox", value: "true" },
      { name: "timeout", label: "Timeout (ms)", type: "number", placeholder: "10000" }
    ],
    render: httpCheckReport
  },
  {
    id: "waf",
    label: "WAF detection",
    path: "/v1/domain/waf",
    fields: [
      { name: "domain", label: "Domain", placeholder: "example.com", required: true },
      { name: "active_probe", label: "Active probe (needs an audit token / TXT record)", type: "checkbox" }
    ],
    render: wafReport
  },
  {
    id: "freshness",
    label: "Content freshness",
    path: "/v1/domain/content-freshness",
    fields: [{ name: "domain", label: "Domain or URL", placeholder: "example.com", required: true }],
    render: freshnessReport
  },
  {
    id: "zone",
    label: "Zone hygiene",
    path: "/v1/dns/zone-hygiene",
    fields: [{ name: "domain", label: "Zone apex", placeholder: "example.com", required: true }],
    render: zoneReport
  },
  {
    id: "email",
    label: "Email security",
    path: "/v1/security/email",
    fields: [
      { name: "domain", label: "Domain", placeholder: "example.com", required: true },
      { name: "dkim_selectors", label: "DKIM selectors (comma list, optional)", placeholder: "s1,mx2024" },
      { name: "starttls", label: "Test STARTTLS on each MX", type: "checkbox" }
    ],
    render: emailReport
  },
  {
    id: "tls",
    label: "TLS",
    path: "/v1/security/tls",
    fields: [
      { name: "host", label: "Host (name or IP)", placeholder: "example.com", required: true },
      { name: "port", label: "Port", type: "number", placeholder: "443" }
    ],
    render: tlsReport
  },
  {
    id: "headers",
    label: "HTTP security grade",
    path: "/v1/security/headers",
    fields: [{ name: "url", label: "URL or domain", placeholder: "https://example.com/", required: true }],
    render: headersReport
  },
  {
    id: "takeover",
    label: "Subdomain takeover",
    path: "/v1/security/takeover",
    fields: [
      { name: "domain", label: "Domain", placeholder: "example.com", required: true },
      { name: "names", label: "Extra names (comma list, optional)", placeholder: "old-shop.example.com,promo.example.com" }
    ],
    render: takeoverReport
  },
  {
    id: "lookalikes",
    label: "Lookalike domains",
    path: "/v1/security/lookalikes",
    fields: [
      { name: "domain", label: "Domain", placeholder: "example.com", required: true },
      { name: "fuzzers", label: "Fuzzers (comma list, optional: all)", placeholder: "homoglyph,addition,tld-swap" }
    ],
    render: lookalikesReport
  },
  {
    id: "blocklist",
    label: "Blocklists (DNSBL)",
    path: "/v1/security/blocklist",
    fields: [{ name: "target", label: "IP address or domain", placeholder: "192.0.2.25 or example.com", required: true }],
    render: blocklistReport
  },
  {
    id: "ct",
    label: "CT logs",
    path: "/v1/domain/ct-logs",
    fields: [
      { name: "domain", label: "Domain", placeholder: "example.com", required: true },
      { name: "limit", label: "Page size", type: "number", placeholder: "100" },
      { name: "since", label: "Since (ISO 8601)", placeholder: "2025-01-01" }
    ],
    render: ctReport
  }
]

const control = (f: Operation["fields"][number]): HTMLInputElement | HTMLSelectElement => {
  if (f.type === "select") return h("select", { name: f.name }, (f.options ?? []).map((o) => h("option", { value: o }, o)))
  if (f.type === "checkbox") return h("input", { type: "checkbox", name: f.name, checked: f.value === "true" })
  return h("input", { type: f.type === "number" ? "number" : "text", name: f.name, placeholder: f.placeholder, required: f.required, min: f.type === "number" ? 1 : undefined, inputmode: f.type === "number" ? "numeric" : undefined })
}

const operationPanel = (op: Operation): HTMLElement => {
  const controls = op.fields.map((f) => [f, control(f)] as const)
  const result = h("div", { class: "report", "aria-live": "polite" })
  const submit = h("button", { type: "submit", class: "primary" }, "Run")
  const run = async (extra: Values = {}) => {
    const params: Record<string, string | undefined> = {}
    for (const [f, c] of controls) {
      if (c instanceof HTMLInputElement && c.type === "checkbox") params[f.name] = c.checked ? "true" : f.value === "true" ? "false" : undefined
      else params[f.name] = c.value.trim() || undefined
    }
    for (const [k, v] of Object.entries(extra)) params[k] = String(v)
    submit.disabled = true
    replace(result, h("p", { class: "loading" }, `Running ${op.label.toLowerCase()}…`))
    try {
      const report = await get(op.path + qs(params))
      replace(result, op.render(report, (more) => void run(more)), rawJson(report))
    } catch (e) {
      replace(result, errorBox(messageOf(e)))
    } finally {
      submit.disabled = false
    }
  }
  const form = h(
    "form",
    { class: "analysis-form", "data-operation": op.id, onsubmit: (e: Event) => { e.preventDefault(); void run() } },
    h(
      "div",
      { class: "form-grid" },
      controls.map(([f, c]) =>
        f.type === "checkbox"
          ? h("div", { class: "field checkbox" }, c, h("label", { for: (c.id ||= `${op.id}-${f.name}`) }, f.label))
          : field(f.label, c)
      )
    ),
    h("div", { class: "actions" }, submit)
  )
  return h("section", { class: "card", id: `analysis-${op.id}` }, h("h3", {}, op.label), form, result)
}

export const analysesView: View = async (root) => {
  const panels = new Map(OPERATIONS.map((op) => [op.id, operationPanel(op)]))
  const holder = h("div")
  const tabs = OPERATIONS.map((op) =>
    h("button", { type: "button", class: "tab small", "data-operation": op.id, onclick: () => select(op.id) }, op.label)
  )
  const select = (id: string) => {
    for (const t of tabs) t.setAttribute("aria-pressed", String(t.dataset.operation === id))
    replace(holder, panels.get(id)!)
  }
  replace(root, h("h2", {}, "Run an analysis"), h("div", { class: "subnav", role: "group", "aria-label": "Analyses" }, tabs), holder)
  select(OPERATIONS[0].id)
}
