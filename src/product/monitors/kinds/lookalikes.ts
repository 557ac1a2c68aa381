/**
 * `lookalikes` (docs/monitors.md): each run is the report of GET /v1/security/lookalikes for the
 * domain. `new_lookalike_risk_at_least` (default `medium`) makes a run not ok when a lookalike is
 * at or above that risk now and was not in the previous run (newly registered), or was there
 * below it (a parked name that starts serving a copy of the page, or mail): the alert names each.
 * The baseline keeps every lookalike seen with its highest risk, so one is reported once; a name
 * missing from one run (deregistered, or its lookups failed that time) is not news when it
 * returns. The first run only records the baseline: what was registered before the monitor is
 * in its report, not news.
 */
import { Effect, Schema } from "effect"
import { Lookalikes } from "../../../analyses/lookalikes/Lookalikes"
import { type Lookalike, type LookalikesReport, Risk } from "../../../analyses/lookalikes/schema"
import type { Baseline, Verdict } from "../model/analyze"
import { defineKind } from "../model/kindSpec"
import { domainTarget, httpsUrlOf } from "../model/target"

export const LookalikesConditions = Schema.Struct({
  new_lookalike_risk_at_least: Schema.optional(Risk)
})
export type LookalikesConditions = typeof LookalikesConditions.Type

const rank = { low: 0, medium: 1, high: 2 } as const

/** How many names the summary lists before "and N more". */
const LISTED = 20

const describe = (l: Lookalike) =>
  `${l.unicode === l.domain ? l.domain : `${l.unicode} (${l.domain})`} (${l.risk}, ${l.fuzzer}${l.mail_capable ? ", accepts mail" : ""}${l.web_similarity !== null ? `, page ${l.web_similarity}% alike` : ""})`

/** Pure: the verdict on a lookalikes report, given the previous run's baseline. */
export const evaluateLookalikes = (c: LookalikesConditions, r: LookalikesReport, previous: Baseline | null): Verdict => {
  const threshold = c.new_lookalike_risk_at_least ?? "medium"
  const before = previous?.lookalikes
  const seen: Record<string, Risk> = { ...before }
  for (const l of r.lookalikes) if (seen[l.domain] === undefined || rank[l.risk] > rank[seen[l.domain]]) seen[l.domain] = l.risk
  const baseline = { ...previous, lookalikes: seen }
  const counts = `${r.lookalikes.length} registered of ${r.permutations} permutations`
  if (before === undefined) return { ok: true, summary: `${counts} (first run: baseline recorded)`, report: r, baseline }
  const at = r.lookalikes.filter((l) => rank[l.risk] >= rank[threshold])
  const fresh = at.filter((l) => before[l.domain] === undefined)
  const risen = at.filter((l) => before[l.domain] !== undefined && rank[before[l.domain]] < rank[threshold])
  if (fresh.length + risen.length === 0) return { ok: true, summary: `${counts}; no new lookalike at ${threshold} risk or above`, report: r, baseline }
  const list = (ls: ReadonlyArray<Lookalike>, f: (l: Lookalike) => string) =>
    ls.slice(0, LISTED).map(f).join(", ") + (ls.length > LISTED ? ` and ${ls.length - LISTED} more` : "")
  const parts = [
    ...(fresh.length > 0 ? [`newly registered lookalike${fresh.length === 1 ? "" : "s"}: ${list(fresh, describe)}`] : []),
    ...(risen.length > 0 ? [`risen to ${threshold} risk or above: ${list(risen, (l) => `${describe(l)} (was ${before[l.domain]})`)}`] : [])
  ]
  return { ok: false, summary: parts.join("; "), report: r, baseline }
}

export const lookalikesKind = defineKind<LookalikesConditions>({
  conditions: LookalikesConditions,
  defaults: { new_lookalike_risk_at_least: "medium" },
  minIntervalFactor: 60,
  target: domainTarget,
  // DNS lookups of the permutations; each lookalike's page fetch is guarded by the analysis itself.
  guard: (t) => ({ url: httpsUrlOf(t), connects: false }),
  run: (target) => Effect.flatMap(Lookalikes, (l) => l.find({ domain: target })),
  evaluate: (c, report, previous) => evaluateLookalikes(c, report, previous)
})
