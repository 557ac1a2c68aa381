/**
 * Checks, score and grade of the email report, scored exactly as Zone Hygiene (its `scoreOf` and
 * `gradeOf`: 100 minus critical 30, high 18, medium 8, low 3; A >= 90 … F).
 */
import { gradeOf, scoreOf } from "../zone/analyze"
import { CHECKS, type CheckName, type EmailFinding, type Severity } from "./schema"

const RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 }

/**
 * One tally per check: every finding of it counts, `info` included, and the highest severity among
 * them is `severity_max`; only a finding of `low` or above fails the check. A check that did not
 * run (`notRun`: STARTTLS when not asked for) has no verdict: `passed` null.
 */
export const summarize = (findings: ReadonlyArray<EmailFinding>, notRun: ReadonlySet<CheckName>) => {
  const checks = CHECKS.map((check) => {
    const fs = findings.filter((x) => x.check === check)
    const max = fs.reduce<Severity | null>((m, x) => (m === null || RANK[x.severity] > RANK[m] ? x.severity : m), null)
    const passed = notRun.has(check) ? null : !fs.some((x) => RANK[x.severity] >= RANK.low)
    return { check, passed, severity_max: max, finding_count: fs.length }
  })
  const ordered = [...findings].sort((a, b) => RANK[b.severity] - RANK[a.severity])
  const score = scoreOf(findings)
  return {
    checks,
    findings: ordered,
    score,
    grade: gradeOf(score),
    recommendations: [...new Set(ordered.flatMap((x) => (x.recommendation ? [x.recommendation] : [])))]
  }
}
