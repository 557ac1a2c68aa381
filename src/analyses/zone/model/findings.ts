/**
 * Findings, checks and the rubric of docs/operations/zone-hygiene.md ("Score and grade"): 100
 * minus critical 30, high 18, medium 8, low 3 per finding (info 0), floored at 0; grade A >= 90,
 * B >= 80, C >= 70, D >= 60, else F.
 */
import type { Incomplete } from "./observations"

export type Severity = "critical" | "high" | "medium" | "low" | "info"

export const CHECK_NAMES = [
  "nameserver_redundancy",
  "soa_drift",
  "soa_fields",
  "wildcard",
  "sensitive_subdomains",
  "open_resolver",
  "dnssec",
  "caa",
  "zone_transfer"
] as const
export type CheckName = (typeof CHECK_NAMES)[number]

export const DEDUCTION: Record<Severity, number> = { critical: 30, high: 18, medium: 8, low: 3, info: 0 }
export const RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 }

export const gradeOf = (score: number): "A" | "B" | "C" | "D" | "F" =>
  score >= 90 ? "A" : score >= 80 ? "B" : score >= 70 ? "C" : score >= 60 ? "D" : "F"

export const scoreOf = (findings: ReadonlyArray<{ readonly severity: Severity }>): number =>
  Math.max(0, 100 - findings.reduce((s, f) => s + DEDUCTION[f.severity], 0))

export interface Finding {
  readonly check: CheckName
  readonly severity: Severity
  readonly message: string
  readonly recommendation: string | null
}

/** What one check judged: its findings and limitations (in the order found) and its part of the report. */
export interface CheckOutcome<D> {
  readonly findings: ReadonlyArray<Finding>
  readonly limitations: ReadonlyArray<string>
  readonly incomplete: boolean
  readonly detail: D
}

/** Collects one check's findings and limitations; `done` seals them with the check's report part. */
export const collector = (check: CheckName) => {
  const findings: Array<Finding> = []
  const limitations: Array<string> = []
  let incomplete = false
  return {
    add: (severity: Severity, message: string, recommendation: string | null) => {
      findings.push({ check, severity, message, recommendation })
    },
    limit: (text: string) => {
      limitations.push(text)
    },
    /** The check could not finish: a limitation and an info finding, and the check is "incomplete". */
    cannot: (why: Incomplete) => {
      incomplete = true
      limitations.push(`${check}: check could not complete (${why.incomplete})`)
      findings.push({ check, severity: "info", message: `The ${check} check could not complete: ${why.incomplete}`, recommendation: null })
    },
    done: <D>(detail: D): CheckOutcome<D> => ({ findings, limitations, incomplete, detail })
  }
}
