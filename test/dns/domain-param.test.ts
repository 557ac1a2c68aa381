/** The `domain` parameter: IP addresses in every spelling are refused, names are normalised. */
import { describe, expect, test } from "bun:test"
import { normalizeDomain } from "../../src/kernel/domainParam"
import { InvalidRequest } from "../../src/kernel/errors"

describe("normalizeDomain", () => {
  for (const ip of ["1.2.3.4", "1.2.3.4.", " 10.0.0.1 ", "::1", "[::1]", "2001:DB8::1", "::ffff:127.0.0.1", "http://[::1]:8080/x", "https://192.168.1.1/path"]) {
    test(`${JSON.stringify(ip)} is an IP address: refused`, () => {
      const r = normalizeDomain(ip)
      expect(r).toBeInstanceOf(InvalidRequest)
      expect((r as InvalidRequest).message).toContain("not an IP address")
    })
  }
  for (const [input, name] of [["Example.COM.", "example.com"], ["https://Shop.Example.com:8443/a?b", "shop.example.com"], ["_dmarc.example.com", "_dmarc.example.com"], ["1.2.3.example", "1.2.3.example"]]) {
    test(`${JSON.stringify(input)} → ${name}`, () => {
      expect(normalizeDomain(input)).toBe(name)
    })
  }
})
