/** The takeover report: findings from candidates (confirmed critical, potential high, unlikely low), Zone Hygiene's score and grade, the schema. */
import { describe, expect, test } from "bun:test"
import { Schema } from "effect"
import { FINGERPRINTS } from "../../../src/analyses/takeover/fingerprints"
import { mergeNames } from "../../../src/analyses/takeover/names"
import { summarize, takeoverReport } from "../../../src/analyses/takeover/report"
import { type Candidate, TakeoverReport } from "../../../src/analyses/takeover/schema"

const candidate = (type: Candidate["type"], confidence: Candidate["confidence"], name = "x.victim.example"): Candidate =>
  ({ name, type, target: "t.example", chain: [], provider: null, evidence: "observed", confidence })

describe("findings, score and grade", () => {
  test("one finding per candidate, most severe first; the score is Zone Hygiene's", () => {
    const s = summarize([candidate("mx_dangling", "potential"), candidate("cname_unclaimed", "unlikely"), candidate("cname_unclaimed", "confirmed")])
    expect(s.findings.map((f) => [f.check, f.severity])).toEqual([
      ["cname_unclaimed", "critical"],
      ["mx_dangling", "high"],
      ["cname_unclaimed", "low"]
    ])
    expect(s.score).toBe(100 - 30 - 18 - 3)
    expect(s.grade).toBe("F")
    expect(s.recommendations.length).toBe(2)
  })

  test.each([
    [[], 100, "A"],
    [[candidate("spf_dangling", "unlikely")], 97, "A"],
    [[candidate("spf_dangling", "potential")], 82, "B"],
    [[candidate("ns_dangling", "confirmed")], 70, "C"]
  ])("%j → %d %s", (cs, score, grade) => {
    expect(summarize(cs as Array<Candidate>)).toMatchObject({ score, grade })
  })

  test("a finding says what is at risk and why", () => {
    const [f] = summarize([{ ...candidate("cname_unclaimed", "confirmed", "blog.victim.example"), target: "victim.github.io", provider: "GitHub Pages", evidence: "http://blog.victim.example/ answered 404" }]).findings
    expect(f.message).toBe("blog.victim.example points to victim.github.io (GitHub Pages), which nobody holds: whoever claims it there serves blog.victim.example (confirmed: http://blog.victim.example/ answered 404)")
  })
})

describe("the report", () => {
  test("assembles the parts and encodes through its schema", () => {
    const names = mergeNames({ domain: "victim.example", ct: ["blog.victim.example"], wordlist: ["www"] })
    const report = takeoverReport({
      domain: "victim.example",
      checked_at: "2026-01-01T00:00:00.000Z",
      timings_ms: { total: 1200 },
      names,
      outcome: { candidates: [candidate("cname_dangling", "potential")], limitations: ["t.victim.example: the lookup of t.victim.example timed out; not judged"] },
      limitations: ["zone transfer refused by every name server"]
    })
    expect(report).toMatchObject({ names_checked: 3, sources: { ct: 1, wordlist: 1, zone_transfer: 0, given: 0 }, providers_known: FINGERPRINTS.length, score: 82, grade: "B" })
    expect(report.limitations).toEqual(["zone transfer refused by every name server", "t.victim.example: the lookup of t.victim.example timed out; not judged"])
    const wire = JSON.parse(JSON.stringify(Schema.encodeSync(TakeoverReport)(report)))
    expect(Schema.decodeUnknownSync(TakeoverReport)(wire)).toEqual(report)
  })
})
