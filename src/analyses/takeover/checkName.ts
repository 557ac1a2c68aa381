/**
 * Everything a takeover check observes about one name (docs/operations/takeover.md, "How a check
 * runs"), for the pure classifier (classify.ts): its CNAME chain, then what the chain still needs
 * (`plan`: the service's HTTP answers, or whether the registered domain of its NXDOMAIN end
 * exists); for a name with records of its own, its NS set (a delegation: each name server asked
 * for the zone), its MX hosts and its SPF `include:`/`redirect=` targets with their registered
 * domains; for a name the resolvers cannot answer, the referral of the parent zone (a lame
 * delegation is exactly such a name).
 */
import { Effect } from "effect"
import { isSpfRecord, parseRecord } from "../mail/spf/parse"
import { plan } from "./classify"
import { type DirectAsk, observeDelegation, type Referral } from "./delegations"
import {
  type Ask,
  type Chain,
  matchesWildcard,
  mxHostsIn,
  norm,
  nsHostsAt,
  registeredDomainOf,
  resolveChain,
  txtsIn,
  type WildcardAnswer
} from "./lookups"
import type { HttpEvidence } from "./fingerprints"
import type { DelegationObservation, HttpAnswer, MxObservation, NameObservation, RegisteredDomain, SpfObservation } from "./observations"

export interface NameResult {
  readonly names: ReadonlyArray<NameObservation>
  readonly delegations: ReadonlyArray<DelegationObservation>
  readonly mx: ReadonlyArray<MxObservation>
  readonly spf: ReadonlyArray<SpfObservation>
  readonly limitations: ReadonlyArray<string>
}

export const NOTHING: NameResult = { names: [], delegations: [], mx: [], spf: [], limitations: [] }

/** At most this many MX hosts and SPF targets of one name are looked at. */
const MAX_MAIL_TARGETS = 10

export interface NameContext {
  readonly q: Ask
  readonly direct: DirectAsk
  readonly domain: string
  /** The wildcard answer under a name's parent (null: none, or not probed). */
  readonly wildcardOf: (name: string) => WildcardAnswer | null
  /** NS sets the zone transfer showed, by name. */
  readonly transferred: ReadonlyMap<string, ReadonlyArray<string>>
  readonly referral: (name: string) => Effect.Effect<Referral>
  readonly http: (name: string, provider: string, evidence: HttpEvidence) => Effect.Effect<{ readonly http?: HttpAnswer; readonly https?: HttpAnswer }>
}

const FAILED_LOOKUP = new Set(["SERVFAIL", "REFUSED", "TIMEOUT"])

/** The registered domain of a host and whether it exists; a host that is itself a public suffix cannot be registered. */
const registrationOfHost = (ctx: NameContext, host: string): Effect.Effect<RegisteredDomain> => {
  const reg = registeredDomainOf(host)
  return reg === null ? Effect.succeed({ domain: host, exists: true }) : ctx.direct.registration(reg)
}

/** SPF `include:` and `redirect=` targets written as plain domains (a macro names no one domain). */
export const spfTargets = (txts: ReadonlyArray<string>): ReadonlyArray<{ readonly mechanism: "include" | "redirect"; readonly target: string }> => {
  const out: Array<{ mechanism: "include" | "redirect"; target: string }> = []
  for (const txt of txts.filter(isSpfRecord)) {
    const parsed = parseRecord(txt)
    if (!parsed.ok) continue
    for (const d of parsed.value.directives) if (d.mechanism.kind === "include") out.push({ mechanism: "include", target: d.mechanism.spec })
    if (parsed.value.redirect !== null) out.push({ mechanism: "redirect", target: parsed.value.redirect.spec })
  }
  return out.filter((t) => !t.target.includes("%")).map((t) => ({ ...t, target: norm(t.target) })).slice(0, MAX_MAIL_TARGETS)
}

const what = (rcode: string) => (rcode === "TIMEOUT" ? "timed out" : `answered ${rcode}`)

/** Registrations of each host, one observation each (nothing to do for none). */
const registrations = <A>(ctx: NameContext, hosts: ReadonlyArray<string>, make: (host: string, registered: RegisteredDomain) => A) =>
  hosts.length === 0 ? Effect.succeed([] as Array<A>) : Effect.forEach(hosts, (h) => Effect.map(registrationOfHost(ctx, h), (r) => make(h, r)), { concurrency: "unbounded" })

