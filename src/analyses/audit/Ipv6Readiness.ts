/**
 * IPv6 readiness observations, as internet.nl makes them (docs/operations/domain-audit.md,
 * "IPv6"): the web host's A and AAAA addresses, which of them accept a TCP connection on 443
 * and 80, and its page fetched over each family on the same port; each name server's AAAA
 * addresses and whether each answers a DNS query over IPv6. The verdicts are ipv6.ts's (pure).
 * The target guard judges every address before it is contacted: one it refuses (non-public
 * unless ALLOW_PRIVATE_TARGETS, metadata always) is reported as refused, never contacted.
 */
import { Context, Data, Effect, Layer } from "effect"
import { dataOf, type DnsAnswerSet, DnsResolver } from "../../adapters/dns/DnsResolver"
import { mayContact } from "../../adapters/probe/guard"
import { HttpProbe } from "../../adapters/probe/HttpProbe"
import { tcpOpens } from "../../adapters/probe/tcp"
import { AppConfig } from "../../platform/Config"
import { type AddressProbe, COMPARED_BYTES, type NameserverIpv6, type WebIpv6Observation } from "./ipv6"

/** A lookup the observation needs did not answer (the audit reports it as a missing input). */
export class ObservationFailed extends Data.TaggedError("ObservationFailed")<{ readonly reason: string }> {
  get message() { return this.reason }
}

export interface Ipv6ReadinessShape {
  /** The web host over both families. */
  readonly web: (host: string) => Effect.Effect<WebIpv6Observation, ObservationFailed>
  /** The name servers of the zone `domain` is in, over IPv6. */
  readonly nameservers: (domain: string) => Effect.Effect<ReadonlyArray<NameserverIpv6>, ObservationFailed>
}

/** Addresses looked at per host and name servers per zone (a hostile zone stays cheap). */
export const MAX_ADDRESSES = 8
export const MAX_NAMESERVERS = 10
/** internet.nl tries the web host on both ports; the page is compared on 80 first, then 443. */
const WEB_PORTS = [443, 80] as const
const PAGE_PORTS = [80, 443] as const
const CONNECT_TIMEOUT_MS = 5000
const PAGE_TIMEOUT_MS = 10_000

const failed = (what: string, e: { readonly message: string }) => new ObservationFailed({ reason: `${what}: ${e.message}` })

