/**
 * Blocklist reputation (docs/operations/blocklist.md): whether an address or a domain is on the
 * DNSBLs of DNSBL_IP_ZONES and DNSBL_DOMAIN_ZONES, asked as RFC 5782 describes. A check:
 *  1. parses the target (an address, or a domain by the domain parameter's rules);
 *  2. at once: for a domain, its A, AAAA and MX hosts' addresses (lookups.ts), and every list's
 *     RFC 5782 test-point verdict (cached per list for DNSBL_TEST_TTL_S);
 *  3. for a domain that is NXDOMAIN: 404, once ResolverHealth confirms that the service's own
 *     resolvers answer for the root (else 502, docs/dns.md "Own resolver health");
 *  4. plans the (zone, item) queries (plan.ts): the domain on the domain lists, each public address
 *     on the IP lists; none on a list that failed its test points;
 *  5. asks them all, QUERY_CONCURRENCY at once, each under DNS_TIMEOUT_MS, the TXT record of each
 *     listing after its A answer, all within the check's budget (what is not answered in time is
 *     `error`, never `not_listed`);
 *  6. when a lookup failed, confirms the own resolvers before reporting it against a list;
 *  7. assembles the report (report.ts, pure).
 * A non-public address (the target's or a domain's) is asked of no list unless
 * ALLOW_PRIVATE_TARGETS; the REST operation, the MCP tool and the monitor kind refuse such a
 * target with the target guard before they get here (400 target_forbidden).
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { DnsResolver } from "../../adapters/dns/DnsResolver"
import { ownResolversDown, ResolverHealth } from "../../adapters/dns/ResolverHealth"
import { classifyAddress } from "../../adapters/probe/addressClass"
import { InvalidRequest, NotFound, type UpstreamUnavailable } from "../../kernel/errors"
import { AppConfig } from "../../platform/Config"
import { makeMailDns } from "../mail/resolverDns"
import { askList, makeVerdicts, resolveHosts, type HostsOutcome } from "./lookups"
import { NO_HOSTS, parseTarget, plan } from "./plan"
import { buildReport, queriesToAsk, type QueryOutcome, verdictsOf } from "./report"
import type { BlocklistReport } from "./schema"
import type { ListKind } from "./testPoints"

export interface BlocklistShape {
  /** `target`: an IPv4/IPv6 address or a domain (already decoded by the operation's schema). */
  readonly check: (target: string) => Effect.Effect<BlocklistReport, InvalidRequest | NotFound | UpstreamUnavailable>
}

/** (zone, item) queries in flight at once in one check. */
export const QUERY_CONCURRENCY = 64
/** At most this many of a domain's addresses are asked (each on every IP list). */
export const MAX_ADDRESSES = 32
/** Room left before the operation's deadline to assemble and send the report. */
const REPORT_MARGIN_MS = 1_000

export const makeBlocklist = Effect.gen(function*() {
  const config = yield* AppConfig
  const resolver = yield* DnsResolver
  const health = yield* ResolverHealth
  const dns = makeMailDns(resolver)
  const zones = { ip: config.dnsblIpZones, domain: config.dnsblDomainZones }
  const verdictOf = yield* makeVerdicts(dns, health, config.dnsblTestTtlS, zones.ip.length + zones.domain.length)
  const budgetMs = Math.max(1_000, config.operationDeadlineMs - REPORT_MARGIN_MS)
  const withhold = (address: string) => !config.allowPrivateTargets && classifyAddress(address) !== "public"

  const check = Effect.fn("Blocklist.check")(function*(input: string) {
    const target = parseTarget(input)
    if (target instanceof InvalidRequest) return yield* target
    const name = target.kind === "ip" ? target.item.value : target.domain
    const t0 = yield* Clock.currentTimeMillis
    const checkedAt = new Date(t0).toISOString()

    // The domain's hosts and every list's verdict at once: the verdicts are cached, and a list
    // the plan turns out not to need costs nothing the next time.
    const lists: ReadonlyArray<readonly [string, ListKind]> = [
      ...(target.kind === "domain" ? zones.domain.map((z) => [z, "domain"] as const) : []),
      ...zones.ip.map((z) => [z, "ip"] as const)
    ]
    const [resolved, verdicts] = yield* Effect.all([
      target.kind === "domain" ? resolveHosts(dns, target.domain) : Effect.succeed<HostsOutcome>({ hosts: NO_HOSTS, nxdomain: false, failed: false, limitations: [] }),
      Effect.forEach(lists, ([zone, kind]) => Effect.map(verdictOf(zone, kind), (verdict) => ({ zone, kind, verdict })), { concurrency: "unbounded" })
    ], { concurrency: 2 }).pipe(Effect.catchTag("RootUnanswered", (e) => ownResolversDown(name, e.reason)))
    if (resolved.nxdomain || resolved.failed) yield* health.confirm(name)
    if (resolved.nxdomain) return yield* new NotFound({ message: `domain ${name} does not exist (the DNS answers NXDOMAIN for it)` })

    const p = plan(target, zones, resolved.hosts, { withhold, maxAddresses: MAX_ADDRESSES })
    const byList = verdictsOf(verdicts)
    const outcomes = new Map<string, QueryOutcome>()
    const now = yield* Clock.currentTimeMillis
    yield* Effect.forEach(queriesToAsk(p, byList), (q) => Effect.map(askList(dns, q.zone, q.name), (o) => { outcomes.set(q.name, o) }), {
      concurrency: QUERY_CONCURRENCY,
      discard: true
    }).pipe(Effect.timeoutOption(Duration.millis(Math.max(0, t0 + budgetMs - now))))
    // A list that did not answer is reported as such only when the service's own resolvers answer.
    if ([...outcomes.values()].some((o) => o.answer._tag === "Failed")) yield* health.confirm(name)

    const report = buildReport(p, byList, outcomes, checkedAt)
    return { ...report, limitations: [...resolved.limitations, ...report.limitations] } satisfies BlocklistReport
  })

  return { check } satisfies BlocklistShape
})

export class Blocklist extends Context.Tag("domain-intel/Blocklist")<Blocklist, BlocklistShape>() {
  static readonly Live: Layer.Layer<Blocklist, never, DnsResolver | ResolverHealth | AppConfig> = Layer.effect(this, makeBlocklist)
}
