/**
 * The domain audit report: the one contract of `GET /v1/domain/audit`, the MCP tool
 * `domain_audit` and the monitor kind `audit` (docs/operations/domain-audit.md). Types are
 * `typeof X.Type` of these schemas. `reports` embeds the underlying reports through their own
 * schemas (the takeover report through takeoverRef.ts).
 */
import { Schema } from "effect"
import { BlocklistReport } from "../blocklist/schema"
import { EmailSecurityReport } from "../mail/schema"
import { SecurityHeadersReport } from "../observatory/schema"
import { TlsReport } from "../tls/schema"
import { ZoneHygieneReport } from "../zone/schema"
import { CHECK_IDS, FAILURE_SEVERITIES, SECTIONS } from "./checks"
import { TakeoverReportRef } from "./takeoverRef"

const N = Schema.NullOr

export const AuditSectionName = Schema.Literal(...SECTIONS)
export const AuditCheckId = Schema.Literal(...CHECK_IDS)
export const AuditSeverity = Schema.Literal(...FAILURE_SEVERITIES)
export const AuditGrade = Schema.Literal("A", "B", "C", "D", "F")

export const AuditCheck = Schema.Struct({
  id: AuditCheckId,
  passed: N(Schema.Boolean).annotations({ description: "null when it could not be decided (an input could not be fetched) or does not apply" }),
  severity: AuditSeverity.annotations({ description: "what a failure of this check weighs: critical 30, high 18, medium 8, low 3 points" }),
  summary: Schema.String
}).annotations({ identifier: "AuditCheck" })

export const AuditSection = Schema.Struct({
  status: Schema.Literal("complete", "incomplete", "skipped").annotations({
    description: "incomplete: an input could not be fetched (its checks are passed: null, the reason is in limitations); skipped: not asked"
  }),
  score: N(Schema.Number).annotations({ description: "100 minus the severities of the failed checks, floor 0; null when skipped" }),
  grade: N(AuditGrade),
  checks: Schema.Array(AuditCheck)
}).annotations({ identifier: "AuditSection" })

export const AuditFinding = Schema.Struct({
  section: AuditSectionName,
  check: AuditCheckId,
  severity: AuditSeverity,
  message: Schema.String,
  recommendation: Schema.String
}).annotations({ identifier: "AuditFinding" })

const PerSection = <S extends Schema.Schema.Any>(s: S) => Schema.Struct({ web: s, mail: s, dns: s, exposure: s })

export const DomainAuditReport = Schema.Struct({
  domain: Schema.String,
  checked_at: Schema.String,
  timings_ms: Schema.Struct({
    total: Schema.Number,
    web: N(Schema.Number),
    mail: N(Schema.Number),
    dns: N(Schema.Number),
    exposure: N(Schema.Number)
  }).annotations({ description: "wall time of the audit and of each section (null when skipped); the sections run at once" }),
  score: N(Schema.Number).annotations({ description: "the rounded mean of the complete sections' scores; null when none is complete" }),
  grade: N(AuditGrade),
  sections: PerSection(AuditSection),
  reports: Schema.Struct({
    security_headers: N(SecurityHeadersReport),
    tls: N(TlsReport),
    email: N(EmailSecurityReport),
    zone_hygiene: N(ZoneHygieneReport),
    takeover: N(TakeoverReportRef),
    blocklist: N(BlocklistReport)
  }).annotations({ description: "the underlying reports as this audit made them; null when not made" }),
  findings: Schema.Array(AuditFinding).annotations({ description: "one per failed check, most severe first" }),
  recommendations: Schema.Array(Schema.String),
  limitations: Schema.Array(Schema.String)
}).annotations({ identifier: "DomainAuditReport" })

export type AuditCheck = typeof AuditCheck.Type
export type AuditSection = typeof AuditSection.Type
export type AuditFinding = typeof AuditFinding.Type
export type AuditGrade = typeof AuditGrade.Type
export type DomainAuditReport = typeof DomainAuditReport.Type
