/**
 * The Audit page: a domain in, the report card out (docs/operations/domain-audit.md): the grade,
 * each section with its status, grade and checks (passed, failed or undecided, the severity of a
 * failure, what was seen), the findings with what to do, the limitations, and the underlying
 * reports, each opened in the view its own operation's page uses.
 */
import { get, messageOf, qs } from "../api"
import { type Child, errorBox, field, fmt, h, replace, table } from "../dom"
import { emailReport, headline, list, rawJson, zoneReport } from "./reports"
import { headersReport, tlsReport } from "./securityReports"
import { takeoverReport } from "./takeoverReport"
import type { View } from "./types"

const SECTIONS: ReadonlyArray<readonly [string, string]> = [["web", "Web"], ["mail", "Mail"], ["dns", "DNS"], ["exposure", "Exposure"]]

/** The underlying reports, in the report's order, each with its own operation's view. */
const REPORTS: ReadonlyArray<readonly [string, string, (r: any) => HTMLElement]> = [
  ["security_headers", "HTTP security grade", headersReport],
  ["tls", "TLS scan", tlsReport],
  ["email", "Email security", emailReport],
  ["zone_hygiene", "Zone hygiene", zoneReport],
  ["takeover", "Subdomain takeover", takeoverReport],
  ["blocklist", "Blocklists", (r) => h("div", {}, headline(null, null, `Blocklists: ${r.target}`, h("div", { class: "score" }, `${r.listed_count} listed`)))]
]

/** The report each check is judged from (the others read the audit's own fetches and lookups). */
const READS: Readonly<Record<string, string>> = {
  web_https_redirect: "security_headers", web_tls: "tls", web_security_headers: "security_headers", web_security_txt: "security_headers",
  mail_spf: "email", mail_dmarc: "email", mail_dkim: "email", mail_mta_sts: "email", mail_tls_rpt: "email", mail_dane: "email", mail_ipv6: "email",
  mail_starttls: "email", mail_blocklist: "blocklist",
  dns_dnssec: "zone_hygiene", dns_zone: "zone_hygiene", dns_caa: "zone_hygiene",
  exposure_takeover: "takeover", exposure_blocklist: "blocklist"
}

const RESULT: Readonly<Record<string, string>> = { true: "passed", false: "failed", null: "—" }

const outcome = (passed: boolean | null) =>
  h("span", { class: `badge ${passed === true ? "ok" : passed === false ? "sev-high" : ""}`, "data-passed": String(passed) }, RESULT[String(passed)])

const STATUS_TONE: Readonly<Record<string, string>> = { complete: "ok", incomplete: "paused", skipped: "" }

export const auditCard = (r: any, open: (key: string) => void): HTMLElement => {
  const link = (key: string): Child => {
    const label = REPORTS.find(([k]) => k === key)?.[1] ?? key
    return r.reports?.[key] ? h("button", { type: "button", class: "secondary small", "data-report": key, onclick: () => open(key) }, label) : null
  }
  const section = ([name, title]: readonly [string, string]) => {
    const s = r.sections[name]
    return h(
      "section",
      { class: "audit-section", "data-section": name },
      h("h4", {}, `${title} `, h("span", { class: `badge ${STATUS_TONE[s.status]}`, "data-status": s.status }, s.status), s.grade ? ` grade ${s.grade} (${s.score} / 100)` : ""),
      s.status === "skipped"
        ? h("p", { class: "muted" }, "Not asked.")
        : table(
          ["Result", "Check", "Severity of a failure", "What was seen", "Report"],
          s.checks.map((c: any) => [outcome(c.passed), h("code", { "data-check": c.id }, c.id), h("span", { class: `badge sev-${c.severity}` }, c.severity), c.summary, READS[c.id] ? link(READS[c.id]) : "–"]),
          `${title} checks`
        )
    )
  }
  const timing = SECTIONS.filter(([n]) => r.timings_ms[n] !== null).map(([n, t]) => `${t} ${fmt.ms(r.timings_ms[n])}`).join(" · ")
  return h(
    "div",
    { class: "audit-card" },
    headline(r.grade, r.score, `Audit of ${r.domain}`, h("div", { class: "score" }, `${timing} · ${fmt.ms(r.timings_ms.total)} in all · checked ${fmt.date(r.checked_at)}`)),
    r.grade === null ? h("p", { class: "muted no-grade" }, "No section could be completed: no overall grade.") : null,
    SECTIONS.map(section),
    list("Findings", r.findings.map((f: any) => h("span", {}, h("span", { class: `badge sev-${f.severity}` }, f.severity), " ", h("code", {}, f.check), ": ", f.message)), "findings"),
    list("Recommendations", r.recommendations),
    list("Limitations", r.limitations),
    list("Underlying reports", REPORTS.filter(([k]) => r.reports[k] !== null).map(([k]) => link(k)), "underlying")
  )
}

export const auditView: View = async (root) => {
  const domain = h("input", { name: "domain", required: true, placeholder: "example.com", autocomplete: "off" })
  const boxes = SECTIONS.map(([name, title]) => [name, h("input", { type: "checkbox", name: `section-${name}`, checked: true, id: `audit-section-${name}` }), title] as const)
  const starttls = h("input", { type: "checkbox", name: "starttls", id: "audit-starttls" })
  const submit = h("button", { type: "submit", class: "primary" }, "Run the audit")
  const result = h("div", { class: "report", "aria-live": "polite" })
  const detail = h("div", { class: "audit-report", id: "audit-report" })
  const run = async () => {
    const chosen = boxes.filter(([, b]) => b.checked).map(([n]) => n)
    submit.disabled = true
    replace(detail)
    replace(result, h("p", { class: "loading" }, `Auditing ${domain.value.trim()}…`))
    try {
      const report = await get(`/v1/domain/audit${qs({
        domain: domain.value.trim(),
        sections: chosen.length === SECTIONS.length ? undefined : chosen.join(","),
        starttls: starttls.checked ? "true" : undefined
      })}`)
      const open = (key: string) => {
        const [, label, render] = REPORTS.find(([k]) => k === key)!
        replace(detail, h("h3", { "data-open-report": key }, `${label} report, as this audit made it`), render(report.reports[key]), rawJson(report.reports[key]))
        detail.scrollIntoView({ block: "start" })
      }
      replace(result, auditCard(report, open), rawJson(report))
    } catch (e) {
      replace(result, errorBox(messageOf(e)))
    } finally {
      submit.disabled = false
    }
  }
  const form = h(
    "form",
    { class: "analysis-form audit-form", onsubmit: (e: Event) => { e.preventDefault(); void run() } },
    h(
      "div",
      { class: "form-grid" },
      field("Domain", domain),
      boxes.map(([, box, title]) => h("div", { class: "field checkbox" }, box, h("label", { for: box.id }, title))),
      h("div", { class: "field checkbox" }, starttls, h("label", { for: starttls.id }, "Test STARTTLS on each MX"))
    ),
    h("div", { class: "actions" }, submit)
  )
  replace(
    root,
    h("h2", {}, "Domain audit"),
    h("section", { class: "card", id: "audit" }, h("p", { class: "muted" }, "Web, mail, DNS and exposure checks of one domain, scored and graded; each check links to the report it was judged from."), form, result),
    detail
  )
}
