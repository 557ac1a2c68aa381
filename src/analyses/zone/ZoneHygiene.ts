/**
 * Zone Hygiene: enumerate the authoritative nameservers, then run the nine checks
 * (docs/operations/zone-hygiene.md) concurrently, each bounded in time. A check that fails or runs out of time becomes
 * `{ incomplete }` (a limitation and an info finding in the report), never a 500.
 * Nameserver addresses pass the target guard's classification: non-public addresses are not
 * queried unless ALLOW_PRIVATE_TARGETS, cloud metadata addresses never.
 * Outbound limits (limits.ts, docs/security.md): at most ZONE_AUDIT_MAX_NS_ADDRESSES addresses
 * queried directly, a per-address query rate, audit slots per organization and per instance,
 * and one report per zone for ZONE_AUDIT_CACHE_TTL_S (concurrent audits of a zone share one).
 * When the service's own resolvers do not answer, the audit is 502 upstream_unavailable
 * (docs/dns.md, "Own resolver health"): whenever the zone's NS lookup or its DNSSEC chain fails,
 * ResolverHealth is asked whether the resolvers answer for the root (NS and DNSKEY of "."); if
 * not, the failure is theirs (502), never a finding against the zone. An apex NXDOMAIN while the
 * root resolves is 404 not_found; an apex SERVFAIL while it resolves is the zone's own fault (a report).
 * The DNS lookups live in gather/, the judging in analyze.ts and checks/ (pure); this module
 * bounds, times, limits and caches the run.
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { AppConfig } from "../../platform/Config"
import { CtAggregator } from "../../adapters/ct/CtAggregator"
import { DnssecValidator } from "../../adapters/dnssec/DnssecValidator"
import { NotFound, RateLimited, UpstreamUnavailable } from "../../kernel/errors"
import { DnsFailure, DnsResolver, type DnsError } from "../../adapters/dns/DnsResolver"
import { ResolverHealth } from "../../adapters/dns/ResolverHealth"
import { analyze, type Incomplete, type ZoneHygieneReport } from "./analyze"
import { norm } from "./model/answers"
import { failureReason } from "./model/observations"
import { caaLookup } from "./gather/caa"
import type { Gatherer, Target } from "./gather/context"
import { axfrProbe, recursionProbe } from "./gather/nameserverProbes"
import { disallowed, enumerate, targets } from "./gather/nameservers"
import { sensitiveProbe, wildcardProbe } from "./gather/names"
import { apexSoa, soaAnswers } from "./gather/soa"
import { makeAuditSlots, makeDestinationLimiter, makeSharedCache } from "./model/limits"

export type TimedReport = ZoneHygieneReport & { readonly timings_ms: Readonly<Record<string, number>> }

export interface ZoneHygieneShape {
  /** One audit for `orgId`; a cached or in-flight report of the zone is shared. */
  readonly audit: (domain: string, orgId?: string) => Effect.Effect<TimedReport, UpstreamUnavailable | RateLimited | NotFound>
}

