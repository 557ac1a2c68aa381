/**
 * The `domain` parameter (docs/conventions.md, "The domain parameter") through the real service,
 * per operation: what is not a host name is 400 invalid_request with a message that says why (REST
 * and the MCP tools of the same operations); `http(s)://host/` is the host. The page operations
 * (Content Freshness, WAF) also take full http(s) URLs (the same page), so there only other
 * schemes and a user part are refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"

let svc: TestService
let key: string

beforeAll(async () => {
  // No resolvers and a closed CT aggregator: an accepted name gets 502, never a 400.
  svc = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: 9 }], dnsTimeoutMs: 300, ctBudgetMs: 300 })
  key = (await svc.newKey("enterprise")).key
})
afterAll(async () => {
  await svc?.stop()
})

const get = async (path: string, domain: string) => {
  const res = await svc.call(`${path}?domain=${encodeURIComponent(domain)}`, { key })
  return { status: res.status, body: (await res.json()) as any }
}
const tool = async (name: string, domain: string) => {
  const res = await svc.call("/v1/advanced/mcp", {
    method: "POST",
    key,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: { domain } } })
  })
  return ((await res.json()) as any).result
}

const refusedEverywhere: ReadonlyArray<readonly [string, string]> = [
  ["ftp://x.example", "scheme ftp://"],
  ["user@x.example", "user part"],
  // not a full URL, so a bare domain: no port, no page (a full http(s) URL may name both)
  ["host.example:25", "port"],
  ["x.example/path", "path"],
  ["x.example?q=1", "query"]
]
const refusedForZones: ReadonlyArray<readonly [string, string]> = [
  ...refusedEverywhere,
  ["https://x.example:8443/", "port"],
  ["https://x.example/path", "path"],
  ["https://x.example/?q=1", "query"],
  ["192.0.2.1", "IP address"],
  ["[2001:db8::1]", "IP address"]
]

describe.each([
  ["zoneHygiene", "/v1/dns/zone-hygiene", "zone_hygiene"],
  ["ctLogs", "/v1/domain/ct-logs", "ct_logs"]
])("%s", (_op, path, mcpTool) => {
  test.each(refusedForZones)("REST: %j is 400 invalid_request (%s)", async (domain, why) => {
    const r = await get(path, domain)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("invalid_request")
    expect(r.body.error.message).toContain(why)
  })

  test.each(["x.example", "http://x.example", "https://x.example/", "X.Example."])("REST: %j is accepted as x.example", async (domain) => {
    const r = await get(path, domain)
    expect(r.status).not.toBe(400)
    expect([200, 502]).toContain(r.status)
  }, 15_000)

  test.each(refusedForZones)(`MCP ${mcpTool}: %j is a tool error (%s)`, async (domain, why) => {
    const r = await tool(mcpTool, domain)
    expect(r.isError).toBe(true)
    expect(JSON.stringify(r.content)).toContain(why)
  })
})

describe.each([
  ["contentFreshness", "/v1/domain/content-freshness", "content_freshness"],
  ["wafDetection", "/v1/domain/waf", "waf_detection"]
])("%s", (_op, path, mcpTool) => {
  test.each(refusedEverywhere)("REST: %j is 400 invalid_request (%s), not target_forbidden", async (domain, why) => {
    const r = await get(path, domain)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("invalid_request")
    expect(r.body.error.message).toContain(why)
  })

  test.each(refusedEverywhere)(`MCP ${mcpTool}: %j is a tool error (%s)`, async (domain, why) => {
    const r = await tool(mcpTool, domain)
    expect(r.isError).toBe(true)
    expect(JSON.stringify(r.content)).toContain(why)
  })
})
