/**
 * Zone hygiene, pure: what the probes observed in, the report of docs/operations/zone-hygiene.md
 * out (findings with severities, checks, composite, score, grade, recommendations, limitations).
 * No Effect, no I/O. Each of the nine checks judges its part in its own module (checks/); this
 * module runs them in the order of that page ("The checks") and scores the result (findings.ts
 * holds the rubric).
 */
import { caa } from "./checks/caa"
import { dnssec } from "./checks/dnssec"
import { nameserverRedundancy } from "./checks/nameserverRedundancy"
import { openResolver } from "./checks/openResolver"
import { sensitiveSubdomains } from "./checks/sensitiveSubdomains"
import { soaDrift } from "./checks/soaDrift"
import { soaFields } from "./checks/soaFields"
import { wildcard } from "./checks/wildcard"
import { zoneTransfer } from "./checks/zoneTransfer"
import { CHECK_NAMES, type CheckName, type CheckOutcome, gradeOf, RANK, scoreOf, type Severity } from "./model/findings"
import { isIncomplete, type ZoneObservations } from "./model/observations"

export { CA_IDENTIFIERS, unauthorizedIssuers } from "./checks/caa"
export { SOA_BOUNDS, type SoaFieldValidation, validateSoaFields } from "./checks/soaFields"
export { CHECK_NAMES, type CheckName, DEDUCTION, type Finding, gradeOf, scoreOf, type Severity } from "./model/findings"
export * from "./model/observations"
export { SENSITIVE_NAMES } from "./model/sensitiveNames"

export const analyze = (o: ZoneObservations) => {
  const ns = nameserverRedundancy(o)
  const drift = soaDrift(o)
  const fields = soaFields(o)
  const wild = wildcard(o)
  const sensitive = sensitiveSubdomains(o)
  const open = openResolver(o)
  const sec = dnssec(o)
  const ca = caa(o)
  const axfr = zoneTransfer(o)
  const outcomes: ReadonlyArray<readonly [CheckName, CheckOutcome<unknown>]> = [
    ["nameserver_redundancy", ns],
    ["soa_drift", drift],
    ["soa_fields", fields],
    ["wildcard", wild],
    ["sensitive_subdomains", sensitive],
    ["open_resolver", open],
    ["dnssec", sec],
    ["caa", ca],
    ["zone_transfer", axfr]
  ]
  const findings = outcomes.flatMap(([, r]) => r.findings)
  const limitations = outcomes.flatMap(([, r]) => r.limitations)
  if (!isIncomplete(o.soa) && !isIncomplete(o.axfr) && o.nameservers.every((n) => n.skipped !== null)) {
    limitations.push("No nameserver could be queried directly; per-nameserver checks are empty")
  }
  const incomplete = new Set(outcomes.filter(([, r]) => r.incomplete).map(([check]) => check))

  const checks = CHECK_NAMES.map((check) => {
    const fs = findings.filter((f) => f.check === check && f.severity !== "info")
    const max = fs.reduce<Severity | null>((m, f) => (m === null || RANK[f.severity] > RANK[m] ? f.severity : m), null)
    return {
      check,
      passed: fs.length === 0 && !incomplete.has(check),
      severity_max: max,
      finding_count: fs.length,
      status: incomplete.has(check) ? "incomplete" : "completed"
    }
  })
  const score = scoreOf(findings)
  const ordered = [...findings].sort((a, b) => RANK[b.severity] - RANK[a.severity])
  const recommendations = [...new Set(ordered.flatMap((f) => (f.recommendation ? [f.recommendation] : [])))]
  return {
    domain: o.domain,
    nameservers: ns.detail.nameservers,
    nameserver_addresses: ns.detail.nameserver_addresses,
    soa_consistency: drift.detail.soa_consistency,
    soa_field_validation: fields.detail.soa_field_validation,
    soa_drift_detected: drift.detail.soa_drift_detected,
    wildcard_detected: wild.detail.wildcard_detected,
    wildcard_ips: wild.detail.wildcard_ips,
    exposed_subdomains: sensitive.detail.exposed_subdomains,
    exposed_count: sensitive.detail.exposed_count,
    open_resolver_check: open.detail.open_resolver_check,
    open_resolvers_detected: open.detail.open_resolvers_detected,
    zone_transfer: axfr.detail.zone_transfer,
    caa: ca.detail.caa,
    dnssec: sec.detail.dnssec,
    checks,
    composite: {
      dnssec_status: sec.detail.dnssec_status,
      dnssec_reason: sec.detail.dnssec?.reason ?? null,
      has_caa: ca.detail.has_caa,
      caa_unauthorized_ct_issuers: ca.detail.caa_unauthorized_ct_issuers,
      zone_transfer_vulnerable: axfr.detail.zone_transfer_vulnerable,
      nsec3_compliant: sec.detail.nsec3_compliant
    },
    hygiene_score: score,
    hygiene_grade: gradeOf(score),
    findings: ordered,
    recommendations,
    limitations
  }
}

export type ZoneHygieneReport = ReturnType<typeof analyze>
