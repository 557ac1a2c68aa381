/** Macro expansion (RFC 7208 §7): the examples of §7.4, escapes, URL-escaping and syntax errors. */
import { describe, expect, test } from "bun:test"
import { expand, parseDomainSpec, parseMacroString, queryName } from "../../../../src/analyses/mail/spf/macro"

// §7.4: sender strong-bad@email.example.com, client 192.0.2.3 / 2001:db8::cb01.
const v4 = { s: "strong-bad@email.example.com", l: "strong-bad", o: "email.example.com", d: "email.example.com", i: "192.0.2.3", v: "in-addr", h: "mx.example.org" }
const v6 = { ...v4, i: "2.0.0.1.0.D.B.8.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.C.B.0.1", v: "ip6" }
const run = (s: string, values: Record<string, string>, mode: "domain" | "explain" = "domain") => {
  const p = parseMacroString(s, mode)
  if (!p.ok) throw new Error(p.error)
  return expand(p.value, values)
}

describe("RFC 7208 §7.4 examples", () => {
  const table: Array<[string, string]> = [
    ["%{s}", "strong-bad@email.example.com"],
    ["%{o}", "email.example.com"],
    ["%{d}", "email.example.com"],
    ["%{d4}", "email.example.com"],
    ["%{d3}", "email.example.com"],
    ["%{d2}", "example.com"],
    ["%{d1}", "com"],
    ["%{dr}", "com.example.email"],
    ["%{d2r}", "example.email"],
    ["%{l}", "strong-bad"],
    ["%{l-}", "strong.bad"],
    ["%{lr}", "strong-bad"],
    ["%{lr-}", "bad.strong"],
    ["%{l1r-}", "strong"],
    ["%{ir}.%{v}._spf.%{d2}", "3.2.0.192.in-addr._spf.example.com"],
    ["%{lr-}.lp._spf.%{d2}", "bad.strong.lp._spf.example.com"],
    ["%{lr-}.lp.%{ir}.%{v}._spf.%{d2}", "bad.strong.lp.3.2.0.192.in-addr._spf.example.com"],
    ["%{ir}.%{v}.%{l1r-}.lp._spf.%{d2}", "3.2.0.192.in-addr.strong.lp._spf.example.com"],
    ["%{d2}.trusted-domains.example.net", "example.com.trusted-domains.example.net"]
  ]
  for (const [macro, expansion] of table) test(macro, () => expect(run(macro, v4)).toBe(expansion))
  test("IPv6 %{ir}.%{v}._spf.%{d2} (nibbles, case as the suite's driver expects)", () =>
    expect(run("%{ir}.%{v}._spf.%{d2}", v6).toLowerCase()).toBe(
      "1.0.b.c.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6._spf.example.com"
    ))
})

describe("escapes, uppercase letters, delimiters", () => {
  test("%% %_ %- are a percent, a space and %20", () => expect(run("a%%b%_c%-d", v4)).toBe("a%b c%20d"))
  test("an uppercase letter URL-escapes everything outside the unreserved set", () =>
    expect(run("%{L}", { l: "~jack&jill=up-a_b3.c" })).toBe("~jack%26jill%3Dup-a_b3.c"))
  test("several delimiters split together", () => expect(run("%{l2r+-}", { l: "foo-bar+zip+quux" })).toBe("bar.foo"))
  test("explanation text keeps spaces and may use c, r, t", () =>
    expect(run("from %{c} at %{r} %{t}", { c: "192.0.2.3", r: "mx.example", t: "7" }, "explain")).toBe("from 192.0.2.3 at mx.example 7"))
})

describe("syntax errors", () => {
  const bad: Array<[string, "domain" | "explain", string]> = [
    ["%(ir).sbl.example.com", "domain", "'%' must be followed"],
    ["foo%.example.com", "domain", "'%' must be followed"],
    ["%{r}.example.com", "domain", "not allowed"],
    ["%{a}.example.com", "domain", "not allowed"],
    ["%{x}", "explain", "not allowed"],
    ["%{d0}", "domain", "zero parts"],
    ["%{d", "domain", "unterminated"],
    ["a b", "domain", "invalid character"]
  ]
  for (const [s, mode, why] of bad) {
    test(`${JSON.stringify(s)} (${mode})`, () => {
      const p = parseMacroString(s, mode)
      expect(p.ok).toBe(false)
      if (!p.ok) expect(p.error).toContain(why)
    })
  }
})

describe("domain-spec end and query names", () => {
  const specs: Array<[string, boolean]> = [
    ["example.com", true], ["example.com.", true], ["foo.example.xn--zckzah", true], ["%{d}", true],
    ["_spfh.%{d2}", true], ["foo:bar/baz.example.com", true], ["museum", false], ["museum.", false],
    ["abc.123", false], ["example.-com", false], ["example.com:8080", false], ["foo-bar", false], ["", false]
  ]
  for (const [s, ok] of specs) test(`${JSON.stringify(s)} ${ok ? "valid" : "invalid"}`, () => expect(parseDomainSpec(s).ok).toBe(ok))
  test("a name over 253 octets loses labels on the left", () => {
    const long = `${"x".repeat(60)}.`.repeat(5) + "example.com"
    const name = queryName(long)!
    expect(name.length).toBeLessThanOrEqual(253)
    expect(long.endsWith(name)).toBe(true)
    expect(name.startsWith("x")).toBe(true)
  })
  test("empty and over-long labels give no query", () => {
    expect(queryName("mail.example...com")).toBeNull()
    expect(queryName(`${"a".repeat(64)}.example.com`)).toBeNull()
    expect(queryName("example.com.")).toBe("example.com")
  })
})
