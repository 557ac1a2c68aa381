/**
 * `takeover` (docs/operations/monitors.md, "Kinds"): each run is the report of GET /v1/security/takeover for the
 * target domain; the monitor is not ok when a candidate of at least the condition's confidence
 * appears that the previous run did not have (the first run has nothing before it: every
 * candidate it finds is new), and its summary names each such candidate.
 */
import { Effect, Schema } from "effect"
import { Confidence, type TakeoverReport } from "../../../analyses/takeover/schema"
import { SubdomainTakeover } from "../../../analyses/takeover/SubdomainTakeover"
import type { Baseline, Verdict } from "../model/analyze"
import { defineKind } from "../model/kindSpec"
import { domainTarget, httpsUrlOf } from "../model/target"

export const TakeoverConditions = Schema.Struct({
  /** A new candidate of this confidence or above makes the run not ok. */
  new_candidate_confidence_at_least: Schema.optional(Confidence)
})
export type TakeoverConditions = typeof TakeoverConditions.Type

const RANK: Readonly<Record<Confidence, number>> = { unlikely: 0, potential: 1, confirmed: 2 }

/** A candidate as the baseline remembers it: a change of confidence makes it new again. */
const keyOf = (c: TakeoverReport["candidates"][number]) => `${c.type} ${c.name} ${c.target} ${c.confidence}`

/** At most this many candidates and limitations are kept with a run's result. */
const KEPT = 50

/** Pure: the verdict on a takeover report. */
export const evaluateTakeover = (c: TakeoverConditions, r: TakeoverReport, previous: Baseline | null): Verdict => {
  const min = RANK[c.new_candidate_confidence_at_least ?? "potential"]
  const before = new Set(previous?.candidate_keys ?? [])
  const fresh = r.candidates.filter((x) => RANK[x.confidence] >= min && !before.has(keyOf(x)))
  const order: ReadonlyArray<Confidence> = ["confirmed", "potential", "unlikely"]
  const named = order.flatMap((level) => {
    const names = [...new Set(fresh.filter((x) => x.confidence === level).map((x) => x.name))]
    return names.length === 0 ? [] : [`${level} ${names.join(", ")}`]
  })
  return {
    ok: fresh.length === 0,
    // Names only, most certain first, so that the whole list fits where summaries are kept short;
    // the result's report has each new candidate in full.
    summary: fresh.length > 0
      ? `${fresh.length} new takeover candidate${fresh.length === 1 ? "" : "s"}: ${named.join("; ")}`
      : `${r.candidates.length} candidate${r.candidates.length === 1 ? "" : "s"}, none new; grade ${r.grade} (score ${r.score})`,
    report: {
      domain: r.domain,
      grade: r.grade,
      score: r.score,
      names_checked: r.names_checked,
      sources: r.sources,
      candidates: r.candidates.slice(0, KEPT),
      new_candidates: fresh.slice(0, KEPT),
      limitations: r.limitations.slice(0, KEPT)
    },
    baseline: { ...previous, candidate_keys: r.candidates.map(keyOf) }
  }
}

export const takeoverKind = defineKind<TakeoverConditions>({
  conditions: TakeoverConditions,
  defaults: { new_candidate_confidence_at_least: "potential" },
  minIntervalFactor: 10,
  target: domainTarget,
  // DNS lookups; the services' HTTP answers are fetched through the guard by the analysis itself.
  guard: (t) => ({ url: httpsUrlOf(t), connects: false }),
  run: (target) => Effect.flatMap(SubdomainTakeover, (s) => s.check({ domain: target })),
  evaluate: (c, report, previous) => evaluateTakeover(c, report, previous)
})
