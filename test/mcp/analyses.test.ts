/**
 * The analyses as MCP tools return the REST report: the same target through REST and through
 * MCP (official SDK, 2025-11-25) gives deep-equal reports once the fields that measure time are
 * set aside. Plus their input errors (with the REST code in structuredContent), and the one HSTS
 * judgement seen from both tools.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"
import { connectHttp } from "./client"
import { type Fixtures, startFixtures } from "./fixtures"

let fx: Fixtures
let svc: TestService
let key: string
let client: Client

beforeAll(async () => {
  fx = await startFixtures()
  // No zone-report cache: the MCP call must run its own audit, not read the REST one's.
  svc = await startService({ ...fx.config, zoneAuditCacheTtlS: 0 })
  key = (await svc.newKey("enterprise")).key
  client = (await connectHttp(svc.baseUrl, key, "2025-11-25")).client
})
afterAll(async () => {
  await client?.close()
  await svc?.stop()
  await fx?.stop()
})

/** Drops the fields that measure time (they differ between any two runs). */
const timeless = (u: unknown, drop: ReadonlyArray<string>): unknown => {
  if (Array.isArray(u)) return u.map((x) => timeless(x, drop))
  if (typeof u !== "object" || u === null) return u
  return Object.fromEntries(Object.entries(u).filter(([k]) => !drop.includes(k)).map(([k, v]) => [k, timeless(v, drop)]))
}

const rest = async (path: string, params: Record<string, string>) => {
  const res = await svc.call(`${path}?${new URLSearchParams(params)}`, { key })
  expect(res.status).toBe(200)
  return res.json()
}

const mcp = async (name: string, args: Record<string, unknown>) => {
  const res = (await client.callTool({ name, arguments: args })) as any
  if (res.isError) throw new Error(res.content[0].text)
  return res.structuredContent
}

describe("MCP tool = REST operation", () => {
  test("http_check", async () => {
    const url = `https://good.test:${fx.good.port}/`
    const drop = ["timings", "checked_at", "time_ms"]
    const a = await rest("/v1/network/http-check", { url, method: "GET", max_redirects: "3", timeout: "5000" })
    const b = await mcp("http_check", { url, method: "GET", max_redirects: 3, timeout: 5000 })
    expect(timeless(b, drop)).toEqual(timeless(a, drop))
    expect((b as any).status.code).toBe(200)
  })

  test("waf_detection (passive)", async () => {
    const domain = `http://site.test:${fx.site.port}/`
    const drop = ["response_time_ms", "elapsed_ms"]
    const a = await rest("/v1/domain/waf", { domain })
    const b = await mcp("waf_detection", { domain })
    expect(timeless(b, drop)).toEqual(timeless(a, drop))
    expect((b as any).provider_present).toBe(true)
    expect((b as any).primaryProvider).toMatch(/cloudflare/i)
    expect((b as any).active_probe).toBeNull()
  })

  test("content_freshness", async () => {
    const domain = `http://site.test:${fx.site.port}/`
    const a = await rest("/v1/domain/content-freshness", { domain })
    const b = await mcp("content_freshness", { domain })
    expect(b).toEqual(a)
    expect((b as any).modifiedDate.date).toContain("2026-11-15")
  })

  test("zone_hygiene", async () => {
    const drop = ["timings_ms"]
    const a = await rest("/v1/dns/zone-hygiene", { domain: "good.test" })
    const b = await mcp("zone_hygiene", { domain: "good.test" })
    expect(timeless(b, drop)).toEqual(timeless(a, drop))
    expect((b as any).nameservers).toEqual(["ns1.good.test"])
  })

  test("email_security (the REST comma list is the tool's array)", async () => {
    const drop = ["checked_at", "timings_ms"]
    const a = await rest("/v1/security/email", { domain: "HTTPS://Good.Test/", dkim_selectors: "s1, s2" })
    const b = await mcp("email_security", { domain: "good.test", dkim_selectors: ["s1", "s2"] })
    expect(timeless(b, drop)).toEqual(timeless(a, drop))
    expect((b as any).domain).toBe("good.test")
    expect((b as any).dkim.selectors_checked).toEqual(expect.arrayContaining(["s1", "s2"]))
  })

  test("tls_scan", async () => {
    const drop = ["checked_at", "timings_ms", "days_left"]
    const a = await rest("/v1/security/tls", { host: "good.test", port: String(fx.good.port) })
    const b = await mcp("tls_scan", { host: "good.test", port: fx.good.port })
    expect(timeless(b, drop)).toEqual(timeless(a, drop))
    expect((b as any).protocols.tls1_3).toBe(true)
  }, 30_000)

  test("ct_logs with limit, offset and since", async () => {
    // The first call fills the cache; both then read it (cache age and note differ by seconds).
    const drop = ["cache", "note"]
    const a = await rest("/v1/domain/ct-logs", { domain: "good.test", limit: "2", offset: "1" })
    const b = await mcp("ct_logs", { domain: "good.test", limit: 2, offset: 1 })
    expect(timeless(b, drop)).toEqual(timeless(a, drop))
    expect((b as any).certificates).toHaveLength(2)
    const since = await mcp("ct_logs", { domain: "good.test", since: "2999-01-01" })
    expect((since as any).total).toBe(0)
  })
})

