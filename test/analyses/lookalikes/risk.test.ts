/** Lookalike risk, findings and the report: table tests. */
import { describe, expect, test } from "bun:test"
import { Schema } from "effect"
import { permutations } from "../../../src/analyses/lookalikes/permutations"
import { assessLookalike, isRegistered, lookalikeFindings, lookalikesReport, mailCapable, riskOf, type LookalikeObservation } from "../../../src/analyses/lookalikes/risk"
import { LookalikesReport } from "../../../src/analyses/lookalikes/schema"

describe("mail capable: an MX other than a null MX (RFC 7505)", () => {
  test.each([
    [["mx1.examp1e.com"], true],
    [["."], false],
    [[""], false],
    [[".", "mx.examp1e.com."], true],
    [[], false]
  ])("%j → %s", (mx, capable) => {
    expect(mailCapable(mx)).toBe(capable)
  })
})

describe("risk", () => {
  test.each([
    [{ mail_capable: true, web_similarity: null, serves_web: false }, "high"],
    [{ mail_capable: false, web_similarity: 80, serves_web: true }, "high"],
    [{ mail_capable: false, web_similarity: 79, serves_web: true }, "medium"],
    [{ mail_capable: false, web_similarity: null, serves_web: true }, "medium"],
    [{ mail_capable: false, web_similarity: 0, serves_web: true }, "medium"],
    [{ mail_capable: false, web_similarity: null, serves_web: false }, "low"]
  ])("%j → %s", (l, risk) => {
    expect<string>(riskOf(l)).toBe(risk)
  })

  test("registered: any A, AAAA, MX or NS record", () => {
    expect(isRegistered({ a: [], aaaa: [], mx: [], ns: [] })).toBe(false)
    expect(isRegistered({ a: [], aaaa: [], mx: [], ns: ["ns1.parking.example"] })).toBe(true)
    expect(isRegistered({ a: [], aaaa: ["2001:db8::1"], mx: [], ns: [] })).toBe(true)
  })
})

const set = permutations("example.com")!
const perm = (name: string) => set.permutations.find((p) => p.domain === name)!
const obs = (name: string, o: Partial<LookalikeObservation>): LookalikeObservation =>
  ({ permutation: perm(name), a: [], aaaa: [], mx: [], ns: [], serves_web: false, web_similarity: null, ...o })

const planted = [
  assessLookalike(obs("examp1e.com", { a: ["192.0.2.10"], mx: ["mx.examp1e.com"], serves_web: true, web_similarity: 12 })),
  assessLookalike(obs("exarnple.com", { a: ["192.0.2.11"], serves_web: true, web_similarity: 96 })),
  assessLookalike(obs("exampel.com", { a: ["192.0.2.12"], serves_web: true, web_similarity: 3 })),
  assessLookalike(obs("examplle.com", { ns: ["ns1.parking.example"] })),
  assessLookalike(obs("example.net", { a: ["192.0.2.13"], mx: ["."] }))
]

describe("assessed lookalikes and their findings", () => {
  test("each lookalike carries its records, mail capability, similarity and risk", () => {
    expect(planted.map((l) => [l.domain, l.fuzzer, l.mail_capable, l.web_similarity, l.risk])).toEqual([
      ["examp1e.com", "homoglyph", true, 12, "high"],
      ["exarnple.com", "homoglyph", false, 96, "high"],
      ["exampel.com", "transposition", false, 3, "medium"],
      ["examplle.com", "insertion", false, null, "low"],
      ["example.net", "tld-swap", false, null, "low"]
    ])
  })

  test("high risk is a high finding, medium a medium one, the low ones one info finding", () => {
    const { findings, recommendations } = lookalikeFindings(planted)
    expect(findings.map((f) => [f.check, f.severity])).toEqual([
      ["mail_capable", "high"],
      ["similar_page", "high"],
      ["serves_page", "medium"],
      ["registered", "info"]
    ])
    expect(findings[0].message).toContain("examp1e.com (homoglyph) is registered and accepts mail (MX mx.examp1e.com)")
    expect(findings[1].message).toContain("96% alike")
    expect(findings[3].message).toBe("2 lookalikes are registered but serve nothing: examplle.com, example.net")
    expect(recommendations.length).toBe(3)
  })

  test("an internationalized lookalike is shown in Unicode with its ASCII form", () => {
    const idn = set.permutations.find((p) => p.unicode === "exâmple.com")!
    const l = assessLookalike({ permutation: idn, a: ["192.0.2.20"], aaaa: [], mx: ["mx.evil.example"], ns: [], serves_web: false, web_similarity: null })
    expect(lookalikeFindings([l]).findings[0].message).toStartWith(`exâmple.com (${idn.domain}) (homoglyph)`)
  })

  test("no lookalike, no finding", () => {
    expect(lookalikeFindings([])).toEqual({ findings: [], recommendations: [] })
  })

  test("the report encodes through its schema", () => {
    const report = lookalikesReport({ checked_at: "2026-01-01T00:00:00.000Z", timings_ms: { total: 12 }, set, lookalikes: planted, limitations: [] })
    const wire = Schema.encodeSync(LookalikesReport)(report)
    expect(wire.permutations).toBe(set.permutations.length)
    expect(wire.by_fuzzer.homoglyph).toBe(1651)
    expect(wire.lookalikes.length).toBe(5)
    expect(Schema.decodeUnknownSync(LookalikesReport)(JSON.parse(JSON.stringify(wire)))).toEqual(report)
  })
})
