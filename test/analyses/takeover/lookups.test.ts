/**
 * The DNS side's pure parts and the chain walk over answers a real resolver rarely sends (a
 * partial chain, a loop inside one answer, a chain past the hop limit, a lost datagram): those
 * answers come from a table here, the only place the takeover tests do not ask a real resolver.
 * And the SPF targets read through the mail analysis's parser.
 */
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import type { DnsRecord } from "../../../src/adapters/dns/DnsResolver"
import { spfTargets } from "../../../src/analyses/takeover/checkName"
import { type Answer, MAX_HOPS, matchesWildcard, registeredDomainOf, resolveChain } from "../../../src/analyses/takeover/lookups"

const rec = (name: string, type: "CNAME" | "A", data: string) => ({ name, type, ttl: 60, class: "IN", data }) as unknown as DnsRecord
const answer = (rcode: Answer["rcode"], records: ReadonlyArray<DnsRecord> = []): Answer => ({ rcode, answers: records, authorities: [] })

/** A resolver from a table of (name type) → answer; every question asked is counted. */
const table = (t: Record<string, Answer>) => {
  const asked: Array<string> = []
  const q = (name: string, type: string) => Effect.sync(() => {
    asked.push(`${name} ${type}`)
    return t[`${name} ${type}`] ?? answer("NXDOMAIN")
  })
  return { q, asked }
}

const run = <A>(e: Effect.Effect<A>) => Effect.runPromise(e)

describe("resolveChain", () => {
  test("the whole chain from one answer, with the addresses at its end", async () => {
    const { q, asked } = table({
      "a.victim.example A": answer("NOERROR", [rec("a.victim.example", "CNAME", "b.victim.example"), rec("b.victim.example", "CNAME", "x.github.io"), rec("x.github.io", "A", "192.0.2.1")])
    })
    const c = await run(resolveChain(q, "a.victim.example"))
    expect(c.hops).toEqual([
      { name: "a.victim.example", rcode: "NOERROR", cname: "b.victim.example" },
      { name: "b.victim.example", rcode: "NOERROR", cname: "x.github.io" },
      { name: "x.github.io", rcode: "NOERROR", cname: null }
    ])
    expect(c.addresses).toEqual(["192.0.2.1"])
    expect(asked).toEqual(["a.victim.example A"])
  })

  test("an answer that stops at a target without its records: the target is asked next; AAAA where there is no A", async () => {
    const { q, asked } = table({
      "a.victim.example A": answer("NOERROR", [rec("a.victim.example", "CNAME", "b.partner.example")]),
      "b.partner.example A": answer("NOERROR", [rec("b.partner.example", "CNAME", "c.cdn.example")]),
      "c.cdn.example A": answer("NOERROR"),
      "c.cdn.example AAAA": answer("NOERROR", [{ name: "c.cdn.example", type: "AAAA", ttl: 60, class: "IN", data: "2001:db8::1" } as unknown as DnsRecord])
    })
    const c = await run(resolveChain(q, "a.victim.example"))
    expect(c.hops.map((h) => `${h.name} ${h.rcode} ${h.cname}`)).toEqual([
      "a.victim.example NOERROR b.partner.example",
      "b.partner.example NOERROR c.cdn.example",
      "c.cdn.example NOERROR null"
    ])
    expect(c.addresses).toEqual(["2001:db8::1"])
    expect(asked).toEqual(["a.victim.example A", "b.partner.example A", "c.cdn.example A", "c.cdn.example AAAA"])
  })

  test("NXDOMAIN at the end of a chain belongs to its last name", async () => {
    const { q } = table({ "a.victim.example A": answer("NXDOMAIN", [rec("a.victim.example", "CNAME", "gone.expired.example")]) })
    const c = await run(resolveChain(q, "a.victim.example"))
    expect(c.hops.at(-1)).toEqual({ name: "gone.expired.example", rcode: "NXDOMAIN", cname: null })
  })

  test("a loop inside an answer ends the walk as LOOP", async () => {
    const { q } = table({ "a.victim.example A": answer("NOERROR", [rec("a.victim.example", "CNAME", "b.victim.example"), rec("b.victim.example", "CNAME", "a.victim.example")]) })
    const c = await run(resolveChain(q, "a.victim.example"))
    expect(c.hops.at(-1)).toEqual({ name: "a.victim.example", rcode: "LOOP", cname: null })
  })

  test("a loop across answers ends as LOOP too", async () => {
    const { q } = table({
      "a.victim.example A": answer("NOERROR", [rec("a.victim.example", "CNAME", "b.victim.example")]),
      "b.victim.example A": answer("NOERROR", [rec("b.victim.example", "CNAME", "a.victim.example")])
    })
    const c = await run(resolveChain(q, "a.victim.example"))
    expect(c.hops.map((h) => h.rcode)).toEqual(["NOERROR", "NOERROR", "LOOP"])
  })

  test(`a chain longer than ${MAX_HOPS} hops ends as TOO_LONG`, async () => {
    const records = Array.from({ length: 20 }, (_, i) => rec(`h${i}.example`, "CNAME", `h${i + 1}.example`))
    const { q } = table({ "h0.example A": answer("NOERROR", records) })
    const c = await run(resolveChain(q, "h0.example"))
    expect(c.hops.length).toBe(MAX_HOPS + 1)
    expect(c.hops.at(-1)?.rcode).toBe("TOO_LONG")
  })

  test("a failed lookup is the chain's end with its code", async () => {
    const { q } = table({ "a.victim.example A": answer("NOERROR", [rec("a.victim.example", "CNAME", "b.lame.example")]), "b.lame.example A": answer("SERVFAIL") })
    const c = await run(resolveChain(q, "a.victim.example"))
    // The first answer had nothing at b.lame.example, so it was asked itself.
    expect(c.hops.at(-1)).toEqual({ name: "b.lame.example", rcode: "SERVFAIL", cname: null })
  })
})

