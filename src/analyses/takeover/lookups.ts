/**
 * The DNS side of a takeover check, through the service's resolvers (docs/operations/takeover.md,
 * "How a check runs"): one name's CNAME chain hop by hop, its own NS, MX and TXT sets, the
 * zone's wildcard answer, and whether a registered domain exists. Every lookup answers; a
 * resolver failure or timeout is an `Rcode` the classifier turns into a limitation, never an
 * error of the whole check.
 */
import { Effect } from "effect"
import { type DnsError, type DnsRecord, type DnsResolverShape, recordsOf, txtText } from "../../adapters/dns/DnsResolver"
import { getDomain } from "../../kernel/publicSuffix"
import type { Hop, Rcode, RegisteredDomain } from "./observations"

/** A resolver's answer, or why there is none. */
export interface Answer {
  readonly rcode: Rcode
  readonly answers: ReadonlyArray<DnsRecord>
  readonly authorities: ReadonlyArray<DnsRecord>
}

export const norm = (n: string) => n.toLowerCase().replace(/\.$/, "")

const failed = (e: DnsError): Answer => ({
  rcode: e._tag === "DnsTimeout" ? "TIMEOUT" : e._tag === "DnsRcode" && e.rcode === "REFUSED" ? "REFUSED" : "SERVFAIL",
  answers: [],
  authorities: []
})

const answerOf = (rcode: string, answers: ReadonlyArray<DnsRecord>, authorities: ReadonlyArray<DnsRecord>): Answer => ({
  rcode: rcode === "NOERROR" || rcode === "NXDOMAIN" || rcode === "REFUSED" ? rcode : "SERVFAIL",
  answers,
  authorities
})

/**
 * One question through the recursive resolvers; never fails. A question that times out is asked
 * once more, as a stub resolver does (a lost datagram, or a resolver still chasing a slow server
 * the first time): only then is the name's lookup a timeout.
 */
export const ask = (resolver: DnsResolverShape) => (name: string, type: string): Effect.Effect<Answer> => {
  const once = resolver.query({ name, type }).pipe(
    Effect.map((a) => answerOf(a.rcode, a.answers, a.authorities)),
    Effect.catchAll((e) => Effect.succeed(failed(e)))
  )
  return Effect.flatMap(once, (a) => (a.rcode === "TIMEOUT" ? once : Effect.succeed(a)))
}

export type Ask = ReturnType<typeof ask>

/** At most this many CNAME hops are followed from a name (resolvers stop near here too). */
export const MAX_HOPS = 8

const cnameOf = (answers: ReadonlyArray<DnsRecord>, owner: string): string | null =>
  recordsOf(answers, "CNAME").find((r) => norm(r.name) === owner)?.data.toLowerCase() ?? null

const addressesOf = (answers: ReadonlyArray<DnsRecord>, owner: string): Array<string> =>
  answers.flatMap((r) => ((r.type === "A" || r.type === "AAAA") && norm(r.name) === owner ? [r.data] : []))

export interface Chain {
  readonly hops: ReadonlyArray<Hop>
  /** A and AAAA addresses at the end of the chain. */
  readonly addresses: ReadonlyArray<string>
}

/**
 * A name's CNAME chain: each A answer's CNAME records are walked from the name asked (a resolver
 * sends the whole chain it followed); where an answer stops at a CNAME target without its
 * records, that target is asked next. A loop or a chain longer than MAX_HOPS ends the walk.
 * A chain that ends in a name without A records is asked for AAAA there.
 */
