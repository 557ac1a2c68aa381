/**
 * The pure parts of resolving permutations: the four lookups judged together (registered on any
 * record, unresolved when nothing was found and a lookup failed, free otherwise), step 1's
 * NXDOMAIN rule, and the limitations a sweep's outcome writes. The lookups themselves run against
 * real NSD and Unbound in lookalikes.test.ts and faults.test.ts.
 */
import { describe, expect, test } from "bun:test"
import { budgetOf } from "../../../src/analyses/lookalikes/Lookalikes"
import { sweepLimitations, type SweepOutcome } from "../../../src/analyses/lookalikes/limitations"
import { absent, judge, type Lookup, type Resolution } from "../../../src/analyses/lookalikes/resolve"

const ok = (...values: Array<string>): Lookup => ({ _tag: "Answer", rcode: "NOERROR", values })
const nx: Lookup = { _tag: "Answer", rcode: "NXDOMAIN", values: [] }
const failed = (reason = "timeout"): Lookup => ({ _tag: "Failed", reason })

describe("step 1: an NXDOMAIN for A ends the lookups", () => {
  test.each([
    ["NXDOMAIN", nx, false, true],
    ["NXDOMAIN after a CNAME (its target does not exist; the name itself does)", nx, true, false],
    ["NOERROR without addresses", ok(), false, false],
    ["NOERROR with an address", ok("192.0.2.1"), false, false],
    ["a failed lookup", failed(), false, false]
  ] as const)("%s", (_, first, chained, out) => {
    expect(absent(first, chained)).toBe(out)
  })
})

describe("the four lookups judged together", () => {
  test.each<[string, Record<"A" | "AAAA" | "MX" | "NS", Lookup>, Resolution]>([
    ["only MX", { A: ok(), AAAA: ok(), MX: ok("mx.example.net"), NS: ok() }, { _tag: "Registered", a: [], aaaa: [], mx: ["mx.example.net"], ns: [], failed: [] }],
    ["only NS", { A: ok(), AAAA: ok(), MX: ok(), NS: ok("ns1.parking.example") }, { _tag: "Registered", a: [], aaaa: [], mx: [], ns: ["ns1.parking.example"], failed: [] }],
    ["only AAAA", { A: ok(), AAAA: ok("2001:db8::1"), MX: ok(), NS: ok() }, { _tag: "Registered", a: [], aaaa: ["2001:db8::1"], mx: [], ns: [], failed: [] }],
    ["a null MX is a record", { A: ok(), AAAA: ok(), MX: ok("."), NS: ok() }, { _tag: "Registered", a: [], aaaa: [], mx: ["."], ns: [], failed: [] }],
    ["found, one lookup failed: registered, the failure named", { A: ok("192.0.2.1"), AAAA: ok(), MX: failed(), NS: ok() }, { _tag: "Registered", a: ["192.0.2.1"], aaaa: [], mx: [], ns: [], failed: ["MX"] }],
    ["nothing found, one lookup failed: unresolved", { A: ok(), AAAA: ok(), MX: failed("SERVFAIL"), NS: ok() }, { _tag: "Unresolved", reason: "SERVFAIL" }],
    ["exists with none of the four (an empty non-terminal, only TXT): free", { A: ok(), AAAA: ok(), MX: ok(), NS: ok() }, { _tag: "Free" }],
    ["later answers NXDOMAIN (a race with a deletion): nothing found, free", { A: ok(), AAAA: nx, MX: nx, NS: nx }, { _tag: "Free" }]
  ])("%s", (_, lookups, out) => {
    expect(judge(lookups)).toEqual(out)
  })
})

const outcome = (o: Partial<SweepOutcome>): SweepOutcome => ({
  domain: "example.com",
  ownExists: true,
  ownHome: { served: true, digest: "3:abc:def", finalUrl: "https://example.com/", problem: null },
  truncated: false,
  permutations: ["a.com", "b.com", "c.com", "d.com"],
  results: [{ _tag: "Free" }, { _tag: "Free" }, { _tag: "Free" }, { _tag: "Free" }],
  pagesUnfinished: [],
  deadlineMs: 25000,
  retried: true,
  ...o
})

describe("limitations", () => {
  test("a clean sweep has none", () => {
    expect(sweepLimitations(outcome({}))).toEqual([])
  })

  test("not resolved in time, failed (by reason), incomplete records, unfinished pages: each counted and named", () => {
    const lines = sweepLimitations(outcome({
      results: [
        undefined,
        { _tag: "Unresolved", reason: "timeout" },
        { _tag: "Unresolved", reason: "SERVFAIL" },
        { _tag: "Registered", a: ["192.0.2.1"], aaaa: [], mx: [], ns: [], failed: ["AAAA", "MX"] }
      ],
      pagesUnfinished: ["d.com"]
    }))
    expect(lines).toEqual([
      "1 permutation was not resolved within the operation's deadline (25000 ms; the service's resolvers answered too slowly): neither registered nor free: a.com",
      "2 permutations could not be resolved (timeout 1, SERVFAIL 1; asked twice): neither registered nor free: b.com, c.com",
      "some records of 1 registered lookalike could not be looked up, so they may be incomplete: AAAA, MX of d.com",
      "the home page of 1 lookalike was not fetched within the deadline (web_similarity null): d.com"
    ])
  })

  test("a long list is cut after twenty names", () => {
    const names = Array.from({ length: 25 }, (_, i) => `n${i}.com`)
    const [line] = sweepLimitations(outcome({ permutations: names, results: names.map(() => undefined) }))
    expect(line).toEndWith("n19.com and 5 more")
  })

  test.each([
    [{ ownExists: false, ownHome: "absent" as const }, "example.com does not exist (NXDOMAIN)"],
    [{ ownHome: null }, "the home page of example.com was not fetched within the deadline"],
    [{ ownHome: { served: false, digest: null, finalUrl: null, problem: "HTTP 503" } }, "the home page of example.com could not be fetched (HTTP 503)"],
    [{ truncated: true }, "permutation generation stopped at its bound"],
    [{ results: [{ _tag: "Unresolved", reason: "timeout" } as const, { _tag: "Free" } as const, { _tag: "Free" } as const, { _tag: "Free" } as const], retried: false }, "(timeout 1): neither"]
  ])("%j", (o, said) => {
    const lines = sweepLimitations(outcome(o))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(said)
  })
})

describe("the budget within OPERATION_DEADLINE_MS", () => {
  test.each([
    [25000, 23000],
    [120000, 118000],
    [3000, 2500],
    [1000, 500]
  ])("%i ms → %i ms for the sweep and the pages", (deadline, budget) => {
    expect(budgetOf(deadline)).toBe(budget)
  })
})
