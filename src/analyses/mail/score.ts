/**
 * Checks, score and grade of the email report, scored exactly as Zone Hygiene (its `scoreOf` and
 * `gradeOf`: 100 minus critical 30, high 18, medium 8, low 3; A >= 90 … F).
 */
import { gradeOf, scoreOf } from "../zone/analyze"
import { CHECKS, type CheckName, type EmailFinding, type Severity } from "./schema"

const RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 }

export const summarize = (findings: ReadonlyArray<EmailFinding>, incomplete: ReadonlySet<CheckName>) => {
  const checks = CHECKS.map((check) => {
    const fs = findings.filter((x) => x.check === check && x.severity !== "info")
    const max = fs.reduce<Severity | null>((m, x) => (m === null || RANK[x.severity] > RANK[m] ? x.severity : m), null)
    return { check, passed: fs.length === 0 && !incomplete.has(check), severity_max: max, finding_count: fs.length }
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
