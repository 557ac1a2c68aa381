/**
 * The DNS side of a blocklist check (docs/operations/blocklist.md, "How a check runs"): the
 * addresses of a domain's hosts, each list's RFC 5782 test-point verdict kept in an Effect
 * `Cache` for DNSBL_TEST_TTL_S, and one (zone, item) query with the TXT record of a listing.
 * Every question goes through the service's recursive resolvers under DNS_TIMEOUT_MS; an answer
 * that does not come is a `Failed` lookup (an `error` entry), never "not listed".
 */
import { Cache, Data, Duration, Effect, Exit, Fiber } from "effect"
import type { ResolverHealthShape } from "../../adapters/dns/ResolverHealth"
import { failureOf as rootFailure } from "../../adapters/dns/ResolverHealth"
import type { Lookup } from "../mail/lookup"
import { mxHosts } from "../mail/mx"
import type { MailDns } from "../mail/resolverDns"
import { classify } from "./classify"
import type { ResolvedHosts } from "./plan"
import type { QueryOutcome } from "./report"
import {
  judgeTestPoints,
  type ListKind,
  type ListVerdict,
  type TestAnswers,
  testPointCachePolicy,
  testPointKey,
  type TestPointKey,
  testQueries
} from "./testPoints"

/** At most this many MX hosts of a domain are resolved (a hostile MX set stays cheap). */
export const MAX_MX_HOSTS = 10
/** The longest TXT reason kept: a list's TXT is a sentence and a URL, not a document. */
const MAX_REASON = 500

/** The service's own resolvers could not answer for the root while a list's test points failed. */
export class RootUnanswered extends Data.TaggedError("RootUnanswered")<{ readonly reason: string }> {}

/** What resolving a domain's hosts gave: their addresses, whether the domain exists, what failed. */
export interface HostsOutcome {
  readonly hosts: ResolvedHosts
  /** Every lookup at the domain that answered said NXDOMAIN, and none found a record. */
  readonly nxdomain: boolean
  /** Some lookup failed (timeout, SERVFAIL): the caller asks ResolverHealth before blaming the target. */
  readonly failed: boolean
  readonly limitations: ReadonlyArray<string>
}

const recordsOf = <A>(l: Lookup<A>): ReadonlyArray<A> => (l._tag === "Found" ? l.records : [])

/** The A, AAAA and MX hosts' addresses of `domain`: the three at once, then every MX host's A and AAAA at once. */
export const resolveHosts = (dns: MailDns, domain: string): Effect.Effect<HostsOutcome> =>
  Effect.gen(function*() {
    const [a, aaaa, mx] = yield* Effect.all([dns.a(domain), dns.aaaa(domain), dns.mx(domain)], { concurrency: 3 })
    const limitations: Array<string> = []
    const own = [["A", a], ["AAAA", aaaa], ["MX", mx]] as const
    for (const [type, l] of own) if (l._tag === "Failed") limitations.push(`The ${type} lookup of ${domain} failed (${l.reason}): its addresses were not asked`)
    const nxdomain = own.some(([, l]) => l._tag === "Void" && l.rcode === "NXDOMAIN") && !own.some(([, l]) => l._tag === "Found")
    const all = mxHosts(recordsOf(mx))
    if (all.length > MAX_MX_HOSTS) limitations.push(`${domain} has ${all.length} MX hosts: only the first ${MAX_MX_HOSTS} by preference were resolved`)
    const perHost = yield* Effect.forEach(all.slice(0, MAX_MX_HOSTS), (host) =>
      Effect.map(Effect.all([dns.a(host), dns.aaaa(host)], { concurrency: 2 }), ([ha, haaaa]) => ({ host, ha, haaaa })), { concurrency: "unbounded" })
    let failed = own.some(([, l]) => l._tag === "Failed")
    for (const { haaaa, ha, host } of perHost) {
      const bad = [ha, haaaa].filter((l) => l._tag === "Failed")
      if (bad.length > 0) {
        failed = true
        limitations.push(`The addresses of the MX host ${host} could not all be resolved (${bad.map((l) => (l._tag === "Failed" ? l.reason : "")).join(", ")}): those were not asked`)
      } else if ([ha, haaaa].some((l) => l._tag === "Void" && l.rcode === "NXDOMAIN")) {
        limitations.push(`The MX host ${host} does not exist (NXDOMAIN)`)
      }
    }
    return {
      hosts: { a: recordsOf(a), aaaa: recordsOf(aaaa), mx: perHost.map(({ ha, haaaa, host }) => ({ host, ips: [...recordsOf(ha), ...recordsOf(haaaa)] })) },
      nxdomain,
      failed,
      limitations
    }
  })

/** The distinct TXT texts at a name, joined and bounded; null when there are none or the lookup failed. */
const reasonOf = (l: Lookup<string>): string | null => {
  const texts = [...new Set(recordsOf(l).map((t) => t.trim()).filter((t) => t !== ""))]
  if (texts.length === 0) return null
  const joined = texts.join("; ")
  return joined.length > MAX_REASON ? `${joined.slice(0, MAX_REASON - 1)}…` : joined
}

/** One (zone, item) question: the A answer, and for a listing the TXT record at the same name. */
export const askList = (dns: MailDns, zone: string, name: string): Effect.Effect<QueryOutcome> =>
  Effect.flatMap(dns.a(name), (answer) =>
    classify(zone, answer, null).status === "listed"
      ? Effect.map(dns.txt(name), (txt) => ({ answer, txt: reasonOf(txt) }))
      : Effect.succeed({ answer, txt: null }))

/**
 * Each list's test-point verdict, asked once per list per DNSBL_TEST_TTL_S (a verdict resting on
 * a missing answer at most 30 s). A list that fails its test points while the service's own
 * resolvers cannot answer for the root is no verdict on the list: nothing is kept, and the check
 * fails with RootUnanswered (a 502 for the caller), so a repaired resolver is trusted at once.
 */
export const makeVerdicts = (dns: MailDns, health: ResolverHealthShape, ttlS: number, lists: number) =>
  Effect.gen(function*() {
    const policy = testPointCachePolicy(ttlS, lists)
    const judge = (key: TestPointKey) =>
      Effect.gen(function*() {
        const asked = yield* Effect.forEach(testQueries(key.zone, key.kind), (q) => Effect.map(dns.a(q.name), (l) => [q.slot, l] as const), { concurrency: "unbounded" })
        const by = new Map(asked)
        const answers: TestAnswers = { listed: by.get("listed")!, unlisted: by.get("unlisted")!, ipv6_listed: by.get("ipv6_listed"), ipv6_unlisted: by.get("ipv6_unlisted") }
        const verdict = judgeTestPoints(key.zone, key.kind, answers)
        if (!verdict.trusted || verdict.transient) {
          const why = rootFailure(yield* health.root)
          if (why !== null) return yield* new RootUnanswered({ reason: why })
        }
        return verdict
      })
    const cache = yield* Cache.makeWith({
      capacity: policy.capacity,
      lookup: judge,
      timeToLive: Exit.match({ onFailure: () => Duration.zero, onSuccess: policy.timeToLive })
    })
    // The lookup runs in a daemon fiber: a check interrupted by its deadline must not interrupt
    // the verdict other checks wait for (Cache hands an interrupted lookup to every waiter).
    return (zone: string, kind: ListKind): Effect.Effect<ListVerdict, RootUnanswered> =>
      Effect.flatMap(Effect.forkDaemon(cache.get(testPointKey(zone, kind))), Fiber.join)
  })
