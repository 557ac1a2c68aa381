/**
 * `email_security` and `tls` (docs/operations/monitors.md, "Kinds"): each run is the report of the
 * operation of the same name (GET /v1/security/email, GET /v1/security/tls), judged by the
 * monitor's conditions.
 */
import { Effect, Schema } from "effect"
import { EmailSecurity } from "../../../analyses/mail/EmailSecurity"
import type { EmailSecurityReport } from "../../../analyses/mail/schema"
import { TlsGrade, type TlsReport } from "../../../analyses/tls/schema"
import { TlsScan } from "../../../analyses/tls/TlsScan"
import { InvalidRequest } from "../../../kernel/errors"
import type { Baseline, Verdict } from "../model/analyze"
import { defineKind } from "../model/kindSpec"
import { certTarget, domainTarget, hostPortTarget, httpsUrlOf } from "../model/target"
import { Grade } from "./classic"

const EmailGrades = ["F", "D", "C", "B", "A"] as const

export const EmailConditions = Schema.Struct({
  grade_below: Schema.optional(Grade),
  /** The SPF record, the DMARC record or the MTA-STS id differs from the previous run's. */
  record_changed: Schema.optional(Schema.Boolean)
})
export type EmailConditions = typeof EmailConditions.Type

/** The records `record_changed` watches, as the baseline keeps them. */
const watched = (r: EmailSecurityReport) => ({ spf: r.spf.record, dmarc: r.dmarc.record, mta_sts_id: r.mta_sts.id })

/** Pure: the verdict on an email security report. */
export const evaluateEmail = (c: EmailConditions, r: EmailSecurityReport, previous: Baseline | null): Verdict => {
  const held: Array<string> = []
  if (c.grade_below !== undefined && EmailGrades.indexOf(r.grade) < EmailGrades.indexOf(c.grade_below)) {
    held.push(`grade ${r.grade} below ${c.grade_below}`)
  }
  const now = watched(r)
  const before = previous?.records
  if (c.record_changed === true && before !== undefined) {
    const changed = (Object.keys(now) as Array<keyof typeof now>).filter((k) => now[k] !== before[k])
    if (changed.length > 0) held.push(`changed since the last run: ${changed.map((k) => `${k} ${JSON.stringify(before[k])} -> ${JSON.stringify(now[k])}`).join("; ")}`)
  }
  return {
    ok: held.length === 0,
    summary: held.length > 0 ? held.join("; ") : `grade ${r.grade} (score ${r.score})`,
    report: r,
    baseline: { ...previous, records: now }
  }
}

export const emailSecurityKind = defineKind<EmailConditions>({
  conditions: EmailConditions,
  defaults: { grade_below: "C", record_changed: true },
  minIntervalFactor: 10,
  target: domainTarget,
  // DNS lookups, the MTA-STS policy over HTTPS (guarded per fetch by the analysis itself).
  guard: (t) => ({ url: httpsUrlOf(t), connects: false }),
  run: (target) => Effect.flatMap(EmailSecurity, (e) => e.check({ domain: target, dkimSelectors: [], starttls: false })),
  evaluate: (c, report, previous) => evaluateEmail(c, report, previous)
})

/** SSL Labs' letters, worst first; T (untrusted) and M (name mismatch) rank with F. */
const tlsRank = (g: TlsGrade): number => (g === "T" || g === "M" ? 0 : ["F", "E", "D", "C", "B", "A-", "A", "A+"].indexOf(g))
const TlsProtocol = Schema.Literal("ssl3", "tls1_0", "tls1_1", "tls1_2", "tls1_3")

export const TlsConditions = Schema.Struct({
  grade_below: Schema.optional(TlsGrade),
  /** Any of these protocols accepted by the server makes the run not ok. */
  protocol_enabled: Schema.optional(Schema.Array(TlsProtocol).pipe(Schema.minItems(1), Schema.maxItems(5)))
})
export type TlsConditions = typeof TlsConditions.Type

/** Pure: the verdict on a TLS report. */
export const evaluateTls = (c: TlsConditions, r: TlsReport, previous: Baseline | null): Verdict => {
  const held: Array<string> = []
  if (c.grade_below !== undefined && tlsRank(r.grade) < tlsRank(c.grade_below)) held.push(`grade ${r.grade} below ${c.grade_below}`)
  const on = (c.protocol_enabled ?? []).filter((p) => r.protocols[p])
  if (on.length > 0) held.push(`enabled: ${on.join(", ")}`)
  return {
    ok: held.length === 0,
    summary: held.length > 0 ? held.join("; ") : `grade ${r.grade} (score ${r.score})`,
    report: r,
    baseline: previous
  }
}

export const tlsKind = defineKind<TlsConditions>({
  conditions: TlsConditions,
  defaults: { grade_below: "B", protocol_enabled: ["ssl3", "tls1_0", "tls1_1"] },
  minIntervalFactor: 10,
  target: hostPortTarget,
  guard: (t) => ({ url: httpsUrlOf(t), connects: true }),
  run: (target) =>
    Effect.gen(function*() {
      const t = certTarget(target)
      if (t instanceof InvalidRequest) return yield* t
      return yield* Effect.flatMap(TlsScan, (s) => s.scan(t.host, t.port))
    }),
  evaluate: (c, report, previous) => evaluateTls(c, report, previous)
})