describe("tool input errors are results a model can act on", () => {
  const bad = async (name: string, args: Record<string, unknown>, mention: string, code = "invalid_request") => {
    const res = (await client.callTool({ name, arguments: args })) as any
    expect(res.isError).toBe(true)
    expect(res.structuredContent.error.code).toBe(code)
    expect(res.content[0].text).toContain(mention)
    expect(res.content[0].text).toContain(code)
  }
  test("out of range, wrong type, unknown enum", async () => {
    await bad("http_check", { url: "http://x.test/", timeout: 10 }, "timeout")
    await bad("http_check", { url: "http://x.test/", method: "POST" }, "method")
    await bad("http_check", { url: "http://x.test/", max_redirects: "5" }, "max_redirects")
    await bad("ct_logs", { domain: "good.test", limit: 0 }, "limit")
    await bad("zone_hygiene", {}, "domain")
  })
  test("what the service refuses: bad since, a non-http scheme, an IP as a zone", async () => {
    await bad("ct_logs", { domain: "good.test", since: "yesterday" }, "since must be an ISO 8601")
    await bad("http_check", { url: "ftp://good.test/" }, "scheme ftp", "target_forbidden")
    await bad("zone_hygiene", { domain: "127.0.0.1" }, "is an IP address")
  })
  test("dns_lookup record types are case-insensitive", async () => {
    const res = (await client.callTool({ name: "dns_lookup", arguments: { domain: "good.test", type: "Txt" } })) as any
    expect(res.isError).toBe(false)
    expect(res.structuredContent.type).toBe("TXT")
    await bad("dns_lookup", { domain: "good.test", type: "bogus" }, "use one of")
  })
})

describe("one HSTS judgement", () => {
  test("STS over plain http: http_check says not enabled, security_headers never counts it", async () => {
    const url = `http://site.test:${fx.site.port}/`
    const check = (await mcp("http_check", { url })) as any
    expect(check.headers.strict_transport_security).toBe("max-age=31536000")
    expect(check.security_summary.hsts_enabled).toBe(false)
    expect(check.security_summary.hsts_max_age).toBe(31536000)
    // RFC 6797 §8.1: the header only counts over https, and nothing answers https here.
    const headers = (await mcp("security_headers", { url })) as any
    expect(headers.tests["strict-transport-security"]).toMatchObject({ pass: false, result: "hsts-not-implemented-no-https" })
  })

  test("STS over https: both say it is in effect", async () => {
    const url = `https://good.test:${fx.good.port}/`
    const check = (await mcp("http_check", { url })) as any
    expect(check.security_summary.hsts_enabled).toBe(true)
    const headers = (await mcp("security_headers", { url })) as any
    expect(headers.tests["strict-transport-security"]).toMatchObject({ pass: true, result: "hsts-implemented-max-age-at-least-six-months" })
  })

  test("security_headers = GET /v1/security/headers", async () => {
    const url = `https://good.test:${fx.good.port}/`
    const a = await rest("/v1/security/headers", { url })
    const b = await mcp("security_headers", { url })
    expect(timeless(b, ["checked_at"])).toEqual(timeless(a, ["checked_at"]))
    expect((b as any).grade).toBe("A+")
  })
})
