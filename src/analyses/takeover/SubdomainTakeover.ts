/**
 * Subdomain Takeover (docs/operations/takeover.md): dangling DNS under a domain, graded by
 * confidence. A check:
 *  1. asks the resolvers for the domain's NS set: the one decision on the service's own resolvers
 *     (docs/dns.md, "Own resolver health"): 502 when they cannot answer for the root either, 404 when
 *     the domain is NXDOMAIN;
 *  2. gathers the names (sources.ts, names.ts): CT logs and a zone transfer at once, each within a
 *     bound, then the caller's names and the word list; merged and bounded;
 *  3. probes the wildcard under each parent of those names (a random label; the domain's own
 *     beside step 2);
 *  4. observes every name (checkName.ts: its CNAME chain, HTTP evidence, registered domains,
 *     delegations, MX and SPF), at most NAME_CONCURRENCY at once, all within the check's time
 *     budget: a name not done in time is a limitation, never a candidate (a domain whose own
 *     delegation is lame is judged first, and alone);
 *  5. judges the observations (classify.ts, pure) and assembles the report (report.ts).
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { CtAggregator } from "../../adapters/ct/CtAggregator"
import { DnsResolver } from "../../adapters/dns/DnsResolver"
import { ResolverHealth } from "../../adapters/dns/ResolverHealth"
import { HttpProbe } from "../../adapters/probe/HttpProbe"
import { InvalidRequest, NotFound, type UpstreamUnavailable } from "../../kernel/errors"
import { AppConfig } from "../../platform/Config"
import { disallowed } from "../zone/gather/nameservers"
import { randomLabel } from "../zone/model/answers"
import { checkName, type NameResult, NOTHING } from "./checkName"
import { classify } from "./classify"
import { type DirectAsk, makeReferrals } from "./delegations"
import { makeEvidence } from "./evidence"
import type { HttpEvidence } from "./fingerprints"
import { ask, nsHostsAt, registrationOf, type WildcardAnswer, wildcardAt } from "./lookups"
import { mergeNames, nameUnder } from "./names"
import { takeoverReport } from "./report"
import type { TakeoverReport } from "./schema"
import { ctNames, transferNames } from "./sources"

export interface TakeoverRequest {
  readonly domain: string
  /** Extra names under the domain (the `names` parameter). */
  readonly names?: ReadonlyArray<string>
}

export interface SubdomainTakeoverShape {
  readonly check: (req: TakeoverRequest) => Effect.Effect<TakeoverReport, InvalidRequest | NotFound | UpstreamUnavailable>
}

/** Names observed at once. */
export const NAME_CONCURRENCY = 100
/** HTTP requests at once in one check, and to one service. */
export const HTTP_CONCURRENCY = 32
export const HTTP_PER_PROVIDER = 8
/** At most this many parents of names are probed for a wildcard. */
const MAX_WILDCARD_PARENTS = 100
/** The longest one HTTP request may take. */
const HTTP_TIMEOUT_MS = 5_000

const parentOf = (name: string) => name.slice(name.indexOf(".") + 1)

