/** The blocklist check's plan (what is asked) and report (how answers and test-point verdicts combine). */
import { describe, expect, test } from "bun:test"
import { InvalidRequest } from "../../../src/kernel/errors"
import type { Lookup } from "../../../src/analyses/mail/lookup"
import { NO_HOSTS, parseTarget, plan, type BlocklistTarget } from "../../../src/analyses/blocklist/plan"
import { buildReport, queriesToAsk, verdictsOf, type QueryOutcome } from "../../../src/analyses/blocklist/report"
import { BlocklistReport } from "../../../src/analyses/blocklist/schema"
import { judgeTestPoints } from "../../../src/analyses/blocklist/testPoints"
import { Schema } from "effect"

const nx: Lookup<string> = { _tag: "Void", rcode: "NXDOMAIN" }
const a = (...records: Array<string>): Lookup<string> => ({ _tag: "Found", records })
const zones = { ip: ["zen.example", "bl.example"], domain: ["dbl.example"] }
const target = (input: string) => parseTarget(input) as BlocklistTarget

describe("the target", () => {
  test.each([
    ["192.0.2.1", { kind: "ip", item: { kind: "ipv4", value: "192.0.2.1" } }],
    [" [2001:DB8::1] ", { kind: "ip", item: { kind: "ipv6", value: "2001:db8::1" } }],
    ["::ffff:192.0.2.1", { kind: "ip", item: { kind: "ipv4", value: "192.0.2.1" } }],
    ["Example.COM.", { kind: "domain", domain: "example.com" }],
    ["https://example.com/", { kind: "domain", domain: "example.com" }]
  ])("%s", (input, expected) => {
    expect(parseTarget(input)).toEqual(expected as never)
  })

  test.each(["", "0x7f.1", "127.1", "1.2.3.256", "example.com:25", "user@example.com", "ftp://example.com", "exa mple.com", "fe80::1%eth0"])(
    "%p is refused with a 400",
    (input) => {
      const t = parseTarget(input)
      expect(t).toBeInstanceOf(InvalidRequest)
      expect((t as InvalidRequest).message).toContain("target must be an IPv4 or IPv6 address or a domain name")
    }
  )

  test.each([
    ["example.com:25", "(has a port)"],
    ["", "(empty)"],
    ["0x7f.1", "(an address is four decimal numbers 0-255, or IPv6; a domain's last label is not all digits)"],
    ["fe80::1%eth0", "(an address with a zone index names a network link, not a host a list could know)"],
    ["a".repeat(301), "(longer than 300 characters)"]
  ])("%p: the message says why", (input, why) => {
    expect((parseTarget(input) as InvalidRequest).message).toEndWith(`is neither ${why}`)
  })
})

