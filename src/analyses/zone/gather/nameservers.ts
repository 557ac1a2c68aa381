/**
 * Gathering the zone's nameservers: the NS set and each name's addresses, judged by the target
 * guard's classification (non-public addresses are not queried unless ALLOW_PRIVATE_TARGETS,
 * cloud metadata addresses never; docs/security.md).
 */
import { Effect } from "effect"
import { recordsOf } from "../../../adapters/dns/DnsResolver"
import { classifyAddress } from "../../../adapters/probe/guard"
import { NotFound, UpstreamUnavailable } from "../../../kernel/errors"
import { errText, norm } from "../model/answers"
import { capTargets } from "../model/limits"
import type { NameserverObservation } from "../model/observations"
import type { Gatherer, Target } from "./context"

/** Why an address may not be queried, or null when it may. */
export const disallowed = (allowPrivateTargets: boolean) => (ip: string): string | null => {
  const c = classifyAddress(ip)
  if (c === "metadata") return "cloud metadata address"
  if (c === "private" && !allowPrivateTargets) return "non-public address"
  return null
}

/** Can the service's resolvers answer for the root zone itself (its NS and DNSKEY sets)? */
export const rootAnswers = (g: Gatherer) =>
  Effect.all([
    g.resolver.query({ name: ".", type: "NS" }),
    g.resolver.query({ name: ".", type: "DNSKEY", dnssec: true })
  ], { concurrency: 2 }).pipe(
    Effect.map(([ns, keys]) =>
      ns.rcode === "NOERROR" && ns.answers.some((a) => a.type === "NS") && keys.rcode === "NOERROR" && keys.answers.some((a) => a.type === "DNSKEY")
    ),
    Effect.orElseSucceed(() => false)
  )

/** The service's resolvers failed, not the zone (DECISIONS "Domain parameters"): 502. */
export const resolversFailed = (zone: string, what: string) =>
  new UpstreamUnavailable({ message: `the service's DNS resolvers cannot answer for the root zone (${what}); no report can be made for ${zone}` })

export const enumerate = (g: Gatherer, allowed: (ip: string) => string | null, zone: string) =>
  Effect.gen(function*() {
    const ans = yield* Effect.either(g.resolver.query({ name: zone, type: "NS" }))
    // Broken zone or broken resolver? Ask the resolvers for the root: if they cannot answer
    // that either, nothing can be judged about the zone.
    if (ans._tag === "Left") {
      if (!(yield* rootAnswers(g))) return yield* resolversFailed(zone, errText(ans.left))
      return { nsError: errText(ans.left), nameservers: [] as Array<NameserverObservation> }
    }
    if (ans.right.rcode === "NXDOMAIN") {
      if (!(yield* rootAnswers(g))) return yield* resolversFailed(zone, `NXDOMAIN for ${zone}`)
      return yield* new NotFound({ message: `zone ${zone} does not exist (the DNS answers NXDOMAIN for it)` })
    }
    const names = [...new Set(recordsOf(ans.right.answers, "NS").filter((a) => norm(a.name) === zone).map((a) => norm(a.data)))].slice(0, 13)
    if (names.length === 0) return { nsError: `no NS records at ${zone} (not a zone apex?)`, nameservers: [] }
    const nameservers = yield* Effect.forEach(names, (name) =>
      g.resolver.lookupAddresses(name).pipe(
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

/** (nameserver, ip) pairs that may be queried directly: allowed ones, at most `max`. */
export const targets = (g: Gatherer, allowed: (ip: string) => string | null, ns: ReadonlyArray<NameserverObservation>, max: number) =>
  capTargets(
    ns.map((n) => n.ips.filter((ip) => allowed(ip) === null).map((ip): Target => ({ nameserver: n.name, ip, server: { host: ip, port: g.authPort } }))),
    max
  )