export const makeSubdomainTakeover = Effect.gen(function*() {
  const config = yield* AppConfig
  const resolver = yield* DnsResolver
  const probe = yield* HttpProbe
  const ct = yield* CtAggregator
  const health = yield* ResolverHealth
  const q = ask(resolver)
  // The check ends before the operation's deadline, with room to assemble and send the report.
  const budgetMs = Math.max(3_000, config.operationDeadlineMs - 5_000)
  const sourcesMs = Math.min(8_000, Math.round(budgetMs / 3))

  const run = Effect.fn("SubdomainTakeover.check")(function*(req: TakeoverRequest) {
    const domain = req.domain
    const given: Array<string> = []
    for (const raw of req.names ?? []) {
      const name = nameUnder(raw, domain)
      if (name === null) return yield* new InvalidRequest({ message: `names: ${JSON.stringify(raw)} is not a host name under ${domain}` })
      given.push(name)
    }
    const t0 = yield* Clock.currentTimeMillis
    const budgetEnd = t0 + budgetMs
    const timings: Record<string, number> = {}
    const stamp = (step: string) => Effect.map(Clock.currentTimeMillis, (t) => { timings[step] = t - t0 })

    // A failed or NXDOMAIN first lookup is judged against the service's own resolvers first
    // (docs/dns.md, "Own resolver health"): 502 when they cannot answer for the root.
    const apex = yield* health.guard(domain, Effect.either(resolver.query({ name: domain, type: "NS" })), (a) => a._tag === "Left" || a.right.rcode === "NXDOMAIN")
    if (apex._tag === "Right" && apex.right.rcode === "NXDOMAIN") return yield* new NotFound({ message: `domain ${domain} does not exist (the DNS answers NXDOMAIN for it)` })
    const registration = yield* Effect.cachedFunction(registrationOf(q))
    const direct: DirectAsk = { resolver, q, authPort: config.dnsAuthPort, timeoutMs: config.dnsTimeoutMs, allowed: disallowed(config.allowPrivateTargets), registration }

    // The sources, and the wildcard under the domain itself (most names' parent) meanwhile.
    const label = randomLabel()
    const [fromCt, transfer, apexWildcard] = yield* Effect.all([
      ctNames(ct, domain, sourcesMs),
      transferNames(direct, domain, apex._tag === "Right" ? nsHostsAt(apex.right.answers, domain) ?? [] : [], sourcesMs),
      wildcardAt(q, domain, label)
    ], { concurrency: 3 })
    const set = mergeNames({ domain, given, zone_transfer: transfer.names, ct: fromCt.names })
    yield* stamp("sources")

    const parents = [...new Set(set.names.filter((n) => n !== domain).map(parentOf))]
    const probed = parents.slice(0, MAX_WILDCARD_PARENTS)
    const wildcards = new Map<string, WildcardAnswer | null>([
      [domain, apexWildcard],
      ...yield* Effect.forEach(probed.filter((p) => p !== domain), (p) => Effect.map(wildcardAt(q, p, label), (w) => [p, w] as const), { concurrency: 16 })
    ])
    yield* stamp("wildcards")

    const { referral } = yield* makeReferrals(direct)
    const fetch = yield* probe.sharingLookups
    const evidence = yield* makeEvidence(fetch, { total: HTTP_CONCURRENCY, perProvider: HTTP_PER_PROVIDER, timeoutMs: HTTP_TIMEOUT_MS })
    const ctx = {
      q,
      direct,
      domain,
      wildcardOf: (name: string) => wildcards.get(parentOf(name)) ?? null,
      transferred: transfer.delegations,
      referral,
      http: (name: string, provider: string, ev: HttpEvidence) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => evidence.answers(name, provider, ev, Math.max(1, Math.min(HTTP_TIMEOUT_MS, budgetEnd - now))))
    }
    // Every name within what is left of the budget (one timeout for them all): a name not done
    // when it runs out is not judged.
    const done = new Map<string, NameResult>()
    const checkAll = (names: ReadonlyArray<string>) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.forEach(names, (name) => Effect.map(checkName(ctx, name), (r) => { done.set(name, r) }), { concurrency: NAME_CONCURRENCY, discard: true }).pipe(
          Effect.timeoutOption(Duration.millis(Math.max(0, budgetEnd - now)))
        ))
    const resultsOf = (names: ReadonlyArray<string>) => names.map((n) => done.get(n) ?? NOTHING)
    // A domain whose own lookups fail is judged first: when its delegation is lame (no name server
    // answers for it), nothing below it can be resolved and the names under it are not asked.
    if (apex._tag === "Left") yield* checkAll([domain])
    const lame = apex._tag === "Left" && (done.get(domain)?.delegations ?? []).some((d) => d.zone === domain && !d.nameservers.some((n) => n.answer === "answered"))
    if (!lame) yield* checkAll(set.names.filter((n) => !done.has(n)))
    const asked = lame ? [domain] : set.names
    const late = asked.filter((n) => !done.has(n))
    const results = resultsOf(asked)
    const checked = lame ? { ...set, names: [domain], sources: { ct: 0, zone_transfer: 0, wordlist: 0, given: 0 } } : set
    yield* stamp("names")

    const outcome = classify({
      names: results.flatMap((r) => r.names),
      delegations: results.flatMap((r) => r.delegations),
      mx: results.flatMap((r) => r.mx),
      spf: results.flatMap((r) => r.spf)
    })
    const wildcardNotes = [...wildcards].flatMap(([p, w]) =>
      w === null ? [] : [`A wildcard record answers every name under ${p} (${w.cname !== null ? `CNAME ${w.cname}` : w.ips.length > 0 ? w.ips.join(", ") : "no address"}): names it alone answers are not judged`])
    const limitations = [
      ...fromCt.limitations,
      ...transfer.limitations,
      ...wildcardNotes,
      ...(parents.length > probed.length ? [`Only the first ${probed.length} of ${parents.length} parent names were probed for a wildcard record`] : []),
      ...results.flatMap((r) => r.limitations),
      ...(lame ? [`No name server answers for ${domain} itself: the ${set.names.length - 1} names found under it were not checked`] : []),
      ...(late.length > 0 ? [`${late.length} name(s) were not judged within the check's time budget of ${budgetMs} ms: ${late.join(", ")}`] : [])
    ]
    yield* stamp("total")
    return takeoverReport({ domain, checked_at: new Date(t0).toISOString(), timings_ms: timings, names: checked, outcome, limitations })
  })

  // The check's scope holds the name lookups its HTTP requests share.
  return { check: (req: TakeoverRequest) => Effect.scoped(run(req)) } satisfies SubdomainTakeoverShape
})

export class SubdomainTakeover extends Context.Tag("domain-intel/SubdomainTakeover")<SubdomainTakeover, SubdomainTakeoverShape>() {
  static readonly Live = Layer.effect(this, makeSubdomainTakeover)
}