describe("wildcards", () => {
  const chainOf = (first: string | null, ips: ReadonlyArray<string> = []) => ({ hops: [{ name: "x.victim.example", rcode: "NOERROR" as const, cname: first }], addresses: ips })
  test.each([
    [chainOf("any.github.io"), { cname: "any.github.io", ips: [] }, true],
    [chainOf("own.github.io"), { cname: "any.github.io", ips: [] }, false],
    [chainOf(null, ["192.0.2.2", "192.0.2.1"]), { cname: null, ips: ["192.0.2.1", "192.0.2.2"] }, true],
    [chainOf(null, ["192.0.2.9"]), { cname: null, ips: ["192.0.2.1"] }, false],
    [chainOf("any.github.io"), null, false]
  ])("%j against %j: %p", (c, wc, same) => {
    expect(matchesWildcard(c, wc)).toBe(same)
  })
})

describe("registered domains (the public suffix list's ICANN section)", () => {
  test.each([
    ["host.dead-target.com", "dead-target.com"],
    ["a.b.example.co.uk", "example.co.uk"],
    ["victim-blog.github.io", "github.io"],
    ["ns1.expired.example", "expired.example"]
  ])("%s → %s", (name, domain) => {
    expect(registeredDomainOf(name)).toBe(domain)
  })
})

describe("SPF targets", () => {
  test("include: and redirect= as written, macros and other records left out", () => {
    expect(spfTargets([
      "v=spf1 include:_spf.Partner.example include:%{d}.macro.example ip4:192.0.2.0/24 -all",
      "v=spf1 redirect=_spf.other.example",
      "google-site-verification=abc",
      "v=spf1 include: broken"
    ])).toEqual([
      { mechanism: "include", target: "_spf.partner.example" },
      { mechanism: "redirect", target: "_spf.other.example" }
    ])
  })
})
