/**
 * Zone Hygiene: enumerate the authoritative nameservers, then run the nine checks of SPEC.md
 * concurrently, each bounded in time. A check that fails or runs out of time becomes
 * `{ incomplete }` (a limitation and an info finding in the report), never a 500.
 * Nameserver addresses pass the target guard's classification: non-public addresses are not
 * queried unless ALLOW_PRIVATE_TARGETS, cloud metadata addresses never.
 * Outbound limits (limits.ts, docs/security.md): at most ZONE_AUDIT_MAX_NS_ADDRESSES addresses
 * queried directly, a per-address query rate, audit slots per organization and per instance,
 * and one report per zone for ZONE_AUDIT_CACHE_TTL_S (concurrent audits of a zone share one).
 * When the service's own resolvers do not answer, the audit is 502 upstream_unavailable.
 * DECISIONS "Domain parameters": whenever the zone's NS lookup or its DNSSEC chain fails, the
 * resolvers are asked for the root (NS and DNSKEY of "."); if they cannot answer that either, the
 * failure is theirs (502), never a finding against the zone. An apex NXDOMAIN while the root
 * resolves is 404 not_found; an apex SERVFAIL while it resolves is the zone's own fault (a report).
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { AppConfig, type ResolverAddress } from "../../platform/Config"
import { CtAggregator } from "../../adapters/ct/CtAggregator"
import { DnssecValidator } from "../../adapters/dnssec/DnssecValidator"
import { RateLimited, UpstreamUnavailable, NotFound } from "../../kernel/errors"
import { classifyAddress } from "../../adapters/probe/guard"
import { axfr } from "../../adapters/dns/axfr"
import { DnsFailure, DnsResolver, type DnsError } from "../../adapters/dns/DnsResolver"
import { addressesIn, errText, norm, randomLabel, soaOf } from "./answers"
import { capTargets, makeAuditSlots, makeDestinationLimiter, makeSharedCache } from "./limits"
import {
  analyze,
  SENSITIVE_NAMES,
  type AxfrObservation,
  type CaaObservation,
  type CaaRecord,
  type ExposedName,
  type Incomplete,
  type NameserverObservation,
  type OpenResolverObservation,
  type SensitiveObservation,
  type SoaObservation,
  type WildcardObservation,
  type ZoneHygieneReport
} from "./analyze"

export type TimedReport = ZoneHygieneReport & { readonly timings_ms: Readonly<Record<string, number>> }

export interface ZoneHygieneShape {
  /** One audit for `orgId`; a cached or in-flight report of the zone is shared. */
  readonly audit: (domain: string, orgId?: string) => Effect.Effect<TimedReport, UpstreamUnavailable | RateLimited | NotFound>
}

interface Target {
  readonly nameserver: string
  readonly ip: string
  readonly server: ResolverAddress
}

