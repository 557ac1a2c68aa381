/** The pure cores of the blocklist (DNSBL) check: query names, statuses, test points, plan, report. */
import { describe, expect, test } from "bun:test"
import { Cache, Duration, Effect, Exit, TestClock, TestContext } from "effect"
import type { Lookup } from "../../../src/analyses/mail/lookup"
import { classify, ERROR_CODES } from "../../../src/analyses/blocklist/classify"
import { ipItem, isUnqueryable, queryName, reverseIPv4, reverseIPv6 } from "../../../src/analyses/blocklist/query"
import { testPointCachePolicy, testPointKey, testQueries, judgeTestPoints, type TestAnswers, type TestPointKey } from "../../../src/analyses/blocklist/testPoints"

const nx: Lookup<string> = { _tag: "Void", rcode: "NXDOMAIN" }
const nodata: Lookup<string> = { _tag: "Void", rcode: "NOERROR" }
const a = (...records: Array<string>): Lookup<string> => ({ _tag: "Found", records })
const failed = (reason: string): Lookup<string> => ({ _tag: "Failed", reason })

describe("query names (RFC 5782 §2)", () => {
  test("IPv4: octets reversed (§2.1's example)", () => {
    expect(reverseIPv4("192.0.2.99")).toBe("99.2.0.192")
    expect(queryName({ kind: "ipv4", value: "192.0.2.99" }, "bad.example.com")).toBe("99.2.0.192.bad.example.com")
  })

  test("IPv6: 32 nibbles, reversed (§2.4's own example)", () => {
    expect(queryName({ kind: "ipv6", value: "2001:db8:1:2:3:4:567:89ab" }, "ugly.example.com")).toBe(
      "b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.8.b.d.0.1.0.0.2.ugly.example.com"
    )
  })

  test.each([
    ["::1", "1" + ".0".repeat(31)],
    ["2001:db8::", "0.".repeat(24) + "8.b.d.0.1.0.0.2"],
    ["::ffff:7f00:2", "2.0.0.0.0.0.f.7.f.f.f.f" + ".0".repeat(20)]
  ])("IPv6 %s is fully expanded, never compressed", (address, nibbles) => {
    const name = reverseIPv6(address)
    expect(name).toBe(nibbles)
    expect(name.split(".")).toHaveLength(32)
  })

  test.each([
    ["192.0.2.99", { kind: "ipv4", value: "192.0.2.99" }],
    ["2001:DB8:0:0:0:0:0:1", { kind: "ipv6", value: "2001:db8::1" }],
    ["[2001:db8::1]", { kind: "ipv6", value: "2001:db8::1" }],
    // IPv4-mapped: the host is an IPv4 host, asked of IPv4 lists by its octets.
    ["::ffff:192.0.2.99", { kind: "ipv4", value: "192.0.2.99" }],
    ["::ffff:c000:263", { kind: "ipv4", value: "192.0.2.99" }],
    ["0x7f.1", null],
    ["2130706433", null],
    ["1.2.3", null],
    ["fe80::1%eth0", null],
    ["example.com", null]
  ])("item of %s", (input, expected) => {
    expect(ipItem(input)).toEqual(expected as never)
  })

  test("an IPv4-mapped item is asked by its IPv4 octets", () => {
    const item = ipItem("::ffff:192.0.2.99")!
    expect(queryName(item, "zen.example")).toBe("99.2.0.192.zen.example")
  })

  test("domains: lower-cased, no trailing dot, the zone normalised too", () => {
    expect(queryName({ kind: "domain", value: "Example.COM." }, "DBL.Example.")).toBe("example.com.dbl.example")
  })

  test("a name past 253 octets is refused, one at 253 is asked", () => {
    const zone = "dbl.example" // 11 octets
    const fits = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(49)}` // 241 octets
    expect(fits.length + 1 + zone.length).toBe(253)
    expect(queryName({ kind: "domain", value: fits }, zone)).toBe(`${fits}.${zone}`)
    const over = queryName({ kind: "domain", value: `${fits}e` }, zone)
    expect(isUnqueryable(over)).toBe(true)
    expect(isUnqueryable(over) && over.unqueryable).toContain("254 octets")
  })
})

describe("statuses", () => {
  test.each([
    ["NXDOMAIN", nx, "not_listed", [], null],
    ["NOERROR without an A record", nodata, "not_listed", [], null],
    ["an empty A answer", a(), "not_listed", [], null],
    ["127.0.0.2", a("127.0.0.2"), "listed", ["127.0.0.2"], "TXT"],
    ["several codes, deduplicated in numeric order", a("127.0.0.11", "127.0.0.4", "127.0.0.11", "127.0.0.2"), "listed", ["127.0.0.2", "127.0.0.4", "127.0.0.11"], "TXT"],
    ["SURBL bitmask 127.0.0.80", a("127.0.0.80"), "listed", ["127.0.0.80"], "TXT"]
  ])("%s", (_, answer, status, codes, reason) => {
    const c = classify("zen.spamhaus.org", answer, "TXT")
    expect(c).toEqual({ status: status as never, codes: codes as Array<string>, reason: reason as string | null })
  })

  test("a listing without a TXT record has a null reason", () => {
    expect(classify("bl.example", a("127.0.0.2"), null)).toEqual({ status: "listed", codes: ["127.0.0.2"], reason: null })
  })

  test.each([
    ["127.255.255.252", "misspelt"],
    ["127.255.255.254", "public or open resolver"],
    ["127.255.255.255", "too many queries"]
  ])("Spamhaus error code %s is an error with its published meaning, never a listing", (code, words) => {
    const c = classify("zen.spamhaus.org", a(code), "TXT")
    expect(c.status).toBe("error")
    expect(c.codes).toEqual([code])
    expect(c.reason).toContain(words)
    expect(c.reason).toBe(ERROR_CODES[code])
  })

  test("any other code of 127.255.255.0/24 is an error too", () => {
    const c = classify("bl.example", a("127.255.255.1"), null)
    expect(c.status).toBe("error")
    expect(c.reason).toContain("127.255.255.0/24")
  })

  test("an error code beside a listing code makes the whole answer an error", () => {
    const c = classify("zen.spamhaus.org", a("127.0.0.2", "127.255.255.254"), null)
    expect(c).toMatchObject({ status: "error", codes: ["127.0.0.2", "127.255.255.254"] })
  })

  test("127.0.0.1 is an error (RFC 5782 §5: never listed; lists answer it to refuse)", () => {
    expect(classify("multi.uribl.example", a("127.0.0.1"), null)).toMatchObject({ status: "error", codes: ["127.0.0.1"] })
  })

  test.each([
    ["a resolver's search page", a("192.0.2.53")],
    ["a rewritten answer beside a code", a("127.0.0.2", "198.51.100.7")],
    ["an IPv6 answer", a("2001:db8::1")]
  ])("a rewriting resolver (%s) is an error, not a listing", (_, answer) => {
    const c = classify("zen.spamhaus.org", answer, "TXT")
    expect(c.status).toBe("error")
    expect(c.reason).toContain("outside 127.0.0.0/8")
  })

  test("Spamhaus DBL's 127.0.1.255 (an IP asked of a domain list) is an error on DBL only", () => {
    expect(classify("dbl.spamhaus.org", a("127.0.1.255"), null)).toMatchObject({ status: "error", codes: ["127.0.1.255"] })
    expect(classify("key.dbl.dq.spamhaus.net", a("127.0.1.255"), null).status).toBe("error")
    expect(classify("dbl.spamhaus.org", a("127.0.1.2"), "spam domain")).toEqual({ status: "listed", codes: ["127.0.1.2"], reason: "spam domain" })
    expect(classify("other.example", a("127.0.1.255"), null).status).toBe("listed")
  })

  test.each([["timeout", "no answer within 2000 ms"], ["SERVFAIL", "SERVFAIL"], ["REFUSED", "REFUSED"]])("%s is an error", (_, why) => {
    expect(classify("bl.example", failed(why), null)).toEqual({ status: "error", codes: [], reason: `the list did not answer: ${why}` })
  })
})

describe("test points (RFC 5782 §5)", () => {
  test("names asked: 127.0.0.2, 127.0.0.1 and the IPv6 pair for an IP list; test and invalid for a domain list", () => {
    expect(testQueries("zen.example.", "ip")).toEqual([
      { slot: "listed", name: "2.0.0.127.zen.example" },
      { slot: "unlisted", name: "1.0.0.127.zen.example" },
      { slot: "ipv6_listed", name: `2.0.0.0.0.0.f.7.f.f.f.f${".0".repeat(20)}.zen.example` },
      { slot: "ipv6_unlisted", name: `1.0.0.0.0.0.f.7.f.f.f.f${".0".repeat(20)}.zen.example` }
    ])
    expect(testQueries("DBL.example", "domain")).toEqual([
      { slot: "listed", name: "test.dbl.example" },
      { slot: "unlisted", name: "invalid.dbl.example" }
    ])
  })

  const good: TestAnswers = { listed: a("127.0.0.2"), unlisted: nx, ipv6_listed: a("127.0.0.2"), ipv6_unlisted: nx }

  test("a list that answers as it must is trusted, IPv6 included", () => {
    expect(judgeTestPoints("zen.example", "ip", good)).toEqual({ trusted: true, ipv6: { status: "supported" }, transient: false })
    expect(judgeTestPoints("dbl.example", "domain", { listed: a("127.0.1.2"), unlisted: nx })).toEqual({ trusted: true, ipv6: { status: "not_asked" }, transient: false })
  })

  test.each<[string, Partial<TestAnswers>, string, boolean]>([
    ["a retired list (NXDOMAIN for 127.0.0.2)", { listed: nx }, "does not list its test point 127.0.0.2", false],
    ["a wildcarded list (127.0.0.1 listed)", { unlisted: a("127.0.0.2") }, "it lists 127.0.0.1", false],
    ["a rewriting resolver (NXDOMAIN turned into an address)", { unlisted: a("192.0.2.53") }, "a resolver rewrote it", false],
    ["a rewriting resolver on both", { listed: a("192.0.2.53"), unlisted: a("192.0.2.53") }, "outside 127.0.0.0/8", false],
    ["Spamhaus refusing a public resolver", { listed: a("127.255.255.254"), unlisted: nx }, "public or open resolver", false],
    ["Spamhaus refusing every query of a public resolver", { listed: a("127.255.255.254"), unlisted: a("127.255.255.254") }, "its test point 127.0.0.1: the list refused the query because it came through a public or open resolver", false],
    ["a timeout", { listed: failed("no answer within 2000 ms") }, "no answer within 2000 ms", true],
    ["SERVFAIL on the unlisted point", { unlisted: failed("SERVFAIL") }, "SERVFAIL", true]
  ])("%s: not trusted", (_, answers, why, transient) => {
    const v = judgeTestPoints("zen.example", "ip", { ...good, ...answers })
    expect(v.trusted).toBe(false)
    if (!v.trusted) {
      expect(v.why).toContain("zen.example failed its RFC 5782 test points")
      expect(v.why).toContain(why)
      expect(v.transient).toBe(transient)
    }
  })

  test("a domain list must list test and not invalid", () => {
    const v = judgeTestPoints("dbl.example", "domain", { listed: nx, unlisted: a("127.0.1.2") })
    expect(v.trusted).toBe(false)
    if (!v.trusted) {
      expect(v.why).toContain("does not list its test point test")
      expect(v.why).toContain("it lists invalid")
    }
  })

  test("IPv6 points: absent means no IPv6 data vouched for; a listed ::ffff:7f00:1 is an IPv6 error", () => {
    expect(judgeTestPoints("bl.example", "ip", { ...good, ipv6_listed: nx })).toEqual({ trusted: true, ipv6: { status: "no_test_point" }, transient: false })
    const broken = judgeTestPoints("bl.example", "ip", { ...good, ipv6_unlisted: a("127.0.0.2") })
    expect(broken.trusted && broken.ipv6.status).toBe("error")
    const lost = judgeTestPoints("bl.example", "ip", { ...good, ipv6_listed: failed("no answer") })
    expect(lost).toMatchObject({ trusted: true, ipv6: { status: "error" }, transient: true })
  })

  test("cache policy: a verdict is kept DNSBL_TEST_TTL_S, one resting on a missing answer at most 30 s", () => {
    const policy = testPointCachePolicy(3600, 6)
    expect(policy.capacity).toBe(6)
    expect(Duration.toSeconds(policy.timeToLive(judgeTestPoints("z.example", "ip", good)))).toBe(3600)
    expect(Duration.toSeconds(policy.timeToLive(judgeTestPoints("z.example", "ip", { ...good, listed: nx })))).toBe(3600)
    expect(Duration.toSeconds(policy.timeToLive(judgeTestPoints("z.example", "ip", { ...good, listed: failed("timeout") })))).toBe(30)
    expect(Duration.toSeconds(testPointCachePolicy(10, 1).timeToLive(judgeTestPoints("z.example", "ip", { ...good, listed: failed("timeout") })))).toBe(10)
    expect(Duration.toSeconds(testPointCachePolicy(0, 0).timeToLive(judgeTestPoints("z.example", "ip", good)))).toBe(0)
  })

  test("the policy wraps into an Effect Cache: one ask per list per TTL, a lost answer re-asked after 30 s", async () => {
    const asked: Array<string> = []
    let answers: TestAnswers = good
    const program = Effect.gen(function*() {
      const policy = testPointCachePolicy(3600, 4)
      const cache = yield* Cache.makeWith({
        capacity: policy.capacity,
        lookup: (key: TestPointKey) => Effect.sync(() => {
          asked.push(key.zone)
          return judgeTestPoints(key.zone, key.kind, answers)
        }),
        timeToLive: Exit.match({ onFailure: () => Duration.zero, onSuccess: policy.timeToLive })
      })
      const zen = () => cache.get(testPointKey("zen.example", "ip"))
      yield* zen()
      yield* zen() // a structurally equal key: the cached verdict
      yield* TestClock.adjust("3599 seconds")
      yield* zen()
      const before = asked.length
      yield* TestClock.adjust("2 seconds")
      yield* zen()
      answers = { ...good, listed: failed("no answer within 2000 ms") }
      const lost = yield* cache.get(testPointKey("bl.example", "ip"))
      yield* TestClock.adjust("29 seconds")
      yield* cache.get(testPointKey("bl.example", "ip"))
      const beforeRetry = asked.length
      yield* TestClock.adjust("2 seconds")
      answers = good
      const again = yield* cache.get(testPointKey("bl.example", "ip"))
      return { before, beforeRetry, lost, again }
    })
    const r = await Effect.runPromise(program.pipe(Effect.provide(TestContext.TestContext)))
    expect(r.before).toBe(1)
    expect(r.beforeRetry).toBe(3)
    expect(asked).toEqual(["zen.example", "zen.example", "bl.example", "bl.example"])
    expect(r.lost.trusted).toBe(false)
    expect(r.again.trusted).toBe(true)
  })
})
