/** Record syntax (RFC 7208 §4.5, §4.6.1, §5, §6, §12): what parses to what, what is a permerror. */
import { describe, expect, test } from "bun:test"
import { formatIp, parseClientIp, parseIp4, parseIp6 } from "../../../../src/analyses/mail/spf/ip"
import { isSpfRecord, parseRecord } from "../../../../src/analyses/mail/spf/parse"

const parse = (txt: string) => {
  const p = parseRecord(txt)
  if (!p.ok) throw new Error(p.error)
  return p.value
}

describe("record selection", () => {
  const table: Array<[string, boolean]> = [
    ["v=spf1", true], ["v=spf1 -all", true], ["V=SpF1 ~all", true], ["v=spf10", false],
    ["v=spf1mx", false], ["v=spf2.0/pra", false], [" v=spf1", false], ["", false]
  ]
  for (const [txt, is] of table) test(JSON.stringify(txt), () => expect(isSpfRecord(txt)).toBe(is))
})

describe("terms", () => {
  test("qualifiers, mechanisms and their arguments", () => {
    const r = parse("v=spf1  +a -mx:mail.example.com/24//64 ~ptr ?include:_spf.example.com ip4:192.0.2.0/24 ip6:2001:db8::/32 exists:%{i}.bl.example.com all ")
    expect(r.directives.map((d) => [d.qualifier, d.mechanism.kind])).toEqual([
      ["+", "a"], ["-", "mx"], ["~", "ptr"], ["?", "include"], ["+", "ip4"], ["+", "ip6"], ["+", "exists"], ["+", "all"]
    ])
    expect(r.directives[1].mechanism).toMatchObject({ kind: "mx", spec: "mail.example.com", cidr4: 24, cidr6: 64 })
    expect(r.directives[0].mechanism).toMatchObject({ domain: null, cidr4: 32, cidr6: 128 })
    expect(r.directives[4].mechanism).toMatchObject({ prefix: 24 })
    expect(r.directives[3].text).toBe("?include:_spf.example.com")
  })
  test("a slash that is not a CIDR length stays in the domain-spec", () =>
    expect(parse("v=spf1 a:foo:bar/baz.example.com").directives[0].mechanism).toMatchObject({ spec: "foo:bar/baz.example.com", cidr4: 32 }))
  test("dual CIDR after a domain-spec; a second single slash is not one", () => {
    expect(parse("v=spf1 a:foo.example.com//64").directives[0].mechanism).toMatchObject({ spec: "foo.example.com", cidr4: 32, cidr6: 64 })
    expect(parse("v=spf1 mx:foo.example.com/0//0").directives[0].mechanism).toMatchObject({ spec: "foo.example.com", cidr4: 0, cidr6: 0 })
    expect(parseRecord("v=spf1 a:foo.example.com/24/64").ok).toBe(false)
  })
  test("modifiers: redirect and exp are kept, unknown ones ignored", () => {
    const r = parse("v=spf1 moo.cow-far_out=man:dog/cat exp=explain.%{d} redirect=_spf.example.com")
    expect(r.redirect?.spec).toBe("_spf.example.com")
    expect(r.exp?.spec).toBe("explain.%{d}")
    expect(r.directives).toHaveLength(0)
  })
})

describe("permerrors", () => {
  const bad: Array<[string, string]> = [
    ["v=spf1 -all.", "takes no argument"],
    ["v=spf1 -all/8", "takes no argument"],
    ["v=spf1 ip4:1.2.3.4 -all moo", "unknown mechanism"],
    ["v=spf1 redirect:example.com", "unknown mechanism"],
    ["v=spf1 moo.cow/far_out=man:dog/cat", "unknown mechanism"],
    ["v=spf1 1up=foo", "invalid term"],
    ["v=spf1 =all", "invalid term"],
    ["v=spf1 a/33", "CIDR"],
    ["v=spf1 a//129", "CIDR"],
    ["v=spf1 a/24/64", "invalid term"],
    ["v=spf1 ip4:1.2.3.4/032", "CIDR"],
    ["v=spf1 ip4:1.2.3", "invalid ip4"],
    ["v=spf1 ip4:01.2.3.4", "invalid ip4"],
    ["v=spf1 ip4:1.2.3.4:8080", "invalid ip4"],
    ["v=spf1 ip4:1.2.3.4//32", "invalid ip4"],
    ["v=spf1 ip6::CAFE::BABE", "invalid ip6"],
    ["v=spf1 ip6:::1.1.1.1//33", "invalid ip6"],
    ["v=spf1 ip4", "invalid ip4"],
    ["v=spf1 include", "needs a domain"],
    ["v=spf1 include:", "empty domain-spec"],
    ["v=spf1 include:ip5.example.com/24", "top-level label"],
    ["v=spf1 exists", "needs a domain"],
    ["v=spf1 ptr/0", "invalid term"],
    ["v=spf1 a:111.222.33.44", "top-level label"],
    ["v=spf1 exp=a.example exp=b.example", "more than once"],
    ["v=spf1 redirect=a.example redirect=b.example", "more than once"],
    ["v=spf1 redirect=", "empty domain-spec"],
    ["v=spf1 exp=", "empty domain-spec"],
    ["v=spf1 -all foo=%abc", "'%' must be followed"],
    ["v=spf1 a:ctrl.example.com\rptr -all", "invalid character"],
    ["v=spf1 a:example.net \u0096all", "invalid character"]
  ]
  for (const [txt, why] of bad) {
    test(JSON.stringify(txt), () => {
      const p = parseRecord(txt)
      expect(p.ok).toBe(false)
      if (!p.ok) expect(p.error).toContain(why)
    })
  }
})

describe("addresses", () => {
  test("strict dotted quads", () => {
    expect(parseIp4("192.0.2.255")).toEqual(Uint8Array.from([192, 0, 2, 255]))
    for (const s of ["256.0.0.1", "1.2.3", "1.2.3.4.5", "1.02.3.4", "1.2.3.-4", ""]) expect(parseIp4(s)).toBeNull()
  })
  test("RFC 4291 text forms", () => {
    expect(parseIp6("::")).toEqual(new Uint8Array(16))
    expect(parseIp6("::1.1.1.1")?.slice(12)).toEqual(Uint8Array.from([1, 1, 1, 1]))
    for (const s of ["1::2::3", ":1::2", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "12345::", "::1.1.1"]) expect(parseIp6(s)).toBeNull()
  })
  test("an IPv4-mapped client is IPv4; text is RFC 5952", () => {
    expect(parseClientIp("::FFFF:1.2.3.4")).toEqual({ v: 4, bytes: Uint8Array.from([1, 2, 3, 4]) })
    expect(formatIp(parseClientIp("CAFE:BABE:0:0:0:0:0:1")!)).toBe("cafe:babe::1")
    expect(formatIp(parseClientIp("2001:db8:0:1:1:1:1:1")!)).toBe("2001:db8:0:1:1:1:1:1")
    expect(formatIp(parseClientIp("2001:0:0:1:0:0:0:1")!)).toBe("2001:0:0:1::1")
  })
})
