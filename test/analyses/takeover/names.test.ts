/** The names a takeover check resolves: merged, deduplicated, bounded, counted per source. */
import { describe, expect, test } from "bun:test"
import { MAX_NAMES, mergeNames, nameUnder } from "../../../src/analyses/takeover/names"
import { WORDLIST } from "../../../src/analyses/takeover/wordlist"

describe("the word list", () => {
  test("at least 50 labels, each once, each a valid label", () => {
    expect(WORDLIST.length).toBeGreaterThanOrEqual(50)
    expect(new Set(WORDLIST).size).toBe(WORDLIST.length)
    for (const w of WORDLIST) expect(w).toMatch(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/)
    for (const w of ["www", "mail", "blog", "shop", "docs", "status", "cdn", "api", "dev", "staging"]) expect(WORDLIST).toContain(w)
  })
})

describe("a name under the domain", () => {
  test.each([
    ["Shop.Victim.Example.", "shop.victim.example"],
    ["*.cdn.victim.example", "cdn.victim.example"],
    ["victim.example", "victim.example"],
    ["_acme-challenge.victim.example", "_acme-challenge.victim.example"],
    ["other.example", null],
    ["evilvictim.example", null],
    ["a..victim.example", null],
    ["bad name.victim.example", null],
    ["-x.victim.example", null]
  ])("%s → %s", (raw, name) => {
    expect(nameUnder(raw, "victim.example")).toBe(name)
  })
})

describe("merging the sources", () => {
  test("the domain first, then given, zone transfer, CT, word list; each name once; counts per source", () => {
    const set = mergeNames({
      domain: "Victim.Example",
      given: ["promo.victim.example", "www.victim.example", "elsewhere.example"],
      zone_transfer: ["www.victim.example", "vpn.victim.example"],
      ct: ["*.shop.victim.example", "shop.victim.example", "vpn.victim.example"],
      wordlist: ["www", "blog"]
    })
    expect(set.names).toEqual(["victim.example", "promo.victim.example", "www.victim.example", "vpn.victim.example", "shop.victim.example", "blog.victim.example"])
    expect(set.sources).toEqual({ given: 2, zone_transfer: 2, ct: 2, wordlist: 2 })
    expect(set).toMatchObject({ found: 6, cut: false, limitations: [] })
  })

  test("the built-in word list when none is given", () => {
    const set = mergeNames({ domain: "victim.example" })
    expect(set.names.length).toBe(1 + WORDLIST.length)
    expect(set.sources).toEqual({ given: 0, zone_transfer: 0, ct: 0, wordlist: WORDLIST.length })
  })

  test("bounded: the later sources lose their names, and a limitation says how many and from where", () => {
    const ct = Array.from({ length: 30 }, (_, i) => `h${i}.victim.example`)
    const set = mergeNames({ domain: "victim.example", given: ["g.victim.example"], zone_transfer: ["z.victim.example"], ct, wordlist: ["www", "mail"] }, 10)
    expect(set.names.length).toBe(10)
    expect(set.names.slice(0, 3)).toEqual(["victim.example", "g.victim.example", "z.victim.example"])
    expect(set.sources).toEqual({ given: 1, zone_transfer: 1, ct: 7, wordlist: 0 })
    expect(set).toMatchObject({ found: 35, cut: true })
    expect(set.limitations).toEqual(["35 names found, 10 checked (the bound is 10); left out: 23 from ct, 2 from wordlist"])
  })

  test(`at most ${MAX_NAMES} names by default`, () => {
    const ct = Array.from({ length: 5_000 }, (_, i) => `n${i}.victim.example`)
    const set = mergeNames({ domain: "victim.example", ct })
    expect(set.names.length).toBe(MAX_NAMES)
    expect(set.cut).toBe(true)
    expect(new Set(set.names).size).toBe(MAX_NAMES)
  })
})