describe("the plan", () => {
  test("an address: the address on every IP list, no domain list", () => {
    const p = plan(target("192.0.2.1"), zones)
    expect(p).toMatchObject({ target: "192.0.2.1", kind: "ip", ips: ["192.0.2.1"], unqueryable: [], limitations: [] })
    expect(p.queries.map((q) => [q.zone, q.list, q.name])).toEqual([
      ["zen.example", "ip", "1.2.0.192.zen.example"],
      ["bl.example", "ip", "1.2.0.192.bl.example"]
    ])
    expect(p.lists).toEqual([{ zone: "zen.example", kind: "ip" }, { zone: "bl.example", kind: "ip" }])
  })

  test("a domain: the domain on the domain lists, each address of its A, AAAA and MX hosts once on the IP lists", () => {
    const p = plan(target("example.com"), zones, {
      a: ["192.0.2.1"],
      aaaa: ["2001:db8::1"],
      mx: [{ host: "mx1.example.com", ips: ["192.0.2.1", "192.0.2.25"] }, { host: "mx2.example.com", ips: ["::ffff:192.0.2.26", "2001:DB8::1"] }]
    })
    expect(p.ips).toEqual(["192.0.2.1", "2001:db8::1", "192.0.2.25", "192.0.2.26"])
    expect(p.queries.map((q) => `${q.list} ${q.item.value} @ ${q.zone}`)).toEqual([
      "domain example.com @ dbl.example",
      ...["zen.example", "bl.example"].flatMap((z) => ["192.0.2.1", "2001:db8::1", "192.0.2.25", "192.0.2.26"].map((i) => `ip ${i} @ ${z}`))
    ])
    expect(p.queries[0].name).toBe("example.com.dbl.example")
    expect(p.limitations).toEqual([])
  })

  test("a domain without addresses is checked on the domain lists only, and says so", () => {
    const p = plan(target("example.com"), zones)
    expect(p.queries.map((q) => q.zone)).toEqual(["dbl.example"])
    expect(p.limitations).toEqual(["example.com has no address (A, AAAA or MX host): only the domain lists were asked"])
  })

  test("a resolved value that is no address is left out with a limitation", () => {
    const p = plan(target("example.com"), zones, { a: ["not-an-ip"], aaaa: [], mx: [] })
    expect(p.limitations[0]).toBe('"not-an-ip" is not an IP address and was not asked')
  })

  test("no configured list: nothing asked, and the limitation names the variable", () => {
    const p = plan(target("example.com"), { ip: [], domain: [] }, { a: ["192.0.2.1"], aaaa: [], mx: [] })
    expect(p.queries).toEqual([])
    expect(p.limitations).toEqual([
      "No IP list is configured (DNSBL_IP_ZONES): the addresses were not checked",
      "No domain list is configured (DNSBL_DOMAIN_ZONES): the domain itself was not checked"
    ])
  })

  test("a domain too long to be asked under a zone is unqueryable, not silently skipped", () => {
    const long = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(50)}.com`
    const p = plan(target(long), { ip: [], domain: ["dbl.example"] })
    expect(p.queries).toEqual([])
    expect(p.unqueryable).toHaveLength(1)
    expect(p.unqueryable[0].why).toContain("at most 253")
  })
})

describe("what the plan leaves out", () => {
  test("withheld addresses are counted, never named, and not asked; the domain lists still are", () => {
    const p = plan(target("example.com"), zones, { a: ["10.0.0.5", "192.0.2.1"], aaaa: [], mx: [{ host: "mx.example.com", ips: ["192.168.1.2"] }] }, {
      withhold: (ip) => ip.startsWith("10.") || ip.startsWith("192.168.")
    })
    expect(p.ips).toEqual(["192.0.2.1"])
    expect(p.limitations).toEqual(["2 addresses of example.com's hosts are in a private or special-purpose range and were not asked: public lists list only public addresses"])
    expect(JSON.stringify(p)).not.toContain("10.0.0.5")
    const all = plan(target("example.com"), zones, { a: ["10.0.0.5"], aaaa: [], mx: [] }, { withhold: () => true })
    expect(all.queries.map((q) => q.zone)).toEqual(["dbl.example"])
    expect(all.limitations).toEqual(["1 address of example.com's hosts is in a private or special-purpose range and was not asked: public lists list only public addresses"])
  })

  test("an address target that is withheld is asked of no list, and the report says why", () => {
    const p = plan(target("10.0.0.5"), zones, NO_HOSTS, { withhold: (ip) => ip.startsWith("10.") })
    expect(p.ips).toEqual([])
    expect(p.queries).toEqual([])
    expect(p.limitations).toEqual(["10.0.0.5 is in a private or special-purpose range and was not asked: public lists list only public addresses"])
    expect(plan(target("192.0.2.5"), zones, NO_HOSTS, { withhold: (ip) => ip.startsWith("10.") }).ips).toEqual(["192.0.2.5"])
  })

  test("at most maxAddresses of a domain's addresses are asked, the first ones, and the rest is said", () => {
    const a = Array.from({ length: 5 }, (_, i) => `192.0.2.${i + 1}`)
    const p = plan(target("example.com"), zones, { a, aaaa: [], mx: [] }, { maxAddresses: 3 })
    expect(p.ips).toEqual(a.slice(0, 3))
    expect(p.limitations).toEqual(["example.com's hosts have 5 addresses: only the first 3 were asked"])
  })

  test("a host name under a registered domain carries a hint to check the registered domain", () => {
    expect(plan(target("www.example.co.uk"), zones).limitations).toContain(
      "www.example.co.uk is not a registered domain: domain lists mostly list registered domains, so check example.co.uk as well"
    )
    expect(plan(target("example.co.uk"), zones).limitations.some((l) => l.includes("registered domain"))).toBe(false)
    expect(plan(target("www.example.co.uk"), { ip: zones.ip, domain: [] }).limitations.some((l) => l.includes("registered domain"))).toBe(false)
  })
})

describe("the report", () => {
  const p = plan(target("example.com"), zones, { a: ["192.0.2.1"], aaaa: ["2001:db8::1"], mx: [] })
  const good = judgeTestPoints("zen.example", "ip", { listed: a("127.0.0.2"), unlisted: nx, ipv6_listed: a("127.0.0.2"), ipv6_unlisted: nx })
  const outcome = (answer: Lookup<string>, txt: string | null = null): QueryOutcome => ({ answer, txt })
  const allNx = new Map(p.queries.map((q) => [q.name, outcome(nx)]))

  test("trusted lists: each answer classified; listed_count counts listed entries; it encodes through its schema", () => {
    const verdicts = verdictsOf([
      { zone: "zen.example", kind: "ip", verdict: good },
      { zone: "bl.example", kind: "ip", verdict: good },
      { zone: "dbl.example", kind: "domain", verdict: judgeTestPoints("dbl.example", "domain", { listed: a("127.0.1.2"), unlisted: nx }) }
    ])
    const outcomes = new Map(allNx)
    outcomes.set("1.2.0.192.zen.example", outcome(a("127.0.0.4", "127.0.0.2"), "https://www.spamhaus.org/query/ip/192.0.2.1"))
    outcomes.set("example.com.dbl.example", outcome(a("127.255.255.254")))
    const r = buildReport(p, verdicts, outcomes, "2026-01-01T00:00:00.000Z")
    expect(r.lists).toContainEqual({ zone: "zen.example", item: "192.0.2.1", status: "listed", codes: ["127.0.0.2", "127.0.0.4"], reason: "https://www.spamhaus.org/query/ip/192.0.2.1" })
    expect(r.lists).toContainEqual({ zone: "bl.example", item: "2001:db8::1", status: "not_listed", codes: [], reason: null })
    expect(r.lists.find((l) => l.zone === "dbl.example")).toMatchObject({ status: "error", codes: ["127.255.255.254"] })
    expect(r.listed_count).toBe(1)
    expect(r.lists).toHaveLength(5)
    expect(r.limitations).toEqual([])
    expect(Schema.encodeSync(BlocklistReport)(r)).toEqual(r)
    expect(queriesToAsk(p, verdicts)).toHaveLength(5)
  })

  test("a list that failed its test points is error for every item and is not asked", () => {
    const bad = judgeTestPoints("bl.example", "ip", { listed: nx, unlisted: nx })
    const verdicts = verdictsOf([
      { zone: "zen.example", kind: "ip", verdict: good },
      { zone: "bl.example", kind: "ip", verdict: bad },
      { zone: "dbl.example", kind: "domain", verdict: judgeTestPoints("dbl.example", "domain", { listed: a("127.0.1.2"), unlisted: nx }) }
    ])
    expect(queriesToAsk(p, verdicts).map((q) => q.zone)).not.toContain("bl.example")
    // Even if an answer were there, a failed list's items stay error.
    const r = buildReport(p, verdicts, allNx, "t")
    const onBad = r.lists.filter((l) => l.zone === "bl.example")
    expect(onBad.map((l) => l.status)).toEqual(["error", "error"])
    expect(onBad[0].reason).toContain("bl.example failed its RFC 5782 test points")
    expect(r.limitations.some((l) => l.includes("every item on it is error"))).toBe(true)
  })

  test("a list whose test points were never asked, and a query never answered, are errors", () => {
    const verdicts = verdictsOf([{ zone: "zen.example", kind: "ip", verdict: good }])
    const r = buildReport(p, verdicts, new Map(), "t")
    expect(r.lists.every((l) => l.status === "error")).toBe(true)
    expect(r.lists.find((l) => l.zone === "zen.example")!.reason).toBe("the list was not asked before the operation's deadline")
    expect(r.lists.find((l) => l.zone === "dbl.example")!.reason).toContain("test points could not be asked")
  })

  test("IPv6 items: error on a list that failed its IPv6 points; a limitation where the list has no IPv6 test point", () => {
    const v6broken = judgeTestPoints("zen.example", "ip", { listed: a("127.0.0.2"), unlisted: nx, ipv6_listed: a("127.0.0.2"), ipv6_unlisted: a("127.0.0.2") })
    const v6absent = judgeTestPoints("bl.example", "ip", { listed: a("127.0.0.2"), unlisted: nx, ipv6_listed: nx, ipv6_unlisted: nx })
    const verdicts = verdictsOf([
      { zone: "zen.example", kind: "ip", verdict: v6broken },
      { zone: "bl.example", kind: "ip", verdict: v6absent },
      { zone: "dbl.example", kind: "domain", verdict: judgeTestPoints("dbl.example", "domain", { listed: a("127.0.1.2"), unlisted: nx }) }
    ])
    const r = buildReport(p, verdicts, allNx, "t")
    expect(r.lists.find((l) => l.zone === "zen.example" && l.item === "2001:db8::1")!.status).toBe("error")
    expect(r.lists.find((l) => l.zone === "zen.example" && l.item === "192.0.2.1")!.status).toBe("not_listed")
    expect(r.lists.find((l) => l.zone === "bl.example" && l.item === "2001:db8::1")!.status).toBe("not_listed")
    expect(r.limitations).toHaveLength(2)
    expect(r.limitations[1]).toContain("bl.example does not list its RFC 5782 IPv6 test point ::ffff:7f00:2")
    expect(queriesToAsk(p, verdicts).map((q) => `${q.zone} ${q.item.value}`)).not.toContain("zen.example 2001:db8::1")
  })

  test("unqueryable items are error entries", () => {
    const long = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(50)}.com`
    const q = plan(target(long), { ip: [], domain: ["dbl.example"] })
    const r = buildReport(q, new Map(), new Map(), "t")
    expect(r.lists).toEqual([{ zone: "dbl.example", item: long, status: "error", codes: [], reason: q.unqueryable[0].why }])
  })
})
