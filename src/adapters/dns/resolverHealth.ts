/**
 * Own resolver health (docs/dns.md, "Own resolver health"): whether the service's own recursive
 * resolvers can answer for the root zone (its NS and DNSKEY sets). When they cannot (a broken or
 * filtering resolver), an operation that resolves names cannot tell a target's fault from its
 * own: it answers 502 upstream_unavailable, never 404 or a finding against the target. This is
 * the one place that decides it; each operation decides only when to ask.
 */
import { Effect } from "effect"
import { UpstreamUnavailable } from "../../kernel/errors"
import type { DnsResolverShape } from "./DnsResolver"

/** Can the service's resolvers answer for the root zone itself (its NS and DNSKEY sets)? Never fails. */
export const rootAnswers = (resolver: DnsResolverShape): Effect.Effect<boolean> =>
  Effect.all([
    resolver.query({ name: ".", type: "NS" }),
    resolver.query({ name: ".", type: "DNSKEY", dnssec: true })
  ], { concurrency: 2 }).pipe(
    Effect.map(([ns, keys]) =>
      ns.rcode === "NOERROR" && ns.answers.some((a) => a.type === "NS") && keys.rcode === "NOERROR" && keys.answers.some((a) => a.type === "DNSKEY")
    ),
    Effect.orElseSucceed(() => false)
  )

/** The 502 of an operation on `subject` when the service's own resolvers failed (`what` says how). */
export const resolversFailed = (subject: string, what: string) =>
  new UpstreamUnavailable({ message: `the service's DNS resolvers cannot answer for the root zone (${what}); no report can be made for ${subject}` })
