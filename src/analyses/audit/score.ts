/**
 * The domain audit's scores (pure): a section's status, score and grade from its check results,
 * the overall score and grade, and the findings, recommendations and limitations of every
 * section. A section scores as Zone Hygiene does (its rubric and grade function, not restated):
 * 100 minus critical 30, high 18, medium 8, low 3 for each failed check, floor 0. The overall
 * score is the rounded mean of the complete sections' scores, null when none is complete
 * (docs/operations/domain-audit.md, "Score and grade").
 */
import { DEDUCTION, gradeOf, RANK } from "../zone/model/findings"
import { CHECKS, type CheckId, type Section, SECTIONS } from "./checks"
import type { CheckResult } from "./judge"
import type { AuditFinding, AuditSection, DomainAuditReport } from "./schema"

export type SectionStatus = AuditSection["status"]
export type SectionSummary = AuditSection

/** The scored part of the report; the operation adds domain, checked_at, timings_ms and reports. */
export type AuditSummary = Pick<DomainAuditReport, "score" | "grade" | "sections" | "findings" | "recommendations" | "limitations">

export const SKIPPED: SectionSummary = { status: "skipped", score: null, grade: null, checks: [] }

export const sectionScore = (checks: ReadonlyArray<CheckResult>): number =>
  Math.max(0, 100 - checks.reduce((s, c) => s + (c.passed === false ? DEDUCTION[c.severity] : 0), 0))

/** A section from its check results; null (not asked) is skipped. */
export const summarizeSection = (checks: ReadonlyArray<CheckResult> | null): SectionSummary => {
  if (checks === null) return SKIPPED
  const score = sectionScore(checks)
  return {
    status: checks.some((c) => c.missing !== null) ? "incomplete" : "complete",
    score,
    grade: gradeOf(score),
    checks: checks.map(({ id, passed, severity, summary }) => ({ id, passed, severity, summary }))
  }
}

/** The limitations of a section: one per distinct missing input, naming the checks it left undecided. */
const limitationsOf = (section: Section, checks: ReadonlyArray<CheckResult>): ReadonlyArray<string> => {
  const byWhy = new Map<string, Array<CheckId>>()
  for (const c of checks) if (c.missing !== null) byWhy.set(c.missing, [...(byWhy.get(c.missing) ?? []), c.id])
  return [...byWhy].map(([why, ids]) => `${section}: ${why} (not decided: ${ids.join(", ")})`)
}

/**
 * The audit's scores and lists from each asked section's results (a section absent or null was
 * not asked). `extraLimitations` are the operation's own (a section cut by the deadline, …).
 */
export const summarizeAudit = (
  results: Partial<Record<Section, ReadonlyArray<CheckResult> | null>>,
  extraLimitations: ReadonlyArray<string> = []
): AuditSummary => {
  const sections = Object.fromEntries(SECTIONS.map((s) => [s, summarizeSection(results[s] ?? null)])) as Record<Section, SectionSummary>
  const complete = SECTIONS.filter((s) => sections[s].status === "complete").map((s) => sections[s].score!)
  const score = complete.length === 0 ? null : Math.round(complete.reduce((a, b) => a + b, 0) / complete.length)
  const findings = SECTIONS.flatMap((s) =>
    (results[s] ?? []).filter((c) => c.passed === false).map((c): AuditFinding => ({
      section: s,
      check: c.id,
      severity: c.severity,
      message: c.summary,
      recommendation: CHECKS[c.id].recommendation
    })))
    .sort((a, b) => RANK[b.severity] - RANK[a.severity])
  return {
    score,
    grade: score === null ? null : gradeOf(score),
    sections,
    findings,
    recommendations: [...new Set(findings.map((f) => f.recommendation))],
    limitations: [...SECTIONS.flatMap((s) => limitationsOf(s, results[s] ?? [])), ...extraLimitations]
  }
}
