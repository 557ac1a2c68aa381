/** IPv6 readiness as internet.nl measures it: the page comparison and the web, mail and name server verdicts. */
import { describe, expect, test } from "bun:test"
import { comparable, comparePages, dnsIpv6, mailIpv6, quickRatio, webIpv6, webIpv6SameContent, type WebIpv6Observation } from "../../../src/analyses/audit/ipv6"

describe("quick_ratio, as Python's difflib computes it", () => {
  // Expected values printed by CPython 3's difflib.SequenceMatcher(None, a, b).quick_ratio().
  test.each([
    ["abc", "cba", 1.0],
    ["a".repeat(90) + "b".repeat(10), "a".repeat(100), 0.9],
    ["a".repeat(89) + "b".repeat(11), "a".repeat(100), 0.89],
    ["<html><body>Hello world</body></html>", "<html><body>Hello World!</body></html>", 0.96],
    ["", "", 1.0],
    ["abc", "", 0.0],
    ["héllo wörld", "hello world", 0.8181818181818182]
  ])("%p vs %p", (a, b, ratio) => {
    expect(quickRatio(a, b)).toBe(ratio)
  })
})

describe("the page over IPv4 against the page over IPv6", () => {
  test.each([
    ["identical pages", "<p>same</p>", "<p>same</p>", true, 0],
    ["exactly 10% different: still the same (at most 10)", "a".repeat(90) + "b".repeat(10), "a".repeat(100), true, 10],
    ["11% different", "a".repeat(89) + "b".repeat(11), "a".repeat(100), false, 11],
    ["the order of characters does not count (quick_ratio is a multiset measure)", "<b>ab</b>", "<b>ba</b>", true, 0],
    ["a different site (CPython: 39.2157%)", "<html><body><h1>Welcome to our shop</h1><p>Offers</p></body></html>", "<html><body>It works!</body></html>", false, 39.22]
  ])("%s", (_, v4, v6, same, difference) => {
    expect(comparePages(v4, v6)).toEqual({ same, difference_percent: difference })
  })

  test("nonces of script and style tags, and __VIEWSTATE inputs, are ignored (they change on every load)", () => {
    const page = (nonce: string, state: string) =>
      `<html><head><script nonce="${nonce}">go()</script><style NONCE='${nonce}'>p{}</style></head>` +
      `<body><form><input type="hidden" name="__VIEWSTATE" value="${state}"><input name="q"></form></body></html>`
    const a = page("r4nd0m".repeat(20), "x".repeat(400))
    const b = page("0th3r!".repeat(20), "y".repeat(400))
    expect(comparable(a)).toBe(comparable(b))
    expect(comparable(a)).not.toContain("__VIEWSTATE")
    expect(comparable(a)).toContain('<input name="q">')
    expect(comparePages(a, b)).toEqual({ same: true, difference_percent: 0 })
    // Without the stripping the two would differ by far more than 10%.
    expect(100 - quickRatio(a, b) * 100).toBeGreaterThan(10)
  })

  test("only the first 500,000 bytes count, bytes or text alike", () => {
    const head = "x".repeat(500_000)
    expect(comparePages(head + "a".repeat(100_000), head + "b".repeat(100_000))).toEqual({ same: true, difference_percent: 0 })
    const bytes = new TextEncoder().encode(head + "tail")
    expect(comparePages(bytes, head)).toEqual({ same: true, difference_percent: 0 })
  })
})

const obs = (o: Partial<WebIpv6Observation>): WebIpv6Observation => ({
  host: "good.lab",
  ipv4: [{ address: "192.0.2.1", ports: [443, 80] }],
  ipv6: [{ address: "2001:db8::1", ports: [443, 80] }],
  pages: { v4: "<p>a</p>", v6: "<p>a</p>" },
  ...o
})

