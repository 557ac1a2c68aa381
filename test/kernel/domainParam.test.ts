/** The `domain` parameter (docs/conventions.md, "The domain parameter"): every spelling, accepted or refused and why. */
import { describe, expect, test } from "bun:test"
import { InvalidRequest } from "../../src/kernel/errors"
import { normalizeDomain } from "../../src/kernel/domainParam"

describe("normalizeDomain", () => {
  test.each([
    ["example.com", "example.com"],
    ["Example.COM.", "example.com"],
    ["  shop.example.com  ", "shop.example.com"],
    ["http://example.com", "example.com"],
    ["http://example.com/", "example.com"],
    ["HTTPS://Shop.Example.com/", "shop.example.com"],
    ["https://example.com.", "example.com"],
    ["_dmarc.example.com", "_dmarc.example.com"],
    ["1.2.3.example", "1.2.3.example"],
    ["xn--bcher-kva.example", "xn--bcher-kva.example"]
  ])("%j is %j", (input, name) => {
    expect(normalizeDomain(input)).toBe(name)
  })

  test.each([
    ["ftp://x.example", "scheme ftp://"],
    ["ws://x.example", "scheme ws://"],
    ["file:///etc/passwd", "scheme file://"],
    ["user@example.com", "user part"],
    ["http://user:pass@example.com/", "user part"],
    ["host.example:25", "port"],
    ["https://example.com:8443", "port"],
    ["http://example.com:80/", "port"],
    ["example.com:", "port"],
    ["https://example.com/path", "path"],
    ["http://example.com//", "path"],
    ["example.com/", "path"],
    ["example.com/a", "path"],
    ["https://example.com/?q=1", "query"],
    ["example.com?x", "query"],
    ["https://example.com/#top", "fragment"],
    ["1.2.3.4", "IP address"],
    ["1.2.3.4.", "IP address"],
    [" 10.0.0.1 ", "IP address"],
    ["::1", "IP address"],
    ["[::1]", "IP address"],
    ["2001:DB8::1", "IP address"],
    ["::ffff:127.0.0.1", "IP address"],
    ["http://[::1]/", "IP address"],
    ["https://192.168.1.1/", "IP address"],
    ["exa mple.com", "not a valid domain name"],
    ["-bad.example", "not a valid domain name"],
    ["a".repeat(64) + ".example", "not a valid domain name"],
    ["http://", "not a valid domain name"],
    ["", "required"],
    ["   ", "required"]
  ])("%j is refused: %s", (input, why) => {
    const r = normalizeDomain(input)
    expect(r).toBeInstanceOf(InvalidRequest)
    expect((r as InvalidRequest).message).toContain(why)
  })
})
