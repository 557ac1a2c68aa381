/**
 * Reports as a person reads them: grade and score first, findings and recommendations as lists,
 * timings as a bar, dates as a table. Field names are the REST reports' (each
 * operation's page in docs/operations/, "Report").
 */
import { type Child, fmt, h, table } from "../dom"

export const rawJson = (report: unknown) =>
  h("details", { class: "raw" }, h("summary", {}, "Raw JSON"), h("pre", {}, JSON.stringify(report, null, 2)))

/** By the letter alone, so the Observatory's B+/B- and SSL Labs' A-/T/M tone like their letter. */
const gradeTone = (grade: string) => ({ A: "good", B: "ok", C: "warn" } as Record<string, string>)[grade[0]] ?? "bad"

export const headline = (grade: string | null, score: number | null, title: string, ...extra: Array<Child>) =>
  h(
    "div",
    { class: "headline" },
    grade ? h("div", { class: `grade ${gradeTone(grade)}`, "aria-label": `grade ${grade}` }, grade) : null,
    h("div", {}, h("div", { class: "headline-title" }, title), score !== null ? h("div", { class: "score" }, `Score ${score} / 100`) : null, ...extra)
  )

export const list = (title: string, items: ReadonlyArray<Child>, cls = "") =>
  items.length === 0 ? null : h("section", { class: `report-list ${cls}` }, h("h4", {}, title), h("ul", {}, items.map((i) => h("li", {}, i))))

export const kv = (rows: ReadonlyArray<[string, Child]>) =>
  h("dl", { class: "kv" }, rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v === null || v === undefined || v === "" ? "–" : v)]))

export const yesNo = (b: boolean | null | undefined) => (b === null || b === undefined ? "–" : b ? "yes" : "no")

/** Timings as one stacked bar: each phase's width is its share of the total (CSSOM widths). */
const timingBar = (t: Record<string, number | null>) => {
  const total = t.total_ms ?? 0
  const phases: Array<[string, number | null]> = [["DNS", t.dns_ms], ["connect", t.connect_ms], ["TLS", t.tls_ms], ["first byte", t.ttfb_ms]]
  let used = 0
  const segments = phases
    .map(([name, v], i) => [name, v, i] as const)
    .filter(([, v]) => v !== null && v !== undefined && v > 0)
    .map(([name, v, i]) => {
      used += v!
      const seg = h("span", { class: `seg seg-${i}`, title: `${name}: ${fmt.ms(v)}` })
      seg.style.width = `${total > 0 ? (v! / total) * 100 : 0}%`
      return seg
    })
  const rest = h("span", { class: "seg seg-rest", title: `rest: ${fmt.ms(Math.max(0, total - used))}` })
  rest.style.width = `${total > 0 ? (Math.max(0, total - used) / total) * 100 : 0}%`
  return h(
    "figure",
    { class: "timing" },
    h("figcaption", {}, `Timings: ${fmt.ms(total)} in total`),
    h("div", { class: "timing-bar", role: "img", "aria-label": phases.map(([n, v]) => `${n} ${fmt.ms(v)}`).join(", ") }, segments, rest),
    h("ul", { class: "legend" }, phases.map(([n, v], i) => h("li", {}, h("span", { class: `swatch seg-${i}` }), `${n} ${fmt.ms(v)}`)))
  )
}

export const httpCheckReport = (r: any) => {
  const code = r.status?.code
  const ok = r.status?.ok === true
  return h(
    "div",
    {},
    h(
      "div",
      { class: "headline" },
      h("div", { class: `grade ${ok ? "good" : "bad"}`, "data-testid": "http-status" }, code === null || code === undefined ? "—" : String(code)),
      h("div", {}, h("div", { class: "headline-title" }, r.error ? `Failed: ${r.error}` : `HTTP ${code} ${r.status?.text ?? ""} · ${r.method} ${r.final_url}`), h("div", { class: "score" }, `${fmt.ms(r.timings?.total_ms)} · checked ${fmt.date(r.checked_at)}`))
    ),
    r.timings ? timingBar(r.timings) : null,
    kv([
      ["Final URL", r.final_url],
      ["TLS verified", yesNo(r.ssl?.verified)],
      ["Body bytes", r.content_length_bytes === null ? null : fmt.num(r.content_length_bytes)],
      ["HTTP versions advertised", (r.advertised_http_versions ?? []).join(", ")]
    ]),
    list("Security headers", Object.entries(r.security_summary ?? {}).map(([k, v]) => `${k.replace(/_/g, " ")}: ${typeof v === "boolean" ? yesNo(v) : String(v ?? "–")}`)),
    (r.redirects ?? []).length > 0 ? table(["From", "To", "Status", "Time"], r.redirects.map((x: any) => [x.from, x.to, String(x.status), fmt.ms(x.time_ms)]), "Redirects") : null,
    table(["Header", "Value"], Object.entries(r.headers ?? {}).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, String(v)]), "Response headers")
  )
}