describe("web_ipv6 and web_ipv6_same_content", () => {
  test.each<[string, Partial<WebIpv6Observation>, boolean | null, boolean | null]>([
    ["dual stack, same page", {}, true, true],
    ["no AAAA", { ipv6: [] }, false, null],
    ["an AAAA address that answers on neither port", { ipv6: [{ address: "2001:db8::1", ports: [443, 80] }, { address: "2001:db8::2", ports: [] }] }, false, true],
    ["IPv6 answers on 80 only while IPv4 answers on 443 too", { ipv6: [{ address: "2001:db8::1", ports: [80] }] }, true, false],
    ["IPv6-only host", { ipv4: [], pages: null }, true, true],
    ["a different page over IPv6", { pages: { v4: "<h1>Our shop: offers of the week</h1>", v6: "<p>It works</p>" } }, true, false],
    ["pages not fetched over both", { pages: null }, true, null]
  ])("%s", (_, o, ipv6, same) => {
    expect(webIpv6(obs(o)).passed).toBe(ipv6)
    expect(webIpv6SameContent(obs(o)).passed).toBe(same)
  })

  test("details say what was seen", () => {
    expect(webIpv6(obs({ ipv6: [{ address: "2001:db8::2", ports: [] }] })).detail).toBe("2001:db8::2 answered neither on 443 nor on 80")
    expect(webIpv6SameContent(obs({ ipv6: [{ address: "2001:db8::1", ports: [80] }] })).detail).toBe("port 443 answers over IPv4 but not over IPv6")
  })
})

describe("mail_ipv6 and dns_ipv6", () => {
  test.each([
    [[{ host: "mx1", ips: ["192.0.2.25", "2001:db8::25"] }], true],
    [[{ host: "mx1", ips: ["2001:db8::25"] }, { host: "mx2", ips: ["192.0.2.26"] }], false],
    [[{ host: "mx1", ips: [] }], false],
    [[], null]
  ])("MX hosts %j", (mx, passed) => {
    expect(mailIpv6(mx).passed).toBe(passed)
  })

  const ns = (name: string, ...answered: Array<boolean>) => ({ name, ipv6: answered.map((a, i) => ({ address: `2001:db8::${i + 1}`, answered: a })) })
  test.each([
    ["two name servers answer over IPv6", [ns("ns1", true), ns("ns2", true), ns("ns3")], true],
    ["one name server only", [ns("ns1", true), ns("ns2")], false],
    ["no AAAA at all", [ns("ns1"), ns("ns2")], false],
    ["one of a name server's IPv6 addresses is silent", [ns("ns1", true), ns("ns2", true, false)], false],
    ["three, one silent", [ns("ns1", true), ns("ns2", true), ns("ns3", false)], true]
  ])("%s", (_, servers, passed) => {
    expect(dnsIpv6(servers).passed).toBe(passed)
  })

  test("the detail names the silent addresses", () => {
    expect(dnsIpv6([ns("ns1", true), ns("ns2", false)]).detail).toBe("only ns1 answers over IPv6; no answer over IPv6 from ns2 (2001:db8::1)")
  })
})

describe("addresses the target guard refused (not contacted)", () => {
  test("web_ipv6: undecided when a refused address is all that is left to decide; a silent one still fails", () => {
    const refused = { address: "fd00::1", ports: [], refused: true }
    expect(webIpv6(obs({ ipv6: [refused] }))).toEqual({ passed: null, detail: "fd00::1 is a non-public address, not contacted (ALLOW_PRIVATE_TARGETS is off)", missing: true })
    expect(webIpv6(obs({ ipv6: [refused, { address: "2001:db8::2", ports: [] }] })).passed).toBe(false)
    expect(webIpv6SameContent(obs({ ipv6: [refused] }))).toMatchObject({ passed: null, missing: true })
    expect(webIpv6SameContent(obs({ ipv4: [{ address: "10.0.0.1", ports: [], refused: true }] }))).toMatchObject({ passed: null, missing: true })
  })

  test("dns_ipv6: two name servers that answer pass whatever else; otherwise a refused address leaves it undecided", () => {
    const server = (name: string, answered: boolean | null) => ({ name, ipv6: [{ address: `fd00::${name.length}`, answered }] })
    expect(dnsIpv6([server("ns1", true), server("ns22", true), server("ns333", null)]).passed).toBe(true)
    expect(dnsIpv6([server("ns1", true), server("ns22", null)])).toMatchObject({ passed: null, missing: true })
    expect(dnsIpv6([server("ns1", false), server("ns22", false)]).passed).toBe(false)
  })
})
