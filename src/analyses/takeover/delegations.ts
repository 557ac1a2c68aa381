/**
 * Delegations at and below the domain (docs/operations/takeover.md, "How a check runs"): a name
 * with its own NS set, seen through the resolvers or, where the resolvers cannot answer for the
 * name (every server of a lame delegation refuses it), in the referral the parent zone's servers
 * give; then each name server asked directly for the zone's SOA, and the registered domain of
 * each looked up. Name-server addresses pass the target guard's classification first
 * (docs/security.md): non-public ones are not asked unless ALLOW_PRIVATE_TARGETS, metadata never.
 */
import { Effect } from "effect"
import type { DnsResolverShape } from "../../adapters/dns/DnsResolver"
import type { ResolverAddress } from "../../platform/Config"
import { type Ask, norm, nsHostsAt, registeredDomainOf } from "./lookups"
import type { DelegationObservation, NameserverAnswer, NameserverObservation, RegisteredDomain } from "./observations"

/** At most this many name servers of one delegation, and addresses of one name server, are asked. */
export const MAX_NS_HOSTS = 8
const MAX_ADDRESSES = 2

export interface DirectAsk {
  readonly resolver: DnsResolverShape
  readonly q: Ask
  readonly authPort: number
  readonly timeoutMs: number
  /** Why an address may not be asked (the guard's classification), or null. */
  readonly allowed: (ip: string) => string | null
  /** Cached per check. */
  readonly registration: (domain: string) => Effect.Effect<RegisteredDomain>
}

interface Addresses {
  readonly ips: ReadonlyArray<string>
  /** Set when the host has addresses but the guard allows none of them. */
  readonly refused: string | null
}

const addressesOf = (d: DirectAsk, host: string): Effect.Effect<Addresses> =>
  d.resolver.lookupAddresses(host).pipe(
    Effect.orElseSucceed((): ReadonlyArray<string> => []),
    Effect.map((all) => {
      const ips = [...new Set(all)]
      const ok = ips.filter((ip) => d.allowed(ip) === null)
      return { ips: ok.slice(0, MAX_ADDRESSES), refused: ips.length > 0 && ok.length === 0 ? d.allowed(ips[0]) : null }
    })
  )

const server = (d: DirectAsk, ip: string): ResolverAddress => ({ host: ip, port: d.authPort })

/** How one address answered the zone's SOA, asked without recursion (twice when the first gets no answer). */
const soaAnswer = (d: DirectAsk, zone: string, ip: string): Effect.Effect<NameserverAnswer> => {
  const once = d.resolver.query({ name: zone, type: "SOA", server: server(d, ip), recursionDesired: false, timeoutMs: d.timeoutMs }).pipe(
    Effect.map((a): NameserverAnswer => (a.rcode === "REFUSED" || a.rcode === "NOTAUTH" ? "refused" : a.rcode === "NOERROR" || a.rcode === "NXDOMAIN" ? "answered" : "servfail")),
    // No answer at all (silence, a closed port, garbage) is not a refusal.
    Effect.orElseSucceed((): NameserverAnswer => "timeout")
  )
  return Effect.flatMap(once, (a) => (a === "timeout" ? once : Effect.succeed(a)))
}

const RANK: Readonly<Record<NameserverAnswer, number>> = { answered: 3, refused: 2, servfail: 2, timeout: 1, no_address: 0 }

/** One delegation observed: each name server's registered domain and how it answered for the zone. */
export const observeDelegation = (d: DirectAsk, zone: string, hosts: ReadonlyArray<string>) =>
  Effect.forEach(hosts.slice(0, MAX_NS_HOSTS), (host) =>
    Effect.gen(function*() {
      const reg = registeredDomainOf(host)
      const [registered, addrs] = yield* Effect.all([
        // A name server that is itself a public suffix cannot be registered by anyone.
        reg === null ? Effect.succeed<RegisteredDomain>({ domain: host, exists: true }) : d.registration(reg),
        addressesOf(d, host)
      ], { concurrency: 2 })
      const answers = yield* Effect.forEach(addrs.ips, (ip) => soaAnswer(d, zone, ip), { concurrency: MAX_ADDRESSES })
      const answer = answers.reduce<NameserverAnswer>((best, a) => (RANK[a] > RANK[best] ? a : best), "no_address")
      return {
        ns: { host, registered, answer } satisfies NameserverObservation,
        limitation: addrs.refused === null ? null : `${zone}: name server ${host} was not asked (${addrs.refused})`
      }
    }), { concurrency: MAX_NS_HOSTS }).pipe(
    Effect.map((xs) => ({
      delegation: { zone, nameservers: xs.map((x) => x.ns) } satisfies DelegationObservation,
      limitations: xs.flatMap((x) => (x.limitation === null ? [] : [x.limitation]))
    }))
  )

/** What the parent side says of a name: its NS hosts (a delegation), none, or why it could not be told. */
export type Referral = { readonly hosts: ReadonlyArray<string> | null } | { readonly failed: string }

/**
 * The per-check helpers for referrals, each zone's lookups made once: the zone that holds a
 * name's parent (from the SOA the resolvers give for it), that zone's server addresses, and the
 * referral for the name asked of them without recursion.
 */
export const makeReferrals = (d: DirectAsk) =>
  Effect.gen(function*() {
    const enclosingZone = yield* Effect.cachedFunction((name: string) =>
      Effect.map(d.q(name, "SOA"), (a): string | null => {
        const soa = [...a.answers, ...a.authorities].find((r) => r.type === "SOA")
        return soa === undefined ? null : norm(soa.name)
      }))
    const zoneServers = yield* Effect.cachedFunction((zone: string) =>
      Effect.gen(function*() {
        const ns = yield* d.q(zone, "NS")
        const hosts = (nsHostsAt(ns.answers, zone) ?? []).slice(0, 4)
        const addrs = yield* Effect.forEach(hosts, (h) => addressesOf(d, h), { concurrency: 4 })
        return [...new Set(addrs.flatMap((a) => a.ips))].slice(0, 4)
      }))

    const referral = (name: string): Effect.Effect<Referral> =>
      Effect.gen(function*() {
        const parent = name.split(".").slice(1).join(".")
        if (parent === "") return { hosts: null }
        const zone = yield* enclosingZone(parent)
        if (zone === null) return { failed: `the zone above ${name} could not be found` }
        const ips = yield* zoneServers(zone)
        for (const ip of ips) {
          const a = yield* Effect.either(d.resolver.query({ name, type: "NS", server: server(d, ip), recursionDesired: false, timeoutMs: d.timeoutMs }))
          if (a._tag === "Left" || (a.right.rcode !== "NOERROR" && a.right.rcode !== "NXDOMAIN")) continue
          return { hosts: nsHostsAt(a.right.authorities, name) ?? nsHostsAt(a.right.answers, name) }
        }
        return { failed: `no server of ${zone} answered for ${name}${ips.length === 0 ? " (none could be asked)" : ""}` }
      })

    return { referral }
  })
