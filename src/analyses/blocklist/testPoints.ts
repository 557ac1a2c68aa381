/**
 * RFC 5782 §5 test points, asked of a list before its answers are trusted (pure):
 * - an IP list MUST list 127.0.0.2 and MUST NOT list 127.0.0.1;
 * - a domain list MUST list `test` and MUST NOT list `invalid` (the reserved names of RFC 2606);
 * - an IPv6 list MUST list ::FFFF:7F00:2 and MUST NOT list ::FFFF:7F00:1 (the IPv4-mapped forms,
 *   asked nibble-reversed).
 * A list that fails its IPv4 (or domain) test points is `error` for every item: its "not listed"
 * would be meaningless (a retired list answers NXDOMAIN for everything; a wildcarded or rewritten
 * one "lists" everything). The IPv6 points only qualify the IPv6 items: a list that does not list
 * ::FFFF:7F00:2 does not vouch for IPv6 data, which the report says beside those items, and one
 * that lists ::FFFF:7F00:1 is `error` for them. docs/operations/blocklist.md ("Test points").
 *
 * The verdict is kept per list for DNSBL_TEST_TTL_S; `testPointCachePolicy` is that rule as data
 * for an Effect `Cache` (`Cache.makeWith({ capacity, lookup, timeToLive })`).
 */
import { Data, Duration } from "effect"
import type { Lookup } from "../mail/lookup"
import { classify } from "./classify"
import { reverseIPv4, reverseIPv6 } from "./query"

export type ListKind = "ip" | "domain"

export const TEST_POINTS = {
  ip: { listed: "127.0.0.2", unlisted: "127.0.0.1" },
  ipv6: { listed: "::ffff:7f00:2", unlisted: "::ffff:7f00:1" },
  domain: { listed: "test", unlisted: "invalid" }
} as const

export interface TestQuery {
  /** Which answer of `TestAnswers` this name fills. */
  readonly slot: "listed" | "unlisted" | "ipv6_listed" | "ipv6_unlisted"
  readonly name: string
}

/** The names to ask (type A) for a list's test points: four for an IP list, two for a domain list. */
export const testQueries = (zone: string, kind: ListKind): ReadonlyArray<TestQuery> => {
  // A configured zone is at most 189 octets (platform/Config.ts), so every test name fits.
  const z = zone.toLowerCase().replace(/\.$/, "")
  const at = (prefix: string) => `${prefix}.${z}`
  if (kind === "domain") {
    return [
      { slot: "listed", name: at(TEST_POINTS.domain.listed) },
      { slot: "unlisted", name: at(TEST_POINTS.domain.unlisted) }
    ]
  }
  return [
    { slot: "listed", name: at(reverseIPv4(TEST_POINTS.ip.listed)) },
    { slot: "unlisted", name: at(reverseIPv4(TEST_POINTS.ip.unlisted)) },
    { slot: "ipv6_listed", name: at(reverseIPv6(TEST_POINTS.ipv6.listed)) },
    { slot: "ipv6_unlisted", name: at(reverseIPv6(TEST_POINTS.ipv6.unlisted)) }
  ]
}

/** The A answers at the test-point names; the IPv6 pair only for an IP list. */
export interface TestAnswers {
  readonly listed: Lookup<string>
  readonly unlisted: Lookup<string>
  readonly ipv6_listed?: Lookup<string>
  readonly ipv6_unlisted?: Lookup<string>
}

export type Ipv6Support =
  /** a domain list, or the IPv6 points were not asked */
  | { readonly status: "not_asked" }
  | { readonly status: "supported" }
  /** ::FFFF:7F00:2 is not listed: the list does not vouch for IPv6 data */
  | { readonly status: "no_test_point" }
  /** the IPv6 points failed: IPv6 items are `error` */
  | { readonly status: "error"; readonly why: string }