export const makeZoneHygiene = Effect.gen(function*() {
  const config = yield* AppConfig
  const resolver = yield* DnsResolver
  const health = yield* ResolverHealth
  const validator = yield* DnssecValidator
  const ct = yield* CtAggregator
  const timeoutMs = config.dnsTimeoutMs
  const checkBudgetMs = Math.max(10_000, 5 * timeoutMs)
  const limiter = makeDestinationLimiter({ perSecond: config.dnsDestinationQps, burst: config.dnsDestinationQps, maxWaitMs: checkBudgetMs / 2 })
  const slots = yield* makeAuditSlots({ overall: config.zoneAuditConcurrency, perOrg: config.zoneAuditConcurrencyPerOrg, queueMs: config.zoneAuditQueueMs })
  const g: Gatherer = {
    resolver,
    health,
    recursive: config.dnsResolvers,
    authPort: config.dnsAuthPort,
    timeoutMs,
    checkBudgetMs,
    limited: <A>(t: Target, name: string, eff: Effect.Effect<A, DnsError>): Effect.Effect<A, DnsError> =>
      limiter.take(t.ip).pipe(
        Effect.mapError((e) => new DnsFailure({ server: t.ip, name, reason: e.message })),
        Effect.zipRight(eff)
      )
  }
  const allowed = disallowed(config.allowPrivateTargets)

  const bounded = <A>(name: string, eff: Effect.Effect<A, unknown>): Effect.Effect<A | Incomplete> =>
    eff.pipe(
      Effect.timeoutFail({ duration: Duration.millis(checkBudgetMs), onTimeout: () => ({ incomplete: `no result within ${checkBudgetMs} ms` }) }),
      Effect.catchAllCause((cause) => {
        const fallback = `${name} failed unexpectedly`
        return Effect.succeed<Incomplete>({ incomplete: cause._tag === "Fail" ? failureReason(cause.error, fallback) : fallback })
      })
    )

  const runAudit = Effect.fn("ZoneHygiene.audit")(function*(zone: string) {
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    // Checks that need the nameserver addresses wait for the enumeration; the others start at once.
    // timings_ms: from the start of the audit to the end of each step.
    const t0 = yield* Clock.currentTimeMillis
    const timings: Record<string, number> = {}
    const stamp = (name: string) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
      Effect.tap(self, () => Effect.map(Clock.currentTimeMillis, (t) => { timings[name] = t - t0 }))
    const check = <A>(name: string, f: () => Effect.Effect<A, unknown>) => bounded(name, Effect.suspend(f)).pipe(stamp(name))
    const nsPart = enumerate(g, allowed, zone).pipe(
      stamp("enumeration"),
      Effect.flatMap(({ nsError, nameservers }) => {
        const ts = targets(g, allowed, nameservers, config.zoneAuditMaxNsAddresses)
        return Effect.all([
          check("soa_drift", () => soaAnswers(g, zone, ts.chosen)),
          check("open_resolver", () => recursionProbe(g, ts.chosen)),
          check("zone_transfer", () => axfrProbe(g, zone, ts.chosen))
        ], { concurrency: "unbounded" }).pipe(Effect.map((r) => ({ nsError, nameservers, ts, r })))
      })
    )
    const [{ nsError, nameservers, ts, r: [soa, openResolver, zoneTransfer] }, soaApex, wildcard, sensitive, dnssec, caa] = yield* Effect.all([
      nsPart,
      check("soa_fields", () => apexSoa(g, zone)),
      check("wildcard", () => wildcardProbe(g, zone)),
      check("sensitive_subdomains", () => sensitiveProbe(g, zone)),
      check("dnssec", () => validator.validateZone(zone)),
      check("caa", () => caaLookup(g, ct, zone))
    ], { concurrency: "unbounded" })
    // A chain that fails at the root's own keys is the resolvers' failure, not the zone's.
    if (!("incomplete" in dnssec) && (dnssec.status === "bogus" || dnssec.status === "indeterminate")) {
      yield* health.confirm(zone, { dnssec: true })
    }
    timings.total = (yield* Clock.currentTimeMillis) - t0
    const report = analyze({
      domain: zone,
      now,
      ns_error: nsError,
      nameservers,
      soa,
      soa_apex: soaApex,
      wildcard,
      sensitive,
      open_resolver: openResolver,
      dnssec,
      caa,
      axfr: zoneTransfer
    })
    const capped = ts.total > ts.chosen.length
      ? [`Only ${ts.chosen.length} of ${ts.total} nameserver addresses were queried directly (limit ${config.zoneAuditMaxNsAddresses} per audit); SOA, open-resolver and zone-transfer results cover those`]
      : []
    return { ...report, limitations: [...report.limitations, ...capped], timings_ms: timings } as TimedReport
  })

  const reports = makeSharedCache<TimedReport, UpstreamUnavailable | RateLimited | NotFound>({ ttlMs: config.zoneAuditCacheTtlS * 1000, capacity: 1000 })

  /**
   * A cached zone is answered at once; otherwise the caller holds one of its organization's
   * audit slots while it runs or joins the zone's audit (so an organization's 429 is about its
   * own load, never shared with another that joins), and the audit itself holds an instance slot.
   */
  const audit = (domainIn: string, orgId = "-") =>
    Effect.gen(function*() {
      const zone = norm(domainIn)
      const r = yield* reports.get(zone, slots.withInstanceSlot(runAudit(zone)), (wait) => slots.withOrgSlot(orgId, wait))
      if (!r.cached) return r.value
      const age = Math.round(((yield* Clock.currentTimeMillis) - r.at) / 1000)
      return {
        ...r.value,
        limitations: [...r.value.limitations, `Served from cache: audited ${age} s ago (reports are cached for ${config.zoneAuditCacheTtlS} s)`]
      } as TimedReport
    })

  return { audit } satisfies ZoneHygieneShape
})

export class ZoneHygiene extends Context.Tag("domain-intel/ZoneHygiene")<ZoneHygiene, ZoneHygieneShape>() {
  static readonly Live = Layer.effect(this, makeZoneHygiene)
}
