/**
 * Own resolver health (docs/dns.md, "Own resolver health"): the one place that tells "the target's
 * DNS is broken or absent" from "the service's own resolvers cannot answer". Whenever the first
 * lookup of an operation's target fails or says NXDOMAIN, the resolvers are asked for the root
 * zone itself (its NS and DNSKEY sets); if they cannot answer that either, the failure is theirs:
 * 502 upstream_unavailable, never a 404 or a finding against the target. A target that is
 * NXDOMAIN while the root resolves does not exist (404); a target whose lookup fails while the
 * root resolves has broken DNS of its own (the operation reports it).
 */
import { Effect, type Either } from "effect"
import type { DnsAnswerSet, DnsError, DnsResolverShape } from "../../adapters/dns/DnsResolver"
import { NotFound, UpstreamUnavailable } from "../../kernel/errors"

/** Can the service's resolvers answer for the root zone itself (its NS and DNSKEY sets)? */
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

/** The service's resolvers failed, not the target: 502. */
export const resolversFailed = (target: string, what: string) =>
  new UpstreamUnavailable({ message: `the service's DNS resolvers cannot answer for the root zone (${what}); no report can be made for ${target}` })

const describe = (e: DnsError): string =>
  e._tag === "DnsTimeout" ? "timeout" : e._tag === "DnsRcode" ? e.rcode : e._tag === "DnsMalformed" ? `malformed answer: ${e.reason}` : e.reason

/**
 * Judges the first lookup of a target: NXDOMAIN is 404 (`noun` names what does not exist: "zone",
 * "domain") unless the root does not resolve either (502); a failed lookup is 502 when the root does
 * not resolve, else handed back (the target's own broken DNS). Any other answer passes as it is.
 */
export const judgeTargetLookup = (
  resolver: DnsResolverShape,
  target: string,
  answer: Either.Either<DnsAnswerSet, DnsError>,
  noun = "domain"
): Effect.Effect<Either.Either<DnsAnswerSet, DnsError>, UpstreamUnavailable | NotFound> =>
  Effect.gen(function*() {
    if (answer._tag === "Left") {
      if (!(yield* rootAnswers(resolver))) return yield* resolversFailed(target, describe(answer.left))
      return answer
    }
    if (answer.right.rcode === "NXDOMAIN") {
      if (!(yield* rootAnswers(resolver))) return yield* resolversFailed(target, `NXDOMAIN for ${target}`)
      return yield* new NotFound({ message: `${noun} ${target} does not exist (the DNS answers NXDOMAIN for it)` })
    }
    return answer
  })
