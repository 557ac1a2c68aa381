/**
 * `audit` (docs/operations/monitors.md, "Kinds"): each run is the report of GET /v1/domain/audit
 * for the target domain (every section, no STARTTLS), within AUDIT_DEADLINE_MS. The run is not
 * ok when the audit's grade is below `grade_below`, or when a check named in `check_failed`
 * failed; the summary names each such check, newly failed ones (not failed in the previous run)
 * first. A check that could not be decided (`passed: null`) is not a failure.
 */
import { Effect, Schema } from "effect"
import { CHECK_IDS } from "../../../analyses/audit/checks"
import { DomainAudit } from "../../../analyses/audit/DomainAudit"
import type { DomainAuditReport } from "../../../analyses/audit/schema"
import type { Baseline, Verdict } from "../model/analyze"
import { defineKind } from "../model/kindSpec"
import { domainTarget, httpsUrlOf } from "../model/target"
import { Grade } from "./classic"

export const AuditConditions = Schema.Struct({
  grade_below: Schema.optional(Grade),
  /** Any of these checks failing makes the run not ok. */
  check_failed: Schema.optional(Schema.Array(Schema.Literal(...CHECK_IDS)).pipe(Schema.maxItems(CHECK_IDS.length)))
})
export type AuditConditions = typeof AuditConditions.Type

const GRADES = ["F", "D", "C", "B", "A"] as const

/** The failed checks of a report, by id. */
const failedIds = (r: DomainAuditReport): ReadonlyArray<string> =>
  (["web", "mail", "dns", "exposure"] as const).flatMap((s) => r.sections[s].checks.filter((c) => c.passed === false).map((c) => c.id))

/** Pure: the verdict on an audit report. */
export const evaluateAudit = (c: AuditConditions, r: DomainAuditReport, previous: Baseline | null): Verdict => {
  const failed = failedIds(r)
  const before = new Set<string>(previous?.failed_checks ?? [])
  const held: Array<string> = []
  if (c.grade_below !== undefined && r.grade !== null && GRADES.indexOf(r.grade) < GRADES.indexOf(c.grade_below)) {
    held.push(`grade ${r.grade} below ${c.grade_below}`)
  }
  const watched = failed.filter((id) => (c.check_failed ?? []).includes(id as (typeof CHECK_IDS)[number]))
  const fresh = watched.filter((id) => !before.has(id))
  const known = watched.filter((id) => before.has(id))
  if (fresh.length > 0) held.push(`newly failed: ${fresh.join(", ")}`)
  if (known.length > 0) held.push(`still failing: ${known.join(", ")}`)
  const state = r.grade === null ? "no section complete" : `grade ${r.grade} (score ${r.score})`
  return {
    ok: held.length === 0,
    summary: held.length > 0 ? `${held.join("; ")}; ${state}` : `${state}; ${failed.length} check${failed.length === 1 ? "" : "s"} failed`,
    // The underlying reports stay with the REST answer: a result keeps the card (sections, findings, limitations).
    report: {
      domain: r.domain,
      checked_at: r.checked_at,
      score: r.score,
      grade: r.grade,
      sections: r.sections,
      findings: r.findings,
      limitations: r.limitations,
      newly_failed: failed.filter((id) => !before.has(id))
    },
    baseline: { ...previous, failed_checks: failed }
  }
}

export const auditKind = defineKind<AuditConditions>({
  conditions: AuditConditions,
  defaults: { grade_below: "C", check_failed: [] },
  minIntervalFactor: 10,
  target: domainTarget,
  // DNS lookups, and the web host over HTTP(S) and TLS, each guarded by the services themselves.
  guard: (t) => ({ url: httpsUrlOf(t), connects: false }),
  deadlineMs: (config) => config.auditDeadlineMs,
  run: (target, _conditions, orgId) => Effect.flatMap(DomainAudit, (a) => a.audit({ domain: target, sections: [], starttls: false, orgId })),
  evaluate: (c, report, previous) => evaluateAudit(c, report, previous)
})
