/**
 * The Email Security report (docs/operations/email-security.md, "Report"): the one contract of
 * `GET /v1/security/email` and the MCP tool `email_security`. Every type of the analysis is
 * `typeof X.Type` of these schemas.
 */
import { Schema } from "effect"
import { SpfReport } from "./spf/schema"

const N = Schema.NullOr
const Strings = Schema.Array(Schema.String)

export const Severity = Schema.Literal("critical", "high", "medium", "low", "info")
export type Severity = typeof Severity.Type

/** The letter grade of a score, as Zone Hygiene grades (zone/model/findings.ts `gradeOf`). */
export const Grade = Schema.Literal("A", "B", "C", "D", "F")

export const CHECKS = ["mx", "spf", "dmarc", "dkim", "mta_sts", "tls_rpt", "bimi", "dane", "starttls"] as const
export const CheckName = Schema.Literal(...CHECKS)
export type CheckName = typeof CheckName.Type

export const MxReport = Schema.Struct({
  records: Schema.Array(Schema.Struct({
    host: Schema.String,
    preference: Schema.Number,
    ips: Strings.annotations({ description: "A and AAAA addresses of the host" })
  })),
  null_mx: Schema.Boolean.annotations({ description: "RFC 7505 null MX (`MX 0 .`): the domain accepts no mail" })
}).annotations({ identifier: "EmailMx" })
export type MxReport = typeof MxReport.Type

export const DmarcPolicy = Schema.Literal("none", "quarantine", "reject")

export const DmarcReport = Schema.Struct({
  record: N(Schema.String),
  valid: Schema.Boolean,
  policy: N(DmarcPolicy).annotations({ description: "the policy that applies to the domain: p=, or sp= of the organizational domain's record when inherited (RFC 7489 §6.6.3)" }),
  subdomain_policy: N(DmarcPolicy).annotations({ description: "sp= of the record (null when absent: subdomains get p=)" }),
  pct: N(Schema.Number),
  rua: Strings,
  ruf: Strings,
  adkim: N(Schema.Literal("r", "s")),
  aspf: N(Schema.Literal("r", "s")),
  inherited_from: N(Schema.String).annotations({ description: "the organizational domain whose record applies, when the domain has none of its own" }),
  external_reporting: Schema.Array(Schema.Struct({
    uri: Schema.String,
    kind: Schema.Literal("rua", "ruf"),
    domain: Schema.String,
    authorized: Schema.Boolean.annotations({ description: "`<policy domain>._report._dmarc.<domain>` publishes v=DMARC1 (RFC 7489 §7.1)" })
  })),
  errors: Strings
}).annotations({ identifier: "EmailDmarc" })
export type DmarcReport = typeof DmarcReport.Type

export const DkimKey = Schema.Struct({
  selector: Schema.String,
  key_type: N(Schema.String).annotations({ description: "k= (rsa when absent), null when the key cannot be read" }),
  key_bits: N(Schema.Number),
  testing: Schema.Boolean.annotations({ description: "t=y" }),
  revoked: Schema.Boolean.annotations({ description: "empty p= (RFC 6376 §3.6.1)" })
})
export type DkimKey = typeof DkimKey.Type

export const DkimReport = Schema.Struct({
  selectors_checked: Strings,
  selectors_found: Schema.Array(DkimKey)
}).annotations({ identifier: "EmailDkim" })
export type DkimReport = typeof DkimReport.Type

export const MtaStsPolicy = Schema.Struct({
  mode: Schema.Literal("enforce", "testing", "none"),
  mx: Strings,
  max_age: Schema.Number
})
export type MtaStsPolicy = typeof MtaStsPolicy.Type

export const MtaStsReport = Schema.Struct({
  record: N(Schema.String),
  id: N(Schema.String),
  policy: N(MtaStsPolicy),
  valid: Schema.Boolean,
  errors: Strings
}).annotations({ identifier: "EmailMtaSts" })
export type MtaStsReport = typeof MtaStsReport.Type

export const TlsRptReport = Schema.Struct({
  record: N(Schema.String),
  rua: Strings,
  valid: Schema.Boolean,
  errors: Strings
}).annotations({ identifier: "EmailTlsRpt" })
export type TlsRptReport = typeof TlsRptReport.Type

export const BimiReport = Schema.Struct({
  record: N(Schema.String),
  location: N(Schema.String).annotations({ description: "l=: the HTTPS URL of the SVG logo" }),
  authority: N(Schema.String).annotations({ description: "a=: the HTTPS URL of the Verified Mark Certificate" }),
  valid: Schema.Boolean,
  errors: Strings
}).annotations({ identifier: "EmailBimi" })
export type BimiReport = typeof BimiReport.Type

export const TlsaRecord = Schema.Struct({ usage: Schema.Number, selector: Schema.Number, matching_type: Schema.Number })

export const DaneMx = Schema.Struct({
  host: Schema.String,
  tlsa: Schema.Array(TlsaRecord),
  dnssec_secure: Schema.Boolean.annotations({ description: "the TLSA answer was validated by the service's own DNSSEC validator" }),
  valid: Schema.Boolean.annotations({ description: "DNSSEC-secure and at least one usable DANE-TA(2)/DANE-EE(3) record (RFC 7672)" })
})
export type DaneMx = typeof DaneMx.Type

export const DaneReport = Schema.Struct({ mx: Schema.Array(DaneMx) }).annotations({ identifier: "EmailDane" })
export type DaneReport = typeof DaneReport.Type

export const StarttlsResult = Schema.Struct({
  host: Schema.String,
  ip: Schema.String,
  supported: Schema.Boolean,
  tls_version: N(Schema.String),
  certificate_valid: N(Schema.Boolean).annotations({ description: "chain trusted and valid for the MX host name; null when no handshake happened" }),
  error: N(Schema.String)
})
export type StarttlsResult = typeof StarttlsResult.Type

/**
 * A finding as every graded report gives it (email, TLS, takeover, lookalikes, as Zone Hygiene
 * does): the check it belongs to, its severity, what was seen and the fix, decided here once.
 */
export const findingOf = <C extends Schema.Schema.Any>(check: C) =>
  Schema.Struct({ check, severity: Severity, message: Schema.String, recommendation: N(Schema.String) })

export const EmailFinding = findingOf(CheckName)
export type EmailFinding = typeof EmailFinding.Type

export const EmailCheck = Schema.Struct({
  check: CheckName,
  passed: N(Schema.Boolean).annotations({
    description: "false when a finding of severity low or above exists for this check; null when the check did not run (starttls without starttls=true)"
  }),
  severity_max: N(Severity).annotations({ description: "the highest severity among this check's findings, info included; null when it has none (always for a check that did not run)" }),
  finding_count: Schema.Number.annotations({ description: "every finding of this check, info included; 0 for a check that did not run" })
})

export const EmailSecurityReport = Schema.Struct({
  domain: Schema.String,
  checked_at: Schema.String,
  mx: MxReport,
  spf: SpfReport,
  dmarc: DmarcReport,
  dkim: DkimReport,
  mta_sts: MtaStsReport,
  tls_rpt: TlsRptReport,
  bimi: BimiReport,
  dane: DaneReport,
  starttls: N(Schema.Array(StarttlsResult)).annotations({ description: "null unless starttls=true" }),
  checks: Schema.Array(EmailCheck),
  findings: Schema.Array(EmailFinding),
  score: Schema.Number,
  grade: Grade,
  recommendations: Strings,
  limitations: Strings
})
export type EmailSecurityReport = typeof EmailSecurityReport.Type