export const makeZoneHygiene = Effect.gen(function*() {
  const config = yield* AppConfig
  const resolver = yield* DnsResolver
  const validator = yield* DnssecValidator
  const ct = yield* CtAggregator
  const authPort = config.dnsAuthPort
  const timeoutMs = config.dnsTimeoutMs
  const checkBudgetMs = Math.max(10_000, 5 * timeoutMs)
  const limiter = makeDestinationLimiter({ perSecond: config.dnsDestinationQps, burst: config.dnsDestinationQps, maxWaitMs: checkBudgetMs / 2 })
  const slots = yield* makeAuditSlots({ overall: config.zoneAuditConcurrency, perOrg: config.zoneAuditConcurrencyPerOrg, queueMs: config.zoneAuditQueueMs })
  /** A direct query to a nameserver address waits for that address's rate limit first. */
  const limited = <A>(t: Target, name: string, eff: Effect.Effect<A, DnsError>): Effect.Effect<A, DnsError> =>
    limiter.take(t.ip).pipe(
      Effect.mapError((e) => new DnsFailure({ server: t.ip, name, reason: e.message })),
      Effect.zipRight(eff)
    )

  const bounded = <A>(name: string, eff: Effect.Effect<A, unknown>): Effect.Effect<A | Incomplete> =>
    eff.pipe(
      Effect.timeoutFail({ duration: Duration.millis(checkBudgetMs), onTimeout: () => ({ incomplete: `no result within ${checkBudgetMs} ms` }) }),
      Effect.catchAllCause((cause) => {
        const f = cause._tag === "Fail" ? (cause.error as any) : undefined
        const msg = f?.incomplete ?? f?.message ?? `${name} failed unexpectedly`
        return Effect.succeed<Incomplete>({ incomplete: String(msg) })
      })
    )

  const allowed = (ip: string): string | null => {
    const c = classifyAddress(ip)
    if (c === "metadata") return "cloud metadata address"
    if (c === "private" && !config.allowPrivateTargets) return "non-public address"
    return null
  }

  /** Can the service's resolvers answer for the root zone itself (its NS and DNSKEY sets)? */
  const rootAnswers = Effect.all([
    resolver.query({ name: ".", type: "NS" }),
    resolver.query({ name: ".", type: "DNSKEY", dnssec: true })
  ], { concurrency: 2 }).pipe(
    Effect.map(([ns, keys]) =>
      ns.rcode === "NOERROR" && ns.answers.some((a) => a.type === "NS") && keys.rcode === "NOERROR" && keys.answers.some((a) => a.type === "DNSKEY")
    ),
    Effect.orElseSucceed(() => false)
  )
  const resolversFailed = (zone: string, what: string) =>
    new UpstreamUnavailable({ message: `the service's DNS resolvers cannot answer for the root zone (${what}); no report can be made for ${zone}` })

  const enumerate = (zone: string) =>
    Effect.gen(function*() {
      const ans = yield* Effect.either(resolver.query({ name: zone, type: "NS" }))
      // Broken zone or broken resolver? Ask the resolvers for the root: if they cannot answer
      // that either, nothing can be judged about the zone.
      if (ans._tag === "Left") {
        if (!(yield* rootAnswers)) return yield* resolversFailed(zone, errText(ans.left))
        return { nsError: errText(ans.left), nameservers: [] as Array<NameserverObservation> }
      }
      if (ans.right.rcode === "NXDOMAIN") {
        if (!(yield* rootAnswers)) return yield* resolversFailed(zone, `NXDOMAIN for ${zone}`)
        return yield* new NotFound({ message: `zone ${zone} does not exist (the DNS answers NXDOMAIN for it)` })
      }
      const names = [...new Set(ans.right.answers.filter((a) => a.type === "NS" && norm(a.name) === zone).map((a) => norm(String((a as any).data))))].slice(0, 13)
      if (names.length === 0) return { nsError: `no NS records at ${zone} (not a zone apex?)`, nameservers: [] }
      const nameservers = yield* Effect.forEach(names, (name) =>
        resolver.lookupAddresses(name).pipe(
          Effect.map((ips) => [...new Set(ips)].slice(0, 4)),
          Effect.catchAll(() => Effect.succeed([] as Array<string>)),
          Effect.map((ips): NameserverObservation => {
            const reasons = ips.map(allowed)
            const skipped = ips.length === 0 ? "no address" : reasons.every((r) => r !== null) ? reasons[0] : null
            return { name, ips, skipped }
          })
        ), { concurrency: "unbounded" })
      return { nsError: null, nameservers }
    })

  /** (nameserver, ip) pairs that may be queried directly: public ones, at most the cap. */
  const targets = (ns: ReadonlyArray<NameserverObservation>) =>
    capTargets(
      ns.map((n) => n.ips.filter((ip) => allowed(ip) === null).map((ip): Target => ({ nameserver: n.name, ip, server: { host: ip, port: authPort } }))),
      config.zoneAuditMaxNsAddresses
    )

  const soaCheck = (zone: string, ts: ReadonlyArray<Target>) =>
    Effect.gen(function*() {
      const auth = Effect.forEach(ts, (t) =>
        limited(t, zone, resolver.query({ name: zone, type: "SOA", server: t.server, recursionDesired: false })).pipe(
          Effect.map((ans): SoaObservation => {
            const soa = ans.rcode === "NOERROR" ? soaOf(ans, zone) : null
            return { kind: "authoritative", nameserver: t.nameserver, ip: t.ip, port: authPort, soa, authoritative: ans.flags.aa, error: soa ? null : ans.rcode !== "NOERROR" ? ans.rcode : "no SOA in the answer" }
          }),
          Effect.catchAll((e) => Effect.succeed<SoaObservation>({ kind: "authoritative", nameserver: t.nameserver, ip: t.ip, port: authPort, soa: null, authoritative: false, error: errText(e) }))
        ), { concurrency: "unbounded" })
      const rec = Effect.forEach(config.dnsResolvers, (r) =>
        resolver.query({ name: zone, type: "SOA", server: r }).pipe(
          Effect.map((ans): SoaObservation => {
            const soa = ans.rcode === "NOERROR" ? soaOf(ans, zone) : null
            return { kind: "recursive", nameserver: null, ip: r.host, port: r.port, soa, authoritative: false, error: soa ? null : ans.rcode !== "NOERROR" ? ans.rcode : "no SOA in the answer" }
          }),
          Effect.catchAll((e) => Effect.succeed<SoaObservation>({ kind: "recursive", nameserver: null, ip: r.host, port: r.port, soa: null, authoritative: false, error: errText(e) }))
        ), { concurrency: "unbounded" })
      const [a, b] = yield* Effect.all([auth, rec], { concurrency: 2 })
      return [...a, ...b]
    })

  const apexSoa = (zone: string) =>
    resolver.query({ name: zone, type: "SOA" }).pipe(
      Effect.catchAll((e) => Effect.fail<Incomplete>({ incomplete: `SOA lookup failed: ${errText(e)}` })),
      Effect.flatMap((ans) => {
        const soa = soaOf(ans, zone)
        return soa ? Effect.succeed(soa) : Effect.fail<Incomplete>({ incomplete: `no SOA for ${zone} (${ans.rcode})` })
      })
    )

  const wildcardCheck = (zone: string) =>
    Effect.gen(function*() {
      const probes = [`${randomLabel()}.${zone}`, `${randomLabel()}.${zone}`]
      const results = yield* Effect.forEach(probes, (p) =>
        Effect.all([resolver.query({ name: p, type: "A" }), resolver.query({ name: p, type: "AAAA" })], { concurrency: 2 }).pipe(
          Effect.map(([a, aaaa]) => {
            const x = addressesIn([...a.answers, ...aaaa.answers], p)
            return x
          })
        ), { concurrency: 2 })
      const cname = results.find((r) => r.cname !== null)?.cname ?? null
      const ips = [...new Set(results.flatMap((r) => r.ips))].sort()
      return { probes, ips, cname_target: cname } satisfies WildcardObservation
    })

  const sensitiveCheck = (zone: string) =>
    Effect.gen(function*() {
      let errors = 0
      const found = yield* Effect.forEach(SENSITIVE_NAMES, (label) => {
        const name = `${label}.${zone}`
        return Effect.all([resolver.query({ name, type: "A" }), resolver.query({ name, type: "AAAA" })], { concurrency: 2 }).pipe(
          Effect.map(([a, aaaa]): ExposedName | null => {
            if (a.rcode !== "NOERROR" && aaaa.rcode !== "NOERROR") return null
            const x = addressesIn([...a.answers, ...aaaa.answers], name)
            if (x.ips.length === 0 && x.cname === null) return null
            const hasA = a.answers.some((r) => r.type === "A")
            return { name, ips: [...new Set(x.ips)], record_type: x.cname !== null ? "CNAME" : hasA ? "A" : "AAAA", cname_target: x.cname }
          }),
          Effect.catchAll(() => Effect.sync(() => { errors++; return null }))
        )
      }, { concurrency: 40 })
      return { probed: SENSITIVE_NAMES.length, resolved: found.filter((x): x is ExposedName => x !== null), errors } satisfies SensitiveObservation
    })

  const openResolverCheck = (ts: ReadonlyArray<Target>) =>
    Effect.forEach(ts, (t) =>
      limited(t, "a.root-servers.net", resolver.query({ name: "a.root-servers.net", type: "A", server: t.server, recursionDesired: true })).pipe(
        Effect.map((ans): OpenResolverObservation => {
          const recursive = ans.rcode === "NOERROR" && ans.flags.ra && !ans.flags.aa && ans.answers.some((a) => a.type === "A")
          const status = recursive ? "recursive_answer" : ans.rcode === "REFUSED" ? "refused" : ans.rcode !== "NOERROR" ? ans.rcode.toLowerCase() : "no_recursion"
          return { nameserver: t.nameserver, ip: t.ip, is_open_resolver: recursive, status }
        }),
        Effect.catchAll((e) => Effect.succeed<OpenResolverObservation>({ nameserver: t.nameserver, ip: t.ip, is_open_resolver: false, status: e._tag === "DnsTimeout" ? "timeout" : `error: ${errText(e)}` }))
      ), { concurrency: "unbounded" })

  const axfrCheck = (zone: string, ts: ReadonlyArray<Target>) =>
    Effect.forEach(ts, (t) =>
      limited(t, zone, axfr(zone, t.server, Math.max(timeoutMs, checkBudgetMs - 1000))).pipe(
        Effect.map((x): AxfrObservation => ({ nameserver: t.nameserver, ip: t.ip, allowed: true, records: x.records.length, status: "allowed" })),
        Effect.catchAll((e) => Effect.succeed<AxfrObservation>({
          nameserver: t.nameserver,
          ip: t.ip,
          allowed: false,
          records: 0,
          status: e._tag === "DnsRcode" ? `refused (${e.rcode})` : e._tag === "DnsTimeout" ? "timeout" : `refused (${errText(e)})`
        }))
      ), { concurrency: "unbounded" })

  const caaCheck = (zone: string) =>
    Effect.gen(function*() {
      // RFC 8659 tree climbing: the relevant CAA set is the closest one at or above the zone.
      // Every level is asked at once, and the CT issuers are fetched meanwhile.
      const labels = zone.split(".")
      const names = labels.map((_, i) => labels.slice(i).join("."))
      const ctIssuers = ct.currentIssuers(zone).pipe(
        Effect.timeoutFail({ duration: Duration.millis(Math.max(1000, checkBudgetMs - 1000)), onTimeout: () => ({ incomplete: "CT aggregator did not answer in time" }) }),
        Effect.catchAll((e: any) => Effect.succeed<Incomplete>({ incomplete: e?.incomplete ?? e?.message ?? "CT lookup failed" }))
      )
      const [levels, issuers] = yield* Effect.all([
        Effect.forEach(names, (name) =>
          resolver.query({ name, type: "CAA" }).pipe(
            Effect.map((ans) => ans.answers.filter((a) => a.type === "CAA" && norm(a.name) === name).map((a): CaaRecord => {
              const d: any = (a as any).data
              return { flags: Number(d.flags ?? 0), tag: String(d.tag), value: String(d.value) }
            }))
          ), { concurrency: "unbounded" }),
        ctIssuers
      ], { concurrency: 2 })
      const at = levels.findIndex((recs) => recs.length > 0)
      const found = at < 0 ? null : { at: names[at], records: levels[at] }
      return { found_at: found?.at ?? null, records: found?.records ?? [], ct_issuers: issuers } satisfies CaaObservation
    })

  const runAudit = Effect.fn("ZoneHygiene.audit")(function*(zone: string) {
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    // Checks that need the nameserver addresses wait for the enumeration; the others start at once.
    // timings_ms: from the start of the audit to the end of each step.
    const t0 = yield* Clock.currentTimeMillis
    const timings: Record<string, number> = {}
    const stamp = (name: string) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
      Effect.tap(self, () => Effect.map(Clock.currentTimeMillis, (t) => { timings[name] = t - t0 }))
    const check = <A>(name: string, f: () => Effect.Effect<A, unknown>) => bounded(name, Effect.suspend(f)).pipe(stamp(name))
    const nsPart = enumerate(zone).pipe(
      stamp("enumeration"),
      Effect.flatMap(({ nsError, nameservers }) => {
        const ts = targets(nameservers)
        return Effect.all([
          check("soa_drift", () => soaCheck(zone, ts.chosen)),
          check("open_resolver", () => openResolverCheck(ts.chosen)),
          check("zone_transfer", () => axfrCheck(zone, ts.chosen))
        ], { concurrency: "unbounded" }).pipe(Effect.map((r) => ({ nsError, nameservers, ts, r })))
      })
    )
    const [{ nsError, nameservers, ts, r: [soa, openResolver, zoneTransfer] }, soaApex, wildcard, sensitive, dnssec, caa] = yield* Effect.all([
      nsPart,
      check("soa_fields", () => apexSoa(zone)),
      check("wildcard", () => wildcardCheck(zone)),
      check("sensitive_subdomains", () => sensitiveCheck(zone)),
      check("dnssec", () => validator.validateZone(zone)),
      check("caa", () => caaCheck(zone))
    ], { concurrency: "unbounded" })
    // A chain that fails at the root's own keys is the resolvers' failure, not the zone's.
    if (!("incomplete" in dnssec) && (dnssec.status === "bogus" || dnssec.status === "indeterminate") && !(yield* rootAnswers)) {
      return yield* resolversFailed(zone, `no DNSKEY of the root: ${dnssec.reason ?? dnssec.status}`)
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
