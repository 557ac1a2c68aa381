/**
 * PLACEHOLDER until the subdomain takeover analysis lands: the part of its report the audit
 * reads (the candidates' confidence, docs/operations/domain-audit.md "Exposure"). This is the one
 * place that names it: replace `TakeoverReportRef` with the takeover operation's report schema
 * (re-export it from there), and the audit's `reports.takeover` carries the whole report while
 * `judgeExposure` keeps compiling (the real report has `candidates[].confidence`).
 */
import { Schema } from "effect"

export const TakeoverConfidence = Schema.Literal("confirmed", "potential", "unlikely")

export const TakeoverReportRef = Schema.Struct({
  candidates: Schema.Array(Schema.Struct({ confidence: TakeoverConfidence }))
}).annotations({ identifier: "AuditTakeoverReport" })

/** What the audit needs of a takeover report. */
export type TakeoverInput = typeof TakeoverReportRef.Type
