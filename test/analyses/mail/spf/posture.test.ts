/**
 * spfPosture over fake zones: counting through nested includes and redirect, loops, fan-out,
 * void lookups, +all, two records, and the round trips a nested tree costs.
 */
import { describe, expect, test } from "bun:test"
import { Effect, Fiber, Option, TestClock, TestContext } from "effect"
import { checkHost } from "../../../../src/analyses/mail/spf/checkHost"
import { spfPosture } from "../../../../src/analyses/mail/spf/posture"
import { type Zone, zoneDns } from "./zoneDns"

const posture = (zone: Zone, domain = "example.com") => {
  const { dns, log } = zoneDns(zone)
  return Effect.runPromise(spfPosture(dns, domain)).then((report) => ({ report, log }))
}
const txt = (...records: Array<string>) => records.map((r) => ({ TXT: r }))

describe("spfPosture", () => {
  const nested: Zone = {
    "example.com": [...txt("v=spf1 ip4:192.0.2.0/24 include:_spf.a.example include:_spf.b.example -all"), { MX: [10, "mail.example.com"] }],
    "_spf.a.example": [...txt("v=spf1 a:mail.a.example mx ~all"), { MX: [10, "mail.a.example"] }],
    "mail.a.example": [{ A: "192.0.2.10" }],
    "_spf.b.example": txt("v=spf1 include:_spf.c.example ?all"),
    "_spf.c.example": txt("v=spf1 exists:%{i}.bl.c.example ptr -all")
  }

  test("counts through nested includes and lists every include reached", async () => {
    const { report } = await posture(nested)
    expect(report).toEqual({
      record: "v=spf1 ip4:192.0.2.0/24 include:_spf.a.example include:_spf.b.example -all",
      valid: true,
      all: "fail",
      // include a, a:, mx, include b, include c, exists, ptr (exists and ptr depend on the client)
      lookups: 7,
      void_lookups: 0,
      includes: ["_spf.a.example", "_spf.b.example", "_spf.c.example"],
      errors: []
    })
  })

  test("the static count equals check_host()'s count for a client nothing matches", async () => {
    const { report } = await posture(nested)
    const { dns } = zoneDns(nested)
    const evaluated = await Effect.runPromise(checkHost(dns, { ip: "198.51.100.7", domain: "example.com", sender: "x@example.com", now: 0 }))
    expect(evaluated.result).toBe("fail")
    expect(evaluated.lookups).toBe(report.lookups)
  })

  test("more than 10 lookups through includes is invalid, with the count", async () => {
    const zone: Zone = {
      "example.com": txt("v=spf1 include:one.example include:two.example include:three.example -all"),
      "three.example": txt("v=spf1 a:h1.one.example a:h2.one.example"),
      "h1.one.example": [{ A: "192.0.2.1" }],
      "h2.one.example": [{ A: "192.0.2.2" }],
      "h3.one.example": [{ AAAA: "2001:db8::3" }],
      "h4.one.example": [{ A: "192.0.2.4" }],
      "one.example": [...txt("v=spf1 a:h1.one.example a:h2.one.example a:h3.one.example a:h4.one.example"), { MX: [1, "h1.one.example"] }],
      "two.example": [...txt("v=spf1 mx:one.example mx:two.example a:h1.one.example a:h2.one.example"), { MX: [1, "h2.one.example"] }]
    }
    const { report } = await posture(zone)
    expect(report.lookups).toBe(13)
    expect(report.valid).toBe(false)
    expect(report.errors).toEqual(["more than 10 DNS lookups (13)"])
    expect(report.void_lookups).toBe(0)
  })

  test("an include loop is reported and not followed", async () => {
    const zone: Zone = {
      "example.com": txt("v=spf1 include:a.example -all"),
      "a.example": txt("v=spf1 include:b.example"),
      "b.example": txt("v=spf1 include:a.example")
    }
    const { report, log } = await posture(zone)
    expect(report.valid).toBe(false)
    expect(report.errors).toContain("include loop: example.com -> a.example -> b.example -> a.example")
    expect(report.includes).toEqual(["a.example", "b.example"])
    expect(log.length).toBe(3)
  })

  test("a hostile fan-out stops once past the limit", async () => {
    const zone: Record<string, Zone[string]> = {}
    const fan = (name: string, depth: number): void => {
      const kids = Array.from({ length: 10 }, (_, k) => `n${k}.${name}`)
      zone[name] = txt(`v=spf1 ${kids.map((k) => `include:${k}`).join(" ")} -all`)
      if (depth > 0) kids.forEach((k) => fan(k, depth - 1))
    }
    fan("example.com", 3)
    const { report, log } = await posture(zone)
    expect(report.errors).toEqual(["more than 10 DNS lookups (at least 110)"])
    // the root, its 10 includes; their 100 includes are never fetched
    expect(log.filter((q) => q.type === "TXT").length).toBe(11)
  })

  test("void lookups over 2 are a permerror; exists is an A query", async () => {
    const zone: Zone = {
      "example.com": txt("v=spf1 a:gone1.example mx:gone2.example exists:gone3.example a:v6only.example ~all"),
      "gone2.example": [{ A: "192.0.2.1" }],
      "v6only.example": [{ AAAA: "2001:db8::1" }]
    }
    const { report, log } = await posture(zone)
    expect(report.void_lookups).toBe(3)
    expect(report.errors).toEqual(["void lookups 3 > 2"])
    expect(report.all).toBe("softfail")
    expect(log.filter((q) => q.name === "gone3.example").map((q) => q.type)).toEqual(["A"])
  })

  test("+all is reported as pass", async () => {
    const { report } = await posture({ "example.com": txt("v=spf1 +all") })
    expect(report).toMatchObject({ valid: true, all: "pass", lookups: 0 })
  })

  test("two SPF records are an error; other TXT records are ignored", async () => {
    const { report } = await posture({ "example.com": txt("v=spf1 -all", "google-site-verification=x", "v=spf1 ~all") })
    expect(report).toMatchObject({ record: "v=spf1 -all", valid: false, all: null, errors: ["2 SPF records"] })
  })

  test("no record: record null, not valid", async () => {
    const { report } = await posture({ "example.com": txt("hello") })
    expect(report).toEqual({ record: null, valid: false, all: null, lookups: 0, void_lookups: 0, includes: [], errors: [] })
  })

  test("redirect: the final all comes from the target; an all disables redirect", async () => {
    const zone: Zone = {
      "example.com": txt("v=spf1 mx redirect=_spf.example.net"),
      "_spf.example.net": txt("v=spf1 ip4:192.0.2.0/24 redirect=_spf2.example.net"),
      "_spf2.example.net": txt("v=spf1 ?all"),
      "example.org": txt("v=spf1 -all redirect=_spf.example.net")
    }
    expect((await posture(zone)).report).toMatchObject({
      valid: true, all: "neutral", lookups: 3, void_lookups: 1, includes: ["_spf.example.net", "_spf2.example.net"]
    })
    expect((await posture(zone, "example.org")).report).toMatchObject({ all: "fail", lookups: 0, includes: [] })
  })

  test("an include without a record, a nested syntax error, a nested DNS failure", async () => {
    const zone: Zone = {
      "example.com": txt("v=spf1 include:nothing.example include:bad.example include:slow.example -all"),
      "nothing.example": txt("not spf"),
      "bad.example": txt("v=spf1 ip4:192.0.2.300 -all"),
      "slow.example": ["TIMEOUT"]
    }
    const { report } = await posture(zone)
    expect(report.valid).toBe(false)
    expect(report.errors).toEqual([
      "include:nothing.example has no SPF record",
      "bad.example: syntax error: invalid ip4 network in 'ip4:192.0.2.300'",
      "slow.example: DNS error looking up the SPF record (timeout)"
    ])
    expect(report.void_lookups).toBe(0)
  })

  test("nested includes cost one DNS round trip per level", async () => {
    // Every query takes one (test-clock) second; queries issued together share the second.
    const zone: Zone = {
      "example.com": [...txt("v=spf1 a include:l1a.example include:l1b.example -all"), { A: "192.0.2.1" }],
      "l1a.example": txt("v=spf1 include:l2a.example include:l2b.example mx:l1a.example"),
      "l1b.example": txt("v=spf1 include:l2c.example"),
      "l2a.example": txt("v=spf1 include:l3.example"),
      "l2b.example": txt("v=spf1 ip4:192.0.2.0/24"),
      "l2c.example": txt("v=spf1 a:host.l2c.example"),
      "l3.example": txt("v=spf1 ip6:2001:db8::/32")
    }
    const { dns, log } = zoneDns(zone, { latency: "1 second" })
    const report = await Effect.runPromise(Effect.gen(function*() {
      const fiber = yield* Effect.fork(spfPosture(dns, "example.com"))
      // Advance until done (a one-query-at-a-time walk would take about 15 seconds, not 4).
      for (let k = 0; k < 40 && Option.isNone(yield* Fiber.poll(fiber)); k++) yield* TestClock.adjust("1 second")
      return yield* Fiber.join(fiber)
    }).pipe(Effect.provide(TestContext.TestContext)))
    expect(report.lookups).toBe(9)
    const at = (type: string, name: string) => log.find((q) => q.type === type && q.name === name)?.at
    expect(at("TXT", "example.com")).toBe(0)
    expect([at("TXT", "l1a.example"), at("TXT", "l1b.example"), at("A", "example.com")]).toEqual([1000, 1000, 1000])
    expect([at("TXT", "l2a.example"), at("TXT", "l2b.example"), at("TXT", "l2c.example"), at("MX", "l1a.example")]).toEqual([2000, 2000, 2000, 2000])
    expect([at("TXT", "l3.example"), at("A", "host.l2c.example")]).toEqual([3000, 3000])
    expect(new Set(log.map((q) => q.at)).size).toBe(4)
  })
})