export type ListVerdict =
  | { readonly trusted: true; readonly ipv6: Ipv6Support; readonly transient: boolean }
  | { readonly trusted: false; readonly why: string; readonly transient: boolean }

interface PairOutcome {
  readonly problems: ReadonlyArray<string>
  readonly transient: boolean
  /** the must-be-listed point is simply absent (NXDOMAIN or no A record) and nothing else is wrong */
  readonly absent: boolean
}

const judgePair = (zone: string, listedPoint: string, unlistedPoint: string, listed: Lookup<string>, unlisted: Lookup<string>): PairOutcome => {
  const problems: Array<string> = []
  const l = classify(zone, listed, null)
  if (l.status === "not_listed") problems.push(`it does not list its test point ${listedPoint}, which every working list answers`)
  else if (l.status === "error") problems.push(`its test point ${listedPoint}: ${l.reason}`)
  const u = classify(zone, unlisted, null)
  if (unlisted._tag === "Failed") problems.push(`its test point ${unlistedPoint}: ${u.reason}`)
  else if (unlisted._tag === "Found" && unlisted.records.length > 0) {
    // An error answer (a refused query, a rewritten answer) says why; a listing code says the list lists everything.
    problems.push(u.status === "error"
      ? `its test point ${unlistedPoint}: ${u.reason}`
      : `it lists ${unlistedPoint} (${u.codes.join(", ")}), which RFC 5782 §5 says no list may list: it would report every item as listed`)
  }
  return {
    problems,
    transient: listed._tag === "Failed" || unlisted._tag === "Failed",
    absent: problems.length === 1 && l.status === "not_listed"
  }
}

/** Whether a list's answers can be trusted, from its test-point answers. */
export const judgeTestPoints = (zone: string, kind: ListKind, answers: TestAnswers): ListVerdict => {
  const points = kind === "ip" ? TEST_POINTS.ip : TEST_POINTS.domain
  const main = judgePair(zone, points.listed, points.unlisted, answers.listed, answers.unlisted)
  if (main.problems.length > 0) {
    return { trusted: false, why: `${zone} failed its RFC 5782 test points: ${main.problems.join("; ")}`, transient: main.transient }
  }
  if (kind === "domain" || answers.ipv6_listed === undefined || answers.ipv6_unlisted === undefined) {
    return { trusted: true, ipv6: { status: "not_asked" }, transient: false }
  }
  const v6 = judgePair(zone, TEST_POINTS.ipv6.listed, TEST_POINTS.ipv6.unlisted, answers.ipv6_listed, answers.ipv6_unlisted)
  const ipv6: Ipv6Support = v6.problems.length === 0
    ? { status: "supported" }
    : v6.absent
    ? { status: "no_test_point" }
    : { status: "error", why: `${zone} failed its RFC 5782 IPv6 test points: ${v6.problems.join("; ")}` }
  return { trusted: true, ipv6, transient: v6.transient }
}

/** The key of a list's verdict in the cache (structural equality, as `Cache` compares keys). */
export const testPointKey = (zone: string, kind: ListKind) => Data.struct({ zone, kind })
export type TestPointKey = ReturnType<typeof testPointKey>

/** How long a verdict that rests on a missing answer (timeout, SERVFAIL) is kept: one lost packet must not silence a list for an hour. */
export const TRANSIENT_VERDICT_TTL_S = 30

export interface TestPointCachePolicy {
  readonly capacity: number
  readonly timeToLive: (verdict: ListVerdict) => Duration.Duration
}

/** DNSBL_TEST_TTL_S as the cache's rule: every verdict kept `ttlS`, one resting on a missing answer at most 30 s. */
export const testPointCachePolicy = (ttlS: number, lists: number): TestPointCachePolicy => ({
  capacity: Math.max(1, lists),
  timeToLive: (verdict) => Duration.seconds(verdict.transient ? Math.min(ttlS, TRANSIENT_VERDICT_TTL_S) : ttlS)
})