export const resolveChain = (q: Ask, name: string): Effect.Effect<Chain> =>
  Effect.gen(function*() {
    const hops: Array<Hop> = []
    const seen = new Set<string>()
    let current = name
    for (;;) {
      const a = yield* q(current, "A")
      if (a.rcode !== "NOERROR" && a.rcode !== "NXDOMAIN") {
        hops.push({ name: current, rcode: a.rcode, cname: null })
        return { hops, addresses: [] }
      }
      let x = current
      for (let c = cnameOf(a.answers, x); c !== null; c = cnameOf(a.answers, x)) {
        hops.push({ name: x, rcode: "NOERROR", cname: c })
        seen.add(x)
        if (seen.has(c) || hops.length >= MAX_HOPS) {
          hops.push({ name: c, rcode: seen.has(c) ? "LOOP" : "TOO_LONG", cname: null })
          return { hops, addresses: [] }
        }
        x = c
      }
      const ips = addressesOf(a.answers, x)
      // The answer stopped at a target without saying anything about it: ask the target itself.
      if (x !== current && ips.length === 0 && a.rcode === "NOERROR") {
        current = x
        continue
      }
      hops.push({ name: x, rcode: a.rcode, cname: null })
      if (ips.length > 0 || a.rcode !== "NOERROR" || hops.length < 2) return { hops, addresses: ips }
      const aaaa = yield* q(x, "AAAA")
      return { hops, addresses: aaaa.rcode === "NOERROR" ? addressesOf(aaaa.answers, x) : [] }
    }
  })

/** What a random label under a name answers (the wildcard record there), or null when nothing. */
export interface WildcardAnswer {
  readonly cname: string | null
  readonly ips: ReadonlyArray<string>
}

/** The wildcard at `parent`: the answer to an A question for a random label under it. */
export const wildcardAt = (q: Ask, parent: string, label: string): Effect.Effect<WildcardAnswer | null> =>
  Effect.map(q(`${label}.${parent}`, "A"), (a) => {
    const owner = `${label}.${parent}`
    const cname = cnameOf(a.answers, owner)
    if (cname !== null) return { cname, ips: [] }
    if (a.rcode !== "NOERROR") return null
    return { cname: null, ips: addressesOf(a.answers, owner).sort() }
  })

/** Whether a chain is what the wildcard answers (the same first CNAME target, or the same addresses without one). */
export const matchesWildcard = (chain: Chain, wc: WildcardAnswer | null): boolean => {
  if (wc === null) return false
  const first = chain.hops[0]
  if (first === undefined || (first.rcode !== "NOERROR" && first.rcode !== "NXDOMAIN")) return false
  if (wc.cname !== null) return first.cname === wc.cname
  return first.cname === null && first.rcode === "NOERROR" && [...chain.addresses].sort().join(",") === wc.ips.join(",")
}

/** The registered domain of a name: its public suffix (ICANN section) plus one label, or null. */
export const registeredDomainOf = (name: string): string | null => getDomain(name, { allowPrivateDomains: false }) ?? null

/**
 * Whether a registered domain exists: NXDOMAIN for its NS set means it does not (anyone may
 * register it); any answer means it does; a failure is asked again as SOA, then left undecided.
 */
export const registrationOf = (q: Ask) => (domain: string): Effect.Effect<RegisteredDomain> =>
  Effect.gen(function*() {
    for (const type of ["NS", "SOA"]) {
      const a = yield* q(domain, type)
      if (a.rcode === "NXDOMAIN") return { domain, exists: false }
      if (a.rcode === "NOERROR") return { domain, exists: true }
    }
    return { domain, exists: null }
  })

/** A name's NS hosts from an answer owned by that name (a delegation), or null when there is none. */
export const nsHostsAt = (records: ReadonlyArray<DnsRecord>, owner: string): ReadonlyArray<string> | null => {
  const hosts = [...new Set(recordsOf(records, "NS").filter((r) => norm(r.name) === owner).map((r) => norm(r.data)))]
  return hosts.length > 0 ? hosts : null
}

/** MX exchanges of an answer, without the null MX (RFC 7505). */
export const mxHostsIn = (answers: ReadonlyArray<DnsRecord>): ReadonlyArray<string> =>
  [...new Set(recordsOf(answers, "MX").map((r) => norm(r.data.exchange)).filter((h) => h !== "" && h !== "."))]

/** TXT strings of an answer. */
export const txtsIn = (answers: ReadonlyArray<DnsRecord>): ReadonlyArray<string> => recordsOf(answers, "TXT").map(txtText)