export const makeIpv6Readiness = Effect.gen(function*() {
  const config = yield* AppConfig
  const resolver = yield* DnsResolver
  const probe = yield* HttpProbe
  const allowed = (address: string) => mayContact(address, config.allowPrivateTargets)

  /** Records of `type` at `name`: NXDOMAIN and NODATA are none; an error rcode or no answer fails. */
  const lookup = (name: string, type: "A" | "AAAA" | "NS") =>
    resolver.query({ name, type }).pipe(
      Effect.mapError((e) => failed(`${type} lookup of ${name}`, e)),
      Effect.filterOrFail(
        (ans: DnsAnswerSet) => ans.rcode === "NOERROR" || ans.rcode === "NXDOMAIN",
        (ans) => new ObservationFailed({ reason: `${type} lookup of ${name}: ${ans.rcode}` })
      )
    )
  const addresses = (name: string, type: "A" | "AAAA") =>
    // Sorted: a resolver rotates the records it answers, and the report would follow it.
    Effect.map(lookup(name, type), (ans): ReadonlyArray<string> => [...new Set(dataOf(ans.answers, type))].sort().slice(0, MAX_ADDRESSES))

  const tryPorts = (address: string): Effect.Effect<AddressProbe> =>
    allowed(address)
      ? Effect.map(
        Effect.forEach(WEB_PORTS, (port) => tcpOpens(address, port, CONNECT_TIMEOUT_MS), { concurrency: "unbounded" }),
        (open) => ({ address, ports: WEB_PORTS.filter((_, i) => open[i]) })
      )
      : Effect.succeed({ address, ports: [], refused: true })

  /** The page at `/` of `host` on `port`, from `address`, as internet.nl reads it: no redirect followed, at most 500,000 bytes. */
  const page = (host: string, port: 80 | 443, address: string) =>
    probe.fetch({
      url: `${port === 443 ? "https" : "http"}://${host}/`,
      address,
      method: "GET",
      timeoutMs: PAGE_TIMEOUT_MS,
      maxBodyBytes: COMPARED_BYTES,
      followRedirects: false,
      decompress: true
    }).pipe(
      Effect.map((o) => (o.error === null && o.response !== null ? o.response.body : null)),
      Effect.orElseSucceed(() => null)
    )

  /** The first port both families answer on whose page both give (internet.nl: 80, else 443). */
  const pages = (host: string, v4: ReadonlyArray<AddressProbe>, v6: ReadonlyArray<AddressProbe>, ports: ReadonlyArray<80 | 443> = PAGE_PORTS): Effect.Effect<WebIpv6Observation["pages"]> => {
    if (ports.length === 0) return Effect.succeed(null)
    const [port, ...rest] = ports
    const a = v4.find((p) => p.ports.includes(port))
    const b = v6.find((p) => p.ports.includes(port))
    if (a === undefined || b === undefined) return pages(host, v4, v6, rest)
    return Effect.flatMap(
      Effect.all([page(host, port, a.address), page(host, port, b.address)], { concurrency: 2 }),
      ([p4, p6]) => (p4 !== null && p6 !== null ? Effect.succeed({ v4: p4, v6: p6 }) : pages(host, v4, v6, rest))
    )
  }

  const web = Effect.fn("Ipv6Readiness.web")(function*(host: string) {
    const [a, aaaa] = yield* Effect.all([addresses(host, "A"), addresses(host, "AAAA")], { concurrency: 2 })
    const [ipv4, ipv6] = yield* Effect.all([
      Effect.forEach(a, tryPorts, { concurrency: "unbounded" }),
      Effect.forEach(aaaa, tryPorts, { concurrency: "unbounded" })
    ], { concurrency: 2 })
    return { host, ipv4, ipv6, pages: yield* pages(host, ipv4, ipv6) } satisfies WebIpv6Observation
  })

  /** The NS set of the zone `name` is in: the closest enclosing name that has one. */
  const zoneNameservers = (name: string): Effect.Effect<{ readonly zone: string; readonly ns: ReadonlyArray<string> }, ObservationFailed> =>
    Effect.flatMap(lookup(name, "NS"), (ans) => {
      const ns = dataOf(ans.answers, "NS").map((n) => n.toLowerCase())
      if (ns.length > 0) return Effect.succeed({ zone: name, ns: [...new Set(ns)].sort().slice(0, MAX_NAMESERVERS) })
      const dot = name.indexOf(".")
      return dot < 0 ? Effect.fail(new ObservationFailed({ reason: `no NS record at or above ${name}` })) : zoneNameservers(name.slice(dot + 1))
    })

  /** Whether `address` answers the zone's SOA question itself (no recursion), over IPv6. */
  const answers = (zone: string, address: string) =>
    resolver.query({ name: zone, type: "SOA", server: { host: address, port: config.dnsAuthPort }, recursionDesired: false }).pipe(
      Effect.map((ans) => ans.rcode === "NOERROR"),
      Effect.orElseSucceed(() => false)
    )

  const nameservers = Effect.fn("Ipv6Readiness.nameservers")(function*(domain: string) {
    const { zone, ns } = yield* zoneNameservers(domain)
    return yield* Effect.forEach(ns, (name) =>
      Effect.flatMap(addresses(name, "AAAA"), (v6) =>
        Effect.map(
          Effect.forEach(v6, (address) => (allowed(address) ? answers(zone, address) : Effect.succeed(null)), { concurrency: "unbounded" }),
          (answered): NameserverIpv6 => ({ name, ipv6: v6.map((address, i) => ({ address, answered: answered[i] })) })
        )), { concurrency: "unbounded" })
  })

  return { web, nameservers } satisfies Ipv6ReadinessShape
})

export class Ipv6Readiness extends Context.Tag("domain-intel/Ipv6Readiness")<Ipv6Readiness, Ipv6ReadinessShape>() {
  static readonly Live = Layer.effect(this, makeIpv6Readiness)
}
