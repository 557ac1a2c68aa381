/**
 * `dnssec` (docs/operations/monitors.md, "Kinds"): the zone's chain of trust by the service's own
 * validator (src/dnssec), and the earliest expiration of the signatures over the apex SOA,
 * DNSKEY and NS RRsets (each verified against the zone's keys, RFC 4035 §5.3), the signatures
 * whose lapse takes the whole zone down. A chain that is not secure is the zone's only when the
 * service's resolvers answer for the root's NS and DNSKEY (ResolverHealth, docs/dns.md "Own
 * resolver health"); otherwise the run records nothing against it (docs/monitors.md).
 */
import { Clock, Effect, Schema } from "effect"
import { dataOf, DnsResolver } from "../../../adapters/dns/DnsResolver"
import { normName, sigTime } from "../../../adapters/dnssec/crypto"
import { DnssecValidator, rrsigsOf, verifyRRset } from "../../../adapters/dnssec/DnssecValidator"
import { ResolverHealth } from "../../../adapters/dns/ResolverHealth"
import type { Baseline, Verdict } from "../model/analyze"
import { domainTarget, httpsUrlOf } from "../model/target"
import { defineKind } from "../model/kindSpec"

const DAY = 86_400_000
const APEX_TYPES = ["SOA", "DNSKEY", "NS"] as const

export const DnssecConditions = Schema.Struct({
  status_not_secure: Schema.optional(Schema.Boolean),
  signature_expires_within_days: Schema.optional(Schema.Number.pipe(Schema.between(0, 365)))
})
export type DnssecConditions = typeof DnssecConditions.Type

export interface DnssecMonitorReport {
  readonly zone: string
  readonly status: "secure" | "insecure" | "bogus" | "indeterminate"
  readonly reason: string | null
  readonly signed: boolean
  readonly ds_present: boolean
  readonly algorithms: ReadonlyArray<number>
  /** Per apex RRset: its verified signature's expiration (null when none verified). */
  readonly apex_signatures: ReadonlyArray<{ readonly type: string; readonly expires_at: string | null }>
  readonly earliest_expiration: string | null
  readonly days_left: number | null
}

/** Pure: the verdict on a report. */
export const evaluateDnssec = (c: DnssecConditions, r: DnssecMonitorReport, previous: Baseline | null): Verdict => {
  const held: Array<string> = []
  if (c.status_not_secure && r.status !== "secure") held.push(`DNSSEC ${r.status}${r.reason ? `: ${r.reason}` : ""}`)
  if (c.signature_expires_within_days !== undefined && r.days_left !== null && r.days_left < c.signature_expires_within_days) {
    held.push(`apex signatures expire in ${r.days_left} days (${r.earliest_expiration})`)
  }
  return {
    ok: held.length === 0,
    summary: held.length > 0
      ? held.join("; ")
      : r.earliest_expiration === null
      ? `DNSSEC ${r.status}`
      : `DNSSEC ${r.status}, apex signatures valid ${r.days_left} more days`,
    report: r,
    baseline: previous
  }
}

/** The verified apex signatures' expirations (seconds), fetched with DO and CD as the validator does. */
const apexExpirations = (zone: string, nowS: number) =>
  Effect.gen(function*() {
    const resolver = yield* DnsResolver
    const fetched = yield* Effect.forEach(APEX_TYPES, (type) =>
      resolver.query({ name: zone, type, dnssec: true, checkingDisabled: true }).pipe(
        Effect.map((ans) => ({ type, rrset: ans.answers.filter((r) => r.type === type && normName(r.name) === zone), sigs: rrsigsOf(ans.answers, zone, type) })),
        Effect.option
      ), { concurrency: 3 })
    const keys = fetched.flatMap((f) => (f._tag === "Some" && f.value.type === "DNSKEY" ? dataOf(f.value.rrset, "DNSKEY") : []))
    return fetched.map((f, i) => {
      if (f._tag === "None") return { type: APEX_TYPES[i], expiration: null }
      const check = verifyRRset(f.value.rrset, f.value.sigs, keys, zone, nowS)
      return { type: APEX_TYPES[i], expiration: check.ok && check.expiration !== undefined ? check.expiration : null }
    })
  })

export const dnssecKind = defineKind<DnssecConditions>({
  conditions: DnssecConditions,
  defaults: { status_not_secure: true, signature_expires_within_days: 3 },
  minIntervalFactor: 10,
  target: domainTarget,
  // The recursive resolvers are asked, never the zone's servers; an apex that resolves to an
  // internal address is refused as for a connection (the operator's internal zones stay private).
  guard: (t) => ({ url: httpsUrlOf(t), connects: true }),
  run: (target) =>
    Effect.gen(function*() {
      const zone = normName(target)
      const health = yield* ResolverHealth
      const result = yield* health.guard(zone, Effect.flatMap(DnssecValidator, (v) => v.validateZone(zone)), (r) => r.status !== "secure", { dnssec: true })
      const now = yield* Clock.currentTimeMillis
      const apex = result.status === "secure" ? yield* apexExpirations(zone, Math.floor(now / 1000)) : []
      const times = apex.flatMap((a) => (a.expiration === null ? [] : [a.expiration >>> 0]))
      const earliest = times.length === 0 ? null : Math.min(...times)
      return {
        zone,
        status: result.status,
        reason: result.reason,
        signed: result.signed,
        ds_present: result.ds_present,
        algorithms: result.algorithms,
        apex_signatures: apex.map((a) => ({ type: a.type, expires_at: a.expiration === null ? null : sigTime(a.expiration) })),
        earliest_expiration: earliest === null ? null : sigTime(earliest),
        days_left: earliest === null ? null : Math.floor(((earliest * 1000 - now) / DAY) * 10) / 10
      } satisfies DnssecMonitorReport
    }),
  evaluate: (c, report, previous) => evaluateDnssec(c, report, previous)
})
