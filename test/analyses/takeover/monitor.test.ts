/** The takeover monitor kind's verdict (pure): what is new, from which confidence up, and what the summary names. */
import { describe, expect, test } from "bun:test"
import type { Candidate, TakeoverReport } from "../../../src/analyses/takeover/schema"
import { evaluateTakeover } from "../../../src/product/monitors/kinds/takeover"

const c = (name: string, confidence: Candidate["confidence"], type: Candidate["type"] = "cname_unclaimed"): Candidate =>
  ({ name, type, target: `${name.split(".")[0]}.github.io`, chain: [], provider: "GitHub Pages", evidence: "e", confidence })

const report = (candidates: ReadonlyArray<Candidate>): TakeoverReport => ({
  domain: "victim.example", checked_at: "2026-01-01T00:00:00.000Z", timings_ms: {}, names_checked: 3,
  sources: { ct: 0, zone_transfer: 0, wordlist: 2, given: 0 }, candidates, providers_known: 97, findings: [], score: 100, grade: "A",
  recommendations: [], limitations: []
})

describe("new_candidate_confidence_at_least", () => {
  const a = c("a.victim.example", "confirmed")
  const b = c("b.victim.example", "potential")
  const u = c("u.victim.example", "unlikely")

  test("the first run: every candidate from the threshold up is new, and named", () => {
    const v = evaluateTakeover({ new_candidate_confidence_at_least: "potential" }, report([a, b, u]), null)
    expect(v.ok).toBe(false)
    expect(v.summary).toBe("2 new takeover candidates: confirmed a.victim.example; potential b.victim.example")
    expect(v.baseline?.candidate_keys?.length).toBe(3)
  })

  test("the next run with the same candidates is ok; one that appears is named alone", () => {
    const first = evaluateTakeover({}, report([a, u]), null)
    const same = evaluateTakeover({}, report([a, u]), first.baseline)
    expect(same.ok).toBe(true)
    expect(same.summary).toBe("2 candidates, none new; grade A (score 100)")
    const more = evaluateTakeover({}, report([a, b, u]), same.baseline)
    expect(more.ok).toBe(false)
    expect(more.summary).toBe("1 new takeover candidate: potential b.victim.example")
    expect((more.report as any).new_candidates.map((x: Candidate) => x.name)).toEqual(["b.victim.example"])
  })

  test.each([
    ["confirmed", ["a.victim.example"]],
    ["potential", ["a.victim.example", "b.victim.example"]],
    ["unlikely", ["a.victim.example", "b.victim.example", "u.victim.example"]]
  ] as const)("at least %s", (level, names) => {
    const v = evaluateTakeover({ new_candidate_confidence_at_least: level }, report([a, b, u]), null)
    expect((v.report as any).new_candidates.map((x: Candidate) => x.name)).toEqual(names)
  })

  test("a candidate whose confidence rises is new again", () => {
    const before = evaluateTakeover({}, report([c("b.victim.example", "unlikely")]), null)
    const v = evaluateTakeover({ new_candidate_confidence_at_least: "confirmed" }, report([c("b.victim.example", "confirmed")]), before.baseline)
    expect(v.ok).toBe(false)
  })

  test("a candidate gone and back is new again", () => {
    const one = evaluateTakeover({}, report([b]), null)
    const gone = evaluateTakeover({}, report([]), one.baseline)
    expect(gone.ok).toBe(true)
    expect(evaluateTakeover({}, report([b]), gone.baseline).ok).toBe(false)
  })
})
