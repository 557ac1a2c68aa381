/** What the gatherers share: the resolver, the audit's limits, and one queried nameserver address. */
import type { Effect } from "effect"
import type { ResolverAddress } from "../../../platform/Config"
import type { DnsError, DnsResolverShape } from "../../../adapters/dns/DnsResolver"
import type { ResolverHealthShape } from "../../../adapters/dns/ResolverHealth"

/** One (nameserver, address) pair queried directly. */
export interface Target {
  readonly nameserver: string
  readonly ip: string
  readonly server: ResolverAddress
}

export interface Gatherer {
  readonly resolver: DnsResolverShape
  /** Asked before a failing or negative answer is blamed on the zone (docs/dns.md, "Own resolver health"). */
  readonly health: ResolverHealthShape
  /** The configured recursive resolvers (asked for the SOA next to the authoritative servers). */
  readonly recursive: ReadonlyArray<ResolverAddress>
  readonly authPort: number
  readonly timeoutMs: number
  /** Time allowed to one check (ZoneHygiene bounds each check by it). */
  readonly checkBudgetMs: number
  /** A direct query to a nameserver address waits for that address's rate limit first. */
  readonly limited: <A>(t: Target, name: string, eff: Effect.Effect<A, DnsError>) => Effect.Effect<A, DnsError>
}