export const wafReport = (r: any) =>
  h(
    "div",
    {},
    headline(null, null, r.provider_present ? `Protected by ${r.primaryProvider}` : "No WAF detected", h("div", { class: "score" }, `enforcement ${r.enforcement_signal} · block category ${r.block_category} · status ${r.status_code ?? "none"}`)),
    kv([
      ["URL", r.url],
      ["Topology", r.topology ? `${r.topology}: ${(r.topology_chain ?? []).join(" → ")}` : null],
      ["Providers", String(r.providerCount ?? 0)]
    ]),
    (r.providers ?? []).length > 0
      ? table(
          ["Provider", "Confidence", "Evidence"],
          r.providers.map((p: any) => [p.name ?? p.provider, `${p.confidence_level ?? ""} (${Math.round((p.confidence ?? 0) * 100)} %)`, h("ul", { class: "plain" }, (p.evidence ?? []).map((e: any) => h("li", {}, typeof e === "string" ? e : `${e.kind}: ${e.detail}`)))]),
          "Detected providers"
        )
      : null,
    r.active_probe
      ? kv([["Active probe", r.active_probe.probed === false ? `not run: ${r.active_probe.refusal_reason}` : `${r.active_probe.summary?.enforcement ?? ""}`]])
      : null,
    list("Recommendations", r.recommendations ?? [])
  )

export const freshnessReport = (r: any) =>
  h(
    "div",
    {},
    headline(r.grade, r.score, `${r.contentAge?.category ?? "unknown"} content · ${r.contentAge?.days ?? "?"} days old`, h("div", { class: "score" }, `confidence ${r.confidence}`)),
    kv([
      ["URL", r.url],
      ["Published", r.publishDate ? `${fmt.date(r.publishDate.date)} (${r.publishDate.source})` : null],
      ["Modified", r.modifiedDate ? `${fmt.date(r.modifiedDate.date)} (${r.modifiedDate.source})` : null],
      ["Last-Modified header", r.lastModifiedHeader],
      ["Dates consistent", yesNo(r.dateConsistency?.consistent)]
    ]),
    (r.allDatesFound ?? []).length > 0 ? table(["Date", "Type", "Source"], r.allDatesFound.map((d: any) => [fmt.date(d.date), d.type, d.source]), "Dates found") : h("p", { class: "muted" }, "No date signals found."),
    list("Date issues", r.dateConsistency?.issues ?? []),
    list("Cache configuration issues", r.cacheHeaders?.issues ?? []),
    list("Recommendations", r.recommendations ?? [])
  )

const findingText = (f: any): Child =>
  typeof f === "string" ? f : h("span", {}, h("span", { class: `badge sev-${f.severity}` }, f.severity), " ", f.message ?? f.title ?? JSON.stringify(f))

export const zoneReport = (r: any) =>
  h(
    "div",
    {},
    headline(r.hygiene_grade, r.hygiene_score, `Zone ${r.domain}`, h("div", { class: "score" }, `nameservers: ${(r.nameservers ?? []).join(", ") || "none"}`)),
    list("Findings", (r.findings ?? []).map(findingText), "findings"),
    list("Recommendations", r.recommendations ?? []),
    (r.checks ?? []).length > 0 ? table(["Check", "Passed", "Worst severity", "Findings"], r.checks.map((c: any) => [c.check, yesNo(c.passed), c.severity_max ?? "–", String(c.finding_count)]), "Checks") : null,
    list("Limitations", r.limitations ?? [])
  )