/** A name with records of its own: its NS set (a delegation), MX hosts and SPF targets, asked at once. */
const ownRecords = (ctx: NameContext, name: string): Effect.Effect<NameResult> =>
  Effect.gen(function*() {
    const [ns, mx, txt] = yield* Effect.all([ctx.q(name, "NS"), ctx.q(name, "MX"), ctx.q(name, "TXT")], { concurrency: 3 })
    const limitations: Array<string> = []
    if (FAILED_LOOKUP.has(mx.rcode)) limitations.push(`${name}: its MX lookup ${what(mx.rcode)}; its MX hosts were not judged`)
    if (FAILED_LOOKUP.has(txt.rcode)) limitations.push(`${name}: its TXT lookup ${what(txt.rcode)}; its SPF record was not judged`)
    const hosts = ns.rcode === "NOERROR" ? nsHostsAt(ns.answers, name) : null
    const targets = spfTargets(txtsIn(txt.answers))
    const [mxObs, spfObs, delegation] = yield* Effect.all([
      registrations(ctx, mxHostsIn(mx.answers).slice(0, MAX_MAIL_TARGETS), (host, registered): MxObservation => ({ name, host, registered })),
      registrations(ctx, targets.map((t) => t.target), (target, registered): SpfObservation => ({ name, mechanism: targets.find((t) => t.target === target)!.mechanism, target, registered })),
      hosts === null ? Effect.succeed(null) : observeDelegation(ctx.direct, name, hosts)
    ], { concurrency: 3 })
    return {
      names: [],
      delegations: delegation === null ? [] : [delegation.delegation],
      mx: mxObs,
      spf: spfObs,
      limitations: [...(delegation?.limitations ?? []), ...limitations]
    }
  })

/** A CNAME chain's observation, with the HTTP answers or the registration its plan asks for (never both). */
const chainObservation = (ctx: NameContext, name: string, chain: Chain, wildcard: boolean): Effect.Effect<NameObservation> => {
  const base: NameObservation = { name, hops: chain.hops, addresses: chain.addresses, wildcard }
  // A name the wildcard answers is no candidate whatever its target does: nothing to ask.
  if (wildcard) return Effect.succeed(base)
  const p = plan(chain.hops, chain.addresses)
  if (p.fingerprint?.http != null && p.http.length > 0) return Effect.map(ctx.http(name, p.fingerprint.provider, p.fingerprint.http), (http) => ({ ...base, http }))
  if (p.registeredDomainOf !== null) return Effect.map(registrationOfHost(ctx, p.registeredDomainOf), (registered) => ({ ...base, registered }))
  return Effect.succeed(base)
}

/**
 * A name the resolvers cannot answer: the parent zone's referral (or the zone transfer) tells
 * whether it is a delegation; one that no name server answers for explains the failure and is
 * judged as that delegation, otherwise the failed lookup stays a limitation.
 */
const unanswered = (ctx: NameContext, name: string, chain: Chain): Effect.Effect<NameResult> =>
  Effect.gen(function*() {
    const known = ctx.transferred.get(name)
    const ref: Referral = known !== undefined ? { hosts: known } : yield* ctx.referral(name)
    const failed: NameObservation = { name, hops: chain.hops, addresses: chain.addresses, wildcard: false }
    if ("failed" in ref) return { ...NOTHING, names: [failed], limitations: [`${name}: ${ref.failed}; its delegation was not judged`] }
    if (ref.hosts === null) return { ...NOTHING, names: [failed] }
    const d = yield* observeDelegation(ctx.direct, name, ref.hosts)
    const explained = !d.delegation.nameservers.some((n) => n.answer === "answered")
    return { ...NOTHING, names: explained ? [] : [failed], delegations: [d.delegation], limitations: d.limitations }
  })

export const checkName = (ctx: NameContext, name: string): Effect.Effect<NameResult> =>
  Effect.flatMap(resolveChain(ctx.q, name), (chain): Effect.Effect<NameResult> => {
    const first = chain.hops[0]
    const wildcard = name !== ctx.domain && matchesWildcard(chain, ctx.wildcardOf(name))
    // A CNAME owner has no other records: its chain is all there is to judge.
    if (chain.hops.length >= 2) return Effect.map(chainObservation(ctx, name, chain, wildcard), (o) => ({ ...NOTHING, names: [o] }))
    if (first.rcode === "NOERROR") return wildcard ? Effect.succeed(NOTHING) : ownRecords(ctx, name)
    if (FAILED_LOOKUP.has(first.rcode)) return unanswered(ctx, name, chain)
    // NXDOMAIN: nothing there.
    return Effect.succeed(NOTHING)
  })
