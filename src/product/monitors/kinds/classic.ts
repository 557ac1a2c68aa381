/**
 * The first five kinds (docs/operations/monitors.md, "Kinds"): each calls the very service of its REST
 * operation; their verdicts are in src/product/monitors/model/analyze.ts (`evaluate`).
 */
import { Effect, Schema } from "effect"
import { CtAggregator } from "../../../adapters/ct/CtAggregator"
import { ZoneHygiene } from "../../../analyses/zone/ZoneHygiene"
import { CertInspector } from "../../../adapters/x509/CertInspector"
import { type Conditions, evaluate } from "../model/analyze"
import {
  certTarget,
  domainTarget,
  hostPortTarget,
  httpsUrlOf,
  urlOrDomainTarget,
  urlTarget
} from "../model/target"
import { httpCheck } from "../../../analyses/network/HttpCheck"
import { WafDetection } from "../../../analyses/waf/WafDetection"
import { defineKind } from "../model/kindSpec"

/** The http_check timeout a monitor uses; its run deadline is this plus 2 s, as for the operation. */
export const HTTP_TIMEOUT_MS = 10_000

const Flag = Schema.Boolean
export const Grade = Schema.Literal("A", "B", "C", "D", "F")
const Severity = Schema.Literal("critical", "high", "medium", "low", "info")
export const DaysLeft = Schema.Number.pipe(Schema.int(), Schema.between(0, 3650))

export const httpCheckKind = defineKind<Conditions>({
  conditions: Schema.Struct({
    status_not_ok: Schema.optional(Flag),
    total_ms_gt: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 600_000))),
    error: Schema.optional(Flag)
  }),
  defaults: { status_not_ok: true, error: true },
  minIntervalFactor: 1,
  target: urlTarget,
  guard: (t) => ({ url: t, connects: true }),
  deadlineMs: HTTP_TIMEOUT_MS + 2_000,
  run: (target) => httpCheck({ url: target, method: "GET", follow_redirects: true, max_redirects: 5, timeout: HTTP_TIMEOUT_MS }),
  evaluate: (c, report, previous, now) => evaluate("http_check", c, report, previous, now)
})

export const certificateKind = defineKind<Conditions>({
  conditions: Schema.Struct({ days_left_lt: Schema.optional(DaysLeft), invalid: Schema.optional(Flag) }),
  defaults: { days_left_lt: 14, invalid: true },
  minIntervalFactor: 10,
  target: hostPortTarget,
  guard: (t) => ({ url: httpsUrlOf(t), connects: true }),
  run: (target) => {
    const t = certTarget(target)
    if (!("host" in t)) return Effect.fail(t)
    return Effect.flatMap(CertInspector, (c) => c.inspect(t.host, t.port))
  },
  evaluate: (c, report, previous, now) => evaluate("certificate", c, report, previous, now)
})

export const ctKind = defineKind<Conditions>({
  conditions: Schema.Struct({
    new_certificate: Schema.optional(Flag),
    issuer_not_in: Schema.optional(Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).pipe(
      Schema.minItems(1),
      Schema.maxItems(50)
    ))
  }),
  defaults: { new_certificate: true },
  minIntervalFactor: 10,
  target: domainTarget,
  // The CT aggregator is asked, never the domain: only the name is judged.
  guard: (t) => ({ url: httpsUrlOf(t), connects: false }),
  run: (target) => Effect.flatMap(CtAggregator, (ct) => ct.lookup(target)),
  evaluate: (c, report, previous, now) => evaluate("ct_new_certificate", c, report, previous, now)
})

export const zoneKind = defineKind<Conditions>({
  conditions: Schema.Struct({ grade_below: Schema.optional(Grade), new_finding_severity_at_least: Schema.optional(Severity) }),
  defaults: { grade_below: "C" },
  minIntervalFactor: 10,
  target: domainTarget,
  // The zone's nameservers are judged by ZoneHygiene itself.
  guard: (t) => ({ url: httpsUrlOf(t), connects: false }),
  run: (target, _c, orgId) => Effect.flatMap(ZoneHygiene, (z) => z.audit(target, orgId)),
  evaluate: (c, report, previous, now) => evaluate("zone_hygiene", c, report, previous, now)
})

export const wafKind = defineKind<Conditions>({
  conditions: Schema.Struct({ provider_changed: Schema.optional(Flag), provider_absent: Schema.optional(Flag) }),
  defaults: { provider_changed: true },
  minIntervalFactor: 1,
  target: urlOrDomainTarget,
  guard: (t) => ({ url: httpsUrlOf(t), connects: true }),
  run: (target) => Effect.flatMap(WafDetection, (w) => w.detect({ domain: target, activeProbe: false, auditToken: undefined })),
  evaluate: (c, report, previous, now) => evaluate("waf", c, report, previous, now)
})