export const ctReport = (r: any, rerun: (extra: Record<string, string>) => void) => {
  const p = r.pagination ?? { offset: 0, limit: r.count, next_offset: null }
  const prev = h("button", { type: "button", class: "secondary", disabled: p.offset <= 0, onclick: () => rerun({ offset: String(Math.max(0, p.offset - p.limit)) }) }, "Previous page")
  const next = h("button", { type: "button", class: "secondary", disabled: !r.truncated || p.next_offset === null, onclick: () => rerun({ offset: String(p.next_offset) }) }, "Next page")
  return h(
    "div",
    {},
    headline(null, null, `${r.count} certificate${r.count === 1 ? "" : "s"} for ${r.domain}`, h("div", { class: "score" }, `entries ${p.offset + 1}–${p.offset + r.count}${r.truncated ? " (more available)" : ""} · source ${r.source}`)),
    r.note ? h("p", { class: "muted" }, r.note) : null,
    table(
      ["ID", "Issuer", "Logged", "Names", "Valid until"],
      (r.certificates ?? []).map((c: any) => [String(c.id), c.issuer, fmt.date(c.timestamp), (c.names ?? []).length > 0 ? c.names.join(", ") : (c.common_name ?? "–"), fmt.date(c.not_after)]),
      "Certificates"
    ),
    h("div", { class: "actions pager" }, prev, next)
  )
}

/** What each check of the email report found, in one line. */
const emailSummary = (r: any, check: string): string => {
  const or = (v: unknown, none = "none") => (v === null || v === undefined || v === "" ? none : String(v))
  switch (check) {
    case "mx": return r.mx.null_mx ? "null MX (accepts no mail)" : (r.mx.records ?? []).map((m: any) => `${m.preference} ${m.host}`).join(", ") || "no MX"
    case "spf": return r.spf.record === null ? "no record" : `${r.spf.record} (${r.spf.lookups} lookups, ${r.spf.void_lookups} void)`
    case "dmarc": return r.dmarc.record === null ? "no record" : `p=${or(r.dmarc.policy)}${r.dmarc.inherited_from ? ` (from ${r.dmarc.inherited_from})` : ""}`
    case "dkim": return (r.dkim.selectors_found ?? []).map((k: any) => `${k.selector}: ${k.revoked ? "revoked" : `${k.key_type} ${or(k.key_bits, "?")}`}${k.testing ? " (testing)" : ""}`).join(", ") || `none of ${r.dkim.selectors_checked.length} selectors`
    case "mta_sts": return r.mta_sts.record === null ? "no record" : r.mta_sts.policy ? `mode ${r.mta_sts.policy.mode}, ${r.mta_sts.valid ? "valid" : "invalid"}` : "policy unusable"
    case "tls_rpt": return r.tls_rpt.record === null ? "no record" : (r.tls_rpt.rua ?? []).join(", ") || "no rua"
    case "bimi": return r.bimi.record === null ? "no record" : or(r.bimi.location, "declined")
    case "dane": return (r.dane.mx ?? []).map((m: any) => `${m.host}: ${m.tlsa.length === 0 ? "no TLSA" : m.valid ? "valid" : m.dnssec_secure ? "unusable" : "not DNSSEC-secure"}`).join(", ") || "no MX"
    case "starttls": return r.starttls === null ? "not tested" : r.starttls.map((s: any) => `${s.host} (${s.ip}): ${s.supported ? `${or(s.tls_version, "?")}${s.certificate_valid === false ? ", bad certificate" : ""}` : or(s.error, "no")}`).join("; ")
    default: return ""
  }
}

export const emailReport = (r: any) =>
  h(
    "div",
    {},
    headline(r.grade, r.score, `Email security of ${r.domain}`),
    table(
      ["Check", "Passed", "What was found", "Worst severity", "Findings"],
      (r.checks ?? []).map((c: any) => [c.check, c.check === "starttls" && r.starttls === null ? "not tested" : yesNo(c.passed), emailSummary(r, c.check), c.severity_max ?? "–", String(c.finding_count)]),
      "Checks"
    ),
    list("Findings", (r.findings ?? []).map(findingText), "findings"),
    list("Recommendations", r.recommendations ?? []),
    list("Limitations", r.limitations ?? [])
  )
