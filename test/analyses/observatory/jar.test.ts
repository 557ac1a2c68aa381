/**
 * The session cookie jar (pure): what a request carries after the responses before it, as the
 * Observatory's client (tough-cookie 5 behind http-cookie-agent) sends it; each expectation was
 * checked against tough-cookie 5.1.2 itself. The side-by-side test
 * checks the same against the Observatory itself on redirect chains.
 */
import { describe, expect, test } from "bun:test"
import { Jar } from "../../../src/analyses/observatory/jar"

const NOW = Date.UTC(2026, 0, 1)

const jarWith = (...steps: ReadonlyArray<readonly [string, ReadonlyArray<string>]>) => {
  const jar = new Jar()
  for (const [url, lines] of steps) jar.store(url, lines, NOW)
  return jar
}

describe("observatory cookie jar", () => {
  test("host-only cookies go to their host only; Domain cookies to the domain and below", () => {
    const jar = jarWith(["https://www.site.test/", ["a=1", "b=2; Domain=site.test"]])
    expect(jar.header("https://www.site.test/x", NOW)).toBe("a=1; b=2")
    expect(jar.header("https://api.site.test/", NOW)).toBe("b=2")
    expect(jar.header("https://other.test/", NOW)).toBeNull()
  })

  test("Secure cookies only over https, even when set over http", () => {
    const jar = jarWith(["http://site.test/", ["s=1; Secure", "p=1"]])
    expect(jar.header("http://site.test/", NOW)).toBe("p=1")
    expect(jar.header("https://site.test/", NOW)).toBe("s=1; p=1")
  })

  test("paths match by segment, the longer path first, then the older", () => {
    const jar = jarWith(["https://site.test/", ["c=1; Path=/", "a=1; Path=/app", "b=1; Path=/other", "d=1; Path=/ap"]])
    expect(jar.header("https://site.test/app/x", NOW)).toBe("a=1; c=1")
    expect(jar.header("https://site.test/apple", NOW)).toBe("c=1")
  })

  test("the default path is the request path up to its last slash", () => {
    const jar = jarWith(["https://site.test/dir/page", ["k=1"]])
    expect(jar.header("https://site.test/dir/other", NOW)).toBe("k=1")
    expect(jar.header("https://site.test/", NOW)).toBeNull()
  })

  test("a later cookie with the same name, domain and path replaces the value, keeping its place", () => {
    const jar = jarWith(["https://site.test/", ["a=1", "b=1"]], ["https://site.test/", ["a=2"]])
    expect(jar.header("https://site.test/", NOW)).toBe("a=2; b=1")
    expect(jar.list().map((c) => c.key)).toEqual(["a", "b"])
  })

  test("an expired cookie is not sent, and leaves the jar when a request would have carried it", () => {
    const jar = jarWith(["https://site.test/", ["gone=1; Max-Age=0", "old=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT", "keep=1; Max-Age=60", "other=1; Max-Age=0; Path=/x"]])
    expect(jar.list().length).toBe(4)
    expect(jar.header("https://site.test/", NOW)).toBe("keep=1")
    // /x was not requested: its expired cookie stays, as in the Observatory's jar.
    expect(jar.list().map((c) => c.key).sort()).toEqual(["keep", "other"])
  })

  test("Max-Age wins over Expires; a malformed Max-Age is ignored", () => {
    const jar = jarWith(["https://site.test/", ["a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=60", "b=1; Max-Age=soon"]])
    expect(jar.header("https://site.test/", NOW)).toBe("a=1; b=1")
  })

  test("refused cookies: another domain, a public suffix, broken __Host- and __Secure- prefixes", () => {
    const jar = jarWith(["https://site.test/", ["x=1; Domain=other.test", "y=1; Domain=test", "__Host-a=1; Secure; Path=/; Domain=site.test", "__Secure-b=1", "ok=1"]])
    expect(jar.header("https://site.test/", NOW)).toBe("ok=1")
  })

  test("one name on two paths is sent once: in the place of the first, with the value of the last", () => {
    const jar = jarWith(["https://site.test/", ["n=deep; Path=/a", "m=1; Path=/a", "n=top; Path=/"]])
    expect(jar.header("https://site.test/a/b", NOW)).toBe("n=top; m=1")
  })
})
