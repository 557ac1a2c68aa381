/**
 * `domain_expiry` (docs/operations/monitors.md, "Kinds"): the registration's expiration event from
 * RDAP (the whois_lookup service: IANA bootstrap, registry, registrar referral). An answer
 * without an expiration event is a failed run that says so, never a guess.
 */
import { Clock, Effect, Schema } from "effect"
import { Rdap } from "../../../adapters/rdap/Rdap"
import type { Baseline, Verdict } from "../model/analyze"
import { domainTarget, httpsUrlOf } from "../model/target"
import { defineKind } from "../model/kindSpec"
import { DaysLeft } from "./classic"

const DAY = 86_400_000

export const ExpiryConditions = Schema.Struct({ days_left_lt: Schema.optional(DaysLeft) })
export type ExpiryConditions = typeof ExpiryConditions.Type

export interface ExpiryReport {
  readonly domain: string
  readonly expires_at: string
  readonly days_left: number
  readonly registrar: string | null
}

/** Pure: the report from the RDAP facts at `now`, or why there is none. */
export const expiryReport = (
  whois: { readonly domain: string; readonly expires: string | null; readonly registrar: { readonly name: string | null } | null },
  now: number
): ExpiryReport | { readonly message: string } => {
  const at = whois.expires === null ? NaN : Date.parse(whois.expires)
  if (!Number.isFinite(at)) {
    return { message: `the RDAP answer for ${whois.domain} has no ${whois.expires === null ? "" : "readable "}expiration event` }
  }
  return {
    domain: whois.domain,
    expires_at: new Date(at).toISOString(),
    days_left: Math.floor((at - now) / DAY),
    registrar: whois.registrar?.name ?? null
  }
}

/** Pure: the verdict on an expiry report. */
export const evaluateExpiry = (c: ExpiryConditions, r: ExpiryReport, previous: Baseline | null): Verdict => {
  const held = c.days_left_lt !== undefined && r.days_left < c.days_left_lt
    ? [r.days_left < 0 ? `expired ${-r.days_left} days ago (${r.expires_at})` : `${r.days_left} days left < ${c.days_left_lt} (expires ${r.expires_at})`]
    : []
  return {
    ok: held.length === 0,
    summary: held[0] ?? `expires ${r.expires_at}, ${r.days_left} days left`,
    report: r,
    baseline: previous
  }
}

export const domainExpiryKind = defineKind<ExpiryConditions>({
  conditions: ExpiryConditions,
  defaults: { days_left_lt: 30 },
  minIntervalFactor: 10,
  target: domainTarget,
  // RDAP servers are asked (through the guarded outbound client), never the domain itself.
  guard: (t) => ({ url: httpsUrlOf(t), connects: false }),
  run: (target) =>
    Effect.gen(function*() {
      const whois = yield* Effect.flatMap(Rdap, (r) => r.lookup(target))
      const report = expiryReport(whois, yield* Clock.currentTimeMillis)
      return "message" in report ? yield* Effect.fail(report) : report
    }),
  evaluate: (c, report, previous) => evaluateExpiry(c, report, previous)
})
