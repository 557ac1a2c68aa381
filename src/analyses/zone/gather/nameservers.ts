/**
 * Gathering the zone's nameservers: the NS set and each name's addresses, judged by the target
 * guard's classification (non-public addresses are not queried unless ALLOW_PRIVATE_TARGETS,
 * cloud metadata addresses never; docs/security.md).
 */
import { Effect } from "effect"
import { recordsOf } from "../../../adapters/dns/DnsResolver"
import { classifyAddress } from "../../../adapters/probe/guard"
import { NotFound } from "../../../kernel/errors"
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

export const enumerate = (g: Gatherer, allowed: (ip: string) => string | null, zone: string) =>
  Effect.gen(function*() {
    const ans = yield* Effect.either(g.resolver.query({ name: zone, type: "NS" }))
    // Broken zone or broken resolver? The resolvers must answer for the root (its NS and
    // DNSKEY) before the zone is blamed; otherwise nothing can be judged about it (502).
    if (ans._tag === "Left") {
      yield* g.health.confirm(zone, { dnssec: true })
      return { nsError: errText(ans.left), nameservers: [] as Array<NameserverObservation> }
    }
    if (ans.right.rcode === "NXDOMAIN") {
      yield* g.health.confirm(zone, { dnssec: true })
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
