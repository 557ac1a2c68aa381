/**
 * The blocklist report from a plan, the lists' test-point verdicts and the answers (pure). A list
 * without a verdict, or one that failed its test points, is `error` for every item (its "not
 * listed" would mean nothing); an IPv6 item on a list that failed its IPv6 test points likewise.
 * A query without an answer (not asked before the deadline) is `error`, never `not_listed`.
 * docs/operations/blocklist.md.
 *
 * The operation's flow: `parseTarget` → for a domain, resolve its A, AAAA and MX hosts → `plan` →
 * for each of `plan.lists`, its verdict from the test-point cache (`testQueries` asked,
 * `judgeTestPoints`) → `queriesToAsk` → the A answer (as a `Lookup<string>`: Found, Void for
 * NXDOMAIN/NODATA, Failed for a timeout, SERVFAIL or REFUSED) and the TXT record at each name →
 * `buildReport`.
 */
import type { Lookup } from "../mail/lookup"
import { classify, type Classification } from "./classify"
import type { BlocklistPlan, PlannedQuery } from "./plan"
import type { BlocklistEntry, BlocklistReport } from "./schema"
import { TEST_POINTS, type ListVerdict } from "./testPoints"

/** What one planned query came back with: the A answer and the TXT record at the same name. */
export interface QueryOutcome {
  readonly answer: Lookup<string>
  readonly txt: string | null
}

const verdictKey = (zone: string, kind: string) => `${kind}:${zone}`

/** The verdicts by list, for `queriesToAsk` and `buildReport`. */
export const verdictsOf = (entries: ReadonlyArray<{ readonly zone: string; readonly kind: "ip" | "domain"; readonly verdict: ListVerdict }>) =>
  new Map(entries.map((e) => [verdictKey(e.zone, e.kind), e.verdict]))

/** Why an item on this list cannot be trusted whatever the list answers, or null. */
const distrust = (q: PlannedQuery, verdict: ListVerdict | undefined): string | null => {
  if (verdict === undefined) return `${q.zone}'s RFC 5782 test points could not be asked, so its answers are not trusted`
  if (!verdict.trusted) return verdict.why
  if (q.item.kind === "ipv6" && verdict.ipv6.status === "error") return verdict.ipv6.why
  return null
}

/** The planned queries worth asking: none on a list that failed its test points. */
export const queriesToAsk = (p: BlocklistPlan, verdicts: ReadonlyMap<string, ListVerdict>): ReadonlyArray<PlannedQuery> =>
  p.queries.filter((q) => distrust(q, verdicts.get(verdictKey(q.zone, q.list))) === null)

export const buildReport = (
  p: BlocklistPlan,
  verdicts: ReadonlyMap<string, ListVerdict>,
  outcomes: ReadonlyMap<string, QueryOutcome>,
  checkedAt: string
): BlocklistReport => {
  const limitations = [...p.limitations]
  const entry = (q: PlannedQuery): BlocklistEntry => {
    const why = distrust(q, verdicts.get(verdictKey(q.zone, q.list)))
    const outcome = outcomes.get(q.name)
    const c: Classification = why !== null
      ? { status: "error", codes: [], reason: why }
      : outcome === undefined
      ? { status: "error", codes: [], reason: "the list was not asked before the operation's deadline" }
      : classify(q.zone, outcome.answer, outcome.txt)
    return { zone: q.zone, item: q.item.value, status: c.status, codes: c.codes, reason: c.reason }
  }
  const lists: Array<BlocklistEntry> = [
    ...p.queries.map(entry),
    ...p.unqueryable.map((u) => ({ zone: u.zone, item: u.item, status: "error" as const, codes: [], reason: u.why }))
  ]
  for (const l of p.lists) {
    const v = verdicts.get(verdictKey(l.zone, l.kind))
    if (v === undefined) limitations.push(`${l.zone}: its RFC 5782 test points could not be asked; every item on it is error`)
    else if (!v.trusted) limitations.push(`${v.why}; every item on it is error`)
    else if (p.queries.some((q) => q.zone === l.zone && q.list === l.kind && q.item.kind === "ipv6")) {
      if (v.ipv6.status === "error") limitations.push(`${v.ipv6.why}; every IPv6 item on it is error`)
      if (v.ipv6.status === "no_test_point") {
        limitations.push(`${l.zone} does not list its RFC 5782 IPv6 test point ${TEST_POINTS.ipv6.listed}: it may not list IPv6 addresses at all, so not_listed for an IPv6 address there says little`)
      }
    }
  }
  return {
    target: p.target,
    kind: p.kind,
    ips: p.ips,
    lists,
    listed_count: lists.filter((l) => l.status === "listed").length,
    checked_at: checkedAt,
    limitations
  }
}
