/** Short readable summaries of the reports (the second text block for clients before 2025-06-18). */
import type { HttpCheckReport } from "../api/network"
import type { CertReport } from "../../adapters/x509/CertInspector"
import type { WhoisReport } from "../../adapters/rdap/rdapData"
import type { DnsReport } from "../../kernel/lookupReports"
import type { SecurityHeadersReport } from "../../analyses/observatory/schema"
import type { DomainAuditReport } from "../../analyses/audit/schema"

export const dnsText = (r: DnsReport): string => {
  const head = `DNS ${r.type} ${r.query_name}: ${r.rcode}${r.authenticated_data ? " (DNSSEC validated by the resolver)" : ""}, ${r.answers.length} answer(s) from ${r.resolver}`
  const lines = r.answers.map((a) => `  ${a.name} ${a.ttl} ${a.class} ${a.type} ${a.value}`)
  if (r.withheld) lines.push(`  ${r.withheld}`)
  if (r.answers.length === 0 && r.rcode === "NXDOMAIN") lines.push("  the name does not exist")
  else if (r.answers.length === 0) lines.push(`  no ${r.type} records at this name`)
  return [head, ...lines].join("\n")
}

export const whoisText = (w: WhoisReport): string =>
  [
    `Registration data (RDAP) for ${w.domain}`,
    `  Registrar: ${w.registrar?.name ?? "unknown"}${w.registrar?.iana_id ? ` (IANA ID ${w.registrar.iana_id})` : ""}`,
    `  Created: ${w.created ?? "unknown"}`,
    `  Expires: ${w.expires ?? "unknown"}${w.days_until_expiry !== null ? ` (${w.days_until_expiry} days)` : ""}`,
    `  Updated: ${w.updated ?? "unknown"}`,
    `  Status: ${w.status.length ? w.status.join(", ") : "none given"}`,
    `  Name servers: ${w.nameservers.length ? w.nameservers.join(", ") : "none given"}`,
    `  DNSSEC: ${w.dnssec.delegation_signed === null ? "unknown" : w.dnssec.delegation_signed ? `signed (${w.dnssec.ds_records.length} DS record(s))` : "unsigned"}`,
    `  Abuse contact: ${[w.abuse_contact?.email, w.abuse_contact?.phone].filter(Boolean).join(", ") || "none given"}`,
    ...(w.sources.registrar_error ? [`  Note: the registrar's RDAP server could not be read (${w.sources.registrar_error})`] : [])
  ].join("\n")

export const certText = (c: CertReport): string =>
  [
    `TLS certificate of ${c.domain}:${c.port}: ${c.valid ? "VALID" : "INVALID"}`,
    `  Chain: ${c.chain_valid ? "trusted" : `not trusted (${c.chain_error})`}`,
    `  Hostname: ${c.hostname_match ? "matches" : `does not match (${c.hostname_error})`}`,
    `  Validity: ${c.certificate.not_before} → ${c.certificate.not_after} (${c.expired ? "EXPIRED" : c.not_yet_valid ? "not yet valid" : `${c.days_left} days left`})`,
    `  Subject: ${c.certificate.subject}`,
    `  Issuer: ${c.certificate.issuer}`,
    `  SANs: ${c.certificate.sans.join(", ") || "none"}`,
    `  Key: ${c.certificate.key.type}${c.certificate.key.size ? ` ${c.certificate.key.size} bits` : ""}${c.certificate.key.curve ? ` (${c.certificate.key.curve})` : ""}; signature ${c.certificate.signature_algorithm}`,
    `  Connection: ${c.protocol ?? "?"}, ${c.cipher ?? "?"}`,
    `  Embedded SCTs: ${c.embedded_sct.count}${c.embedded_sct.chrome_compliant ? " (meets Chrome's CT policy)" : " (below Chrome's CT policy)"}`,
    `  CT history: ${c.ct_history.available ? `${c.ct_history.count} logged certificate(s)${c.ct_history.issuers.length ? ` from ${c.ct_history.issuers.join("; ")}` : ""}` : c.ct_history.note}`
  ].join("\n")

export const headersText = (h: SecurityHeadersReport): string =>
  [
    `HTTP security grade of ${h.final_url}: ${h.grade}, score ${h.score} (${h.tests_passed}/${h.tests_quantity} tests passed, as the MDN HTTP Observatory grades)`,
    ...Object.entries(h.tests).map(([name, t]) =>
      `  ${t.pass ? "PASS" : "FAIL"} ${name}: ${t.result}${t.score_modifier ? ` (${t.score_modifier > 0 ? "+" : ""}${t.score_modifier})` : ""}${!t.pass && t.recommendation ? ` — ${t.recommendation}` : ""}`
    ),
    `  security.txt: ${h.extras.security_txt.present ? (h.extras.security_txt.valid ? "valid" : `invalid (${h.extras.security_txt.errors.join("; ")})`) : "absent"}`
  ].join("\n")

export const httpCheckText = (r: HttpCheckReport): string =>
  [
    `${r.method} ${r.url} → ${r.status.code === null ? `no response (${r.error}${r.error_detail ? `: ${r.error_detail}` : ""})` : `HTTP ${r.status.code}${r.status.text ? ` ${r.status.text}` : ""}`}${r.final_url !== r.url ? ` at ${r.final_url}` : ""}`,
    `  total ${r.timings.total_ms} ms (dns ${r.timings.dns_ms}, connect ${r.timings.connect_ms ?? "-"}, tls ${r.timings.tls_ms ?? "-"}, ttfb ${r.timings.ttfb_ms ?? "-"})`,
    `  redirects: ${r.redirects.length}; TLS verified: ${r.ssl.verified === null ? "n/a" : r.ssl.verified}; HSTS in effect: ${r.security_summary.hsts_enabled}`
  ].join("\n")

/** The grade, each section's state, and the failed checks by name. */
export const auditText = (r: DomainAuditReport): string =>
  [
    `Domain audit of ${r.domain}: ${r.grade === null ? "no section complete" : `grade ${r.grade} (score ${r.score})`}`,
    ...(["web", "mail", "dns", "exposure"] as const).map((name) => {
      const s = r.sections[name]
      if (s.status === "skipped") return `  ${name}: skipped`
      const failed = s.checks.filter((c) => c.passed === false).map((c) => c.id)
      return `  ${name}: ${s.status}, grade ${s.grade} (score ${s.score})${failed.length > 0 ? `; failed: ${failed.join(", ")}` : ""}`
    }),
    ...r.limitations.map((l) => `  limitation: ${l}`)
  ].join("\n")
