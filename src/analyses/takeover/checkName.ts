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
import type { Schemes } from "./evidence"
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
  readonly http: (name: string, provider: string, schemes: Schemes) => Effect.Effect<{ readonly http?: HttpAnswer; readonly https?: HttpAnswer }>
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

/** MX hosts and SPF targets of a name that has records of its own. */
const mailOf = (ctx: NameContext, name: string) =>
  Effect.gen(function*() {
    const [mx, txt] = yield* Effect.all([ctx.q(name, "MX"), ctx.q(name, "TXT")], { concurrency: 2 })
    const limitations: Array<string> = []
    if (FAILED_LOOKUP.has(mx.rcode)) limitations.push(`${name}: its MX lookup ${what(mx.rcode)}; its MX hosts were not judged`)
    if (FAILED_LOOKUP.has(txt.rcode)) limitations.push(`${name}: its TXT lookup ${what(txt.rcode)}; its SPF record was not judged`)
    const hosts = mxHostsIn(mx.answers).slice(0, MAX_MAIL_TARGETS)
    const targets = spfTargets(txtsIn(txt.answers))
    const [mxObs, spfObs] = yield* Effect.all([
      Effect.forEach(hosts, (host) => Effect.map(registrationOfHost(ctx, host), (registered): MxObservation => ({ name, host, registered })), { concurrency: "unbounded" }),
      Effect.forEach(targets, (t) => Effect.map(registrationOfHost(ctx, t.target), (registered): SpfObservation => ({ name, ...t, registered })), { concurrency: "unbounded" })
    ], { concurrency: 2 })
    return { mx: mxObs, spf: spfObs, limitations }
  })

/** The chain's observation, with the HTTP answers or the registration its plan asks for. */
const chainObservation = (ctx: NameContext, name: string, chain: Chain, wildcard: boolean): Effect.Effect<NameObservation> =>
  Effect.gen(function*() {
    const base: NameObservation = { name, hops: chain.hops, addresses: chain.addresses, wildcard }
    // A name the wildcard answers is no candidate whatever its target does: nothing to ask.
    if (wildcard) return base
    const p = plan(chain.hops, chain.addresses)
    const [http, registered] = yield* Effect.all([
      p.fingerprint !== null && p.http.length > 0 ? ctx.http(name, p.fingerprint.provider, p.http) : Effect.succeed(undefined),
      p.registeredDomainOf !== null ? registrationOfHost(ctx, p.registeredDomainOf) : Effect.succeed(undefined)
    ], { concurrency: 2 })
    return { ...base, ...(http === undefined ? {} : { http }), ...(registered === undefined ? {} : { registered }) }
  })

export const checkName = (ctx: NameContext, name: string): Effect.Effect<NameResult> =>
  Effect.gen(function*() {
    const chain = yield* resolveChain(ctx.q, name)
    const first = chain.hops[0]
    const wildcard = name !== ctx.domain && matchesWildcard(chain, ctx.wildcardOf(name))
    const own = first.rcode === "NOERROR" && first.cname === null && !wildcard
    const unanswered = chain.hops.length === 1 && FAILED_LOOKUP.has(first.rcode)

    // A name with records of its own: its NS set, MX hosts and SPF targets, all at once.
    const [nsHosts, mail, obs] = yield* Effect.all([
      own
        ? Effect.map(ctx.q(name, "NS"), (a) => (a.rcode === "NOERROR" ? { hosts: nsHostsAt(a.answers, name) } : { hosts: null }))
        : unanswered
          ? (ctx.transferred.has(name) ? Effect.succeed<Referral>({ hosts: ctx.transferred.get(name)! }) : ctx.referral(name))
          : Effect.succeed<Referral>({ hosts: null }),
      own ? mailOf(ctx, name) : Effect.succeed({ mx: [], spf: [], limitations: [] as ReadonlyArray<string> }),
      chain.hops.length >= 2 || unanswered ? chainObservation(ctx, name, chain, wildcard) : Effect.succeed(null)
    ], { concurrency: 3 })

    const hosts = "hosts" in nsHosts ? nsHosts.hosts : null


    const delegation = hosts === null ? null : yield* observeDelegation(ctx.direct, name, hosts)
    // An unanswered name whose delegation explains it (no name server answers for the zone) is
    // judged as that delegation; otherwise its failed lookup stays a limitation.
    const explained = unanswered && delegation !== null && !delegation.delegation.nameservers.some((n) => n.answer === "answered")
    return {
      names: obs === null || explained ? [] : [obs],
      delegations: delegation === null ? [] : [delegation.delegation],
      mx: mail.mx,
      spf: mail.spf,
      limitations: [
        ...("failed" in nsHosts ? [`${name}: ${nsHosts.failed}; its delegation was not judged`] : []),
        ...(delegation?.limitations ?? []),
        ...mail.limitations
      ]
    }
  })
