/** Lookalike permutations: table tests of the rules around the fuzzers (dnstwist.test.ts holds the fuzzers to dnstwist). */
import { describe, expect, test } from "bun:test"
import { domainToASCII } from "node:url"
import { FUZZERS, permutations, splitDomain } from "../../../src/analyses/lookalikes/permutations"

const of = (domain: string, fuzzers?: Parameters<typeof permutations>[1]) => permutations(domain, fuzzers)!
const fuzzerOf = (domain: string, name: string): string | null => of(domain).permutations.find((p) => p.domain === name)?.fuzzer ?? null

describe("the domain", () => {
  test.each([[""], ["localhost"], ["exa mple.com"], ["-bad.com"], ["a..b.com"], ["ex_ample.com"], ["x".repeat(64) + ".com"], ["ab--cd.com"]])("%j is refused", (d) => {
    expect(permutations(d)).toBeNull()
  })

  test.each([
    ["www.example.co.uk", { subdomain: "www", label: "example", suffix: "co.uk" }],
    ["example.ne.jp", { subdomain: "", label: "example", suffix: "ne.jp" }],
    ["shop.victim.test", { subdomain: "shop", label: "victim", suffix: "test" }],
    ["xn--bcher-kva.de", { subdomain: "", label: "bücher", suffix: "de" }],
    ["BÜCHER.DE.", { subdomain: "", label: "bücher", suffix: "de" }],
    ["co.uk", { subdomain: "", label: "co", suffix: "uk" }]
  ])("%s is cut at its public suffix", (d, split) => {
    expect(splitDomain(d)!.split).toEqual(split)
  })
})

describe("every permutation", () => {
  for (const domain of ["example.com", "bücher.de", "www.my-bank.co.uk", "q1.io"]) {
    test(`${domain}: once each, never the domain, a registrable host name in both forms`, () => {
      const set = of(domain)
      const names = set.permutations.map((p) => p.domain)
      expect(new Set(names).size).toBe(names.length)
      expect(names).not.toContain(set.domain.ascii)
      for (const p of set.permutations) {
        expect(p.domain).toMatch(/^(?=.{4,253}$)((?!-)[a-z0-9-]{1,63}(?<!-)\.)+[a-z0-9-]{2,63}$/)
        expect(domainToASCII(p.unicode)).toBe(p.domain)
      }
      const counted = Object.values(set.by_fuzzer).reduce((a, b) => a + b!, 0)
      expect(counted).toBe(set.permutations.length)
    })
  }

  test("a 63-character label: additions would pass the label limit and are dropped", () => {
    const label = "abcdefghijklmnopqrstuvwxyz0123456789".repeat(2).slice(0, 63)
    const set = of(`${label}.com`, ["addition", "omission", "hyphenation", "repetition"])
    expect(set.by_fuzzer).toEqual({ addition: 0, omission: 63, hyphenation: 0, repetition: 0 })
    expect(set.truncated).toBe(false)
  })

  test("a long label of one letter repeated is bounded (two rounds of glyph swaps would never end)", () => {
    const set = permutations(`${"a".repeat(40)}.com`, undefined, 5_000)!
    expect(set.truncated).toBe(true)
    expect(set.permutations.length).toBeLessThanOrEqual(5_000)
    expect(set.by_fuzzer.homoglyph).toBeGreaterThan(0)
    // The fuzzers before the bound ran whole, those after it did not run.
    expect(set.by_fuzzer.addition).toBe(36)
    expect(set.by_fuzzer["tld-swap"]).toBeUndefined()
    expect(of("example.com").truncated).toBe(false)
  })
})

describe("the first fuzzer keeps a name (dnstwist's order, then ours)", () => {
  test.each([
    ["example.com", "exanple.com", "homoglyph"], // also a keyboard replacement, which runs later
    ["example.com", "exa-ple.com", "bitsquatting"], // m xor 0x40 is '-'
    ["example.com", "examples.com", "addition"], // also the plural
    ["example.com", "exmple.com", "omission"],
    ["www.example.com", "wwwexample.com", "various"],
    ["www.example.com", "www-example.com", "various"],
    ["example.co.uk", "example.uk", "various"], // also a TLD swap
    ["example.co.uk", "example.com", "tld-swap"],
    ["city.com", "cities.com", "plural"],
    ["boxes.com", "box.com", "plural"],
    ["apple.com", "xn--80ak6aa92e.com", "cyrillic"]
  ])("%s: %s is %s's", (domain, name, fuzzer) => {
    expect(fuzzerOf(domain, name)).toBe(fuzzer)
  })
})

describe("choosing fuzzers", () => {
  test("only those asked run, in the fixed order whatever order they are given", () => {
    const set = of("example.com", ["plural", "addition"])
    expect(Object.keys(set.by_fuzzer)).toEqual(["addition", "plural"])
    expect(set.permutations.find((p) => p.domain === "examples.com")?.fuzzer).toBe("addition")
    expect(of("example.com", ["plural"]).permutations.map((p) => p.domain)).toEqual(["examples.com"])
  })

  test("tld-swap alone: the label under about thirty popular suffixes, not its own", () => {
    const set = of("example.de", ["tld-swap"])
    const names = set.permutations.map((p) => p.domain)
    expect(names).toContain("example.com")
    expect(names).toContain("example.co.uk")
    expect(names).not.toContain("example.de")
    expect(names.length).toBeGreaterThanOrEqual(28)
    expect(names.length).toBeLessThanOrEqual(40)
  })

  test("FUZZERS lists dnstwist's thirteen then ours", () => {
    expect(FUZZERS.length).toBe(15)
    expect(FUZZERS.slice(-2)).toEqual(["plural", "tld-swap"])
  })
})

describe("internationalized names", () => {
  test("bücher.de: ASCII and Unicode forms side by side, homoglyphs in Unicode", () => {
    const set = of("bücher.de")
    expect(set.domain).toEqual({ ascii: "xn--bcher-kva.de", unicode: "bücher.de" })
    const h = set.permutations.find((p) => p.unicode === "bücһer.de")
    expect(h).toBeUndefined() // Cyrillic һ is the cyrillic fuzzer's, and only for a whole label
    const glyph = set.permutations.find((p) => p.unicode === "bücher.de".replace("c", "ç"))!
    expect(glyph).toEqual({ fuzzer: "homoglyph", domain: domainToASCII("büçher.de"), unicode: "büçher.de" })
  })
})
