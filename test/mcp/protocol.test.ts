/**
 * The MCP endpoint as raw JSON-RPC 2.0 over HTTP, against the real service: every error code,
 * ids, notifications, batches, the HTTP side (405, 202, content type) and auth/plan/metering.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"

const PATH = "/v1/advanced/mcp"

let svc: TestService
let proKey: string
let proOrg: string

beforeAll(async () => {
  svc = await startService()
  const k = await svc.newKey("pro")
  proKey = k.key
  proOrg = k.orgId
})
afterAll(async () => {
  await svc.stop()
})

/** `key` null: no Authorization header. */
const post = (body: string | unknown, key: string | null = proKey) =>
  svc.call(PATH, {
    method: "POST",
    key: key ?? undefined,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

const rpc = async (body: string | unknown, key?: string) => {
  const res = await post(body, key)
  expect(res.status).toBe(200)
  expect(res.headers.get("content-type")).toContain("application/json")
  return (await res.json()) as any
}

const init = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "raw-test", version: "1.0.0" }
}

describe("initialize and ping", () => {
  test("answers the client's version when supported, 2025-11-25 otherwise", async () => {
    const r = await rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: init })
    expect(r.jsonrpc).toBe("2.0")
    expect(r.id).toBe(1)
    expect(r.result.protocolVersion).toBe("2025-06-18")
    for (const v of ["2024-11-05", "2025-03-26", "2025-11-25"]) {
      const x = await rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: { ...init, protocolVersion: v } })
      expect(x.result.protocolVersion).toBe(v)
    }
    for (const v of ["2024-10-07", "2099-01-01", "banana"]) {
      const x = await rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: { ...init, protocolVersion: v } })
      expect(x.result.protocolVersion).toBe("2025-11-25")
    }
    expect(r.result.serverInfo.name).toBe("domain-intel")
    expect(typeof r.result.serverInfo.version).toBe("string")
    expect(r.result.capabilities.tools).toBeDefined()
    expect(r.error).toBeUndefined()
  })

  test("initialize without its required params is -32602", async () => {
    const r = await rpc({ jsonrpc: "2.0", id: 2, method: "initialize", params: { capabilities: {} } })
    expect(r.error.code).toBe(-32602)
    expect(r.error.message).toContain("protocolVersion")
    expect(r.id).toBe(2)
  })

  test("ping answers an empty result", async () => {
    const r = await rpc({ jsonrpc: "2.0", id: "p", method: "ping" })
    expect(r).toEqual({ jsonrpc: "2.0", id: "p", result: {} })
  })
})

describe("error codes", () => {
  // docs/mcp.md: HTTP 400 with the JSON-RPC body, as the official SDK's server answers.
  const parseFailure = async (body: string) => {
    const res = await post(body)
    expect(res.status).toBe(400)
    expect(res.headers.get("content-type")).toContain("application/json")
    return (await res.json()) as any
  }

  test("-32700 with HTTP 400 for a body that is not JSON, with a null id", async () => {
    for (const body of ["{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ", "not json", "{'jsonrpc': '2.0'}", "[1,"]) {
      const r = await parseFailure(body)
      expect(r.jsonrpc).toBe("2.0")
      expect(r.error.code).toBe(-32700)
      expect(r.error.data.code).toBe("invalid_request")
      expect(typeof r.error.message).toBe("string")
      expect(r.id).toBeNull()
    }
  })

  test("-32700 with HTTP 400 for an empty body", async () => {
    const r = await parseFailure("")
    expect(r.error.code).toBe(-32700)
  })

  test("-32600 for JSON that is not a request object", async () => {
    for (const body of ["5", "\"hello\"", "null", "true"]) {
      const r = await rpc(body)
      expect(r.error.code).toBe(-32600)
      expect(r.error.data.code).toBe("invalid_request")
      expect(r.id).toBeNull()
    }
  })

  test("-32600 for a wrong jsonrpc version, echoing the id", async () => {
    const r = await rpc({ jsonrpc: "1.0", id: 7, method: "ping" })
    expect(r.error.code).toBe(-32600)
    expect(r.id).toBe(7)
  })

  test("-32600 for a missing method, a non-string method and an object id", async () => {
    expect((await rpc({ jsonrpc: "2.0", id: 8 })).error.code).toBe(-32600)
    const m = await rpc({ jsonrpc: "2.0", id: 9, method: 42 })
    expect(m.error.code).toBe(-32600)
    expect(m.id).toBe(9)
    const o = await rpc({ jsonrpc: "2.0", id: { a: 1 }, method: "ping" })
    expect(o.error.code).toBe(-32600)
    expect(o.id).toBeNull()
  })

  test("-32600 for a null id (MCP forbids it)", async () => {
    const r = await rpc({ jsonrpc: "2.0", id: null, method: "ping" })
    expect(r.error.code).toBe(-32600)
    expect(r.id).toBeNull()
  })

  test("-32601 for an unknown method", async () => {
    const r = await rpc({ jsonrpc: "2.0", id: 10, method: "resources/list" })
    expect(r.error.code).toBe(-32601)
    expect(r.error.data.code).toBe("not_found")
    expect(r.error.message).toContain("resources/list")
    expect(r.id).toBe(10)
  })

  test("-32602 for an unknown tool, not_found as for an unknown REST route, with the tools there are", async () => {
    const r = await rpc({ jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "port_scan", arguments: {} } })
    expect(r.error.code).toBe(-32602)
    expect(r.error.message).toContain("port_scan")
    expect(r.error.data.code).toBe("not_found")
    expect(r.error.data.tools).toContain("dns_lookup")
  })

  test("bad tool arguments are an isError result with invalid_request, naming the argument: missing, wrong type, unknown enum, extra property", async () => {
    const cases: Array<[string, unknown, string]> = [
      ["dns_lookup", {}, "domain"],
      ["dns_lookup", { domain: 42 }, "domain"],
      ["dns_lookup", { domain: "example.com", type: "BOGUS" }, "type"],
      ["dns_lookup", { domain: "example.com", extra: true }, "extra"],
      ["dns_lookup", { domain: "not a domain!" }, "domain"],
      ["ssl_certificate", { domain: "example.com", port: 70000 }, "port"],
      ["ssl_certificate", { domain: "example.com", port: 44.5 }, "port"],
      ["security_headers", { url: "" }, "url"],
      ["whois_lookup", { name: "example.com" }, "domain"]
    ]
    for (const [name, args, mention] of cases) {
      const r = await rpc({ jsonrpc: "2.0", id: 12, method: "tools/call", params: { name, arguments: args } })
      expect(r.error).toBeUndefined()
      expect(r.result.isError).toBe(true)
      expect(r.result.structuredContent.error.code).toBe("invalid_request")
      expect(r.result.structuredContent.error.message).toContain(mention)
      expect(r.result.structuredContent.error.details.issues.map((i: any) => i.path)).toContain(mention)
      expect(r.result.content[0].text).toContain(`Invalid arguments for ${name}`)
      expect(r.result.content[0].text).toContain(mention)
    }
  })

  test("a target the service refuses is an isError result with target_forbidden, as REST answers it", async () => {
    const r = await rpc({ jsonrpc: "2.0", id: 15, method: "tools/call", params: { name: "security_headers", arguments: { url: "ftp://example.com/" } } })
    expect(r.result.isError).toBe(true)
    expect(r.result.structuredContent.error.code).toBe("target_forbidden")
    expect(r.result.content[0].text).toContain("scheme ftp")
  })

  test("-32602 for tools/call without a name and for positional params", async () => {
    for (const params of [{}, ["dns_lookup"]]) {
      const r = await rpc({ jsonrpc: "2.0", id: 13, method: "tools/call", params })
      expect(r.error.code).toBe(-32602)
      expect(r.error.data.code).toBe("invalid_request")
    }
  })
})

describe("ids", () => {
  test("string and number ids come back unchanged", async () => {
    const ids: Array<string | number> = [0, -1, 1.5, 9007199254740991, "", "0", "abc-123", "ünïcødé", "x".repeat(200)]
    for (const id of ids) {
      const r = await rpc({ jsonrpc: "2.0", id, method: "ping" })
      expect(r.id).toStrictEqual(id)
    }
  })
})

describe("notifications", () => {
  test("a notification gets 202 and no body", async () => {
    const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" })
    expect(res.status).toBe(202)
    expect(await res.text()).toBe("")
  })

  test("an unknown notification is not answered either", async () => {
    const res = await post({ jsonrpc: "2.0", method: "notifications/whatever", params: { x: 1 } })
    expect(res.status).toBe(202)
    expect(await res.text()).toBe("")
  })

  test("a JSON-RPC response posted by the client is accepted with 202", async () => {
    const res = await post({ jsonrpc: "2.0", id: 99, result: {} })
    expect(res.status).toBe(202)
  })
})

describe("batches", () => {
  test("an empty batch is -32600", async () => {
    const r = await rpc([])
    expect(r.error.code).toBe(-32600)
    expect(r.id).toBeNull()
  })

  test("a batch of notifications only answers 202 with no body", async () => {
    const res = await post([
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }
    ])
    expect(res.status).toBe(202)
    expect(await res.text()).toBe("")
  })

  test("a mixed batch answers an array matched by id; notifications are left out", async () => {
    const r = await rpc([
      { jsonrpc: "2.0", id: "a", method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "nope" },
      { foo: "bar" },
      { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "dns_lookup", arguments: {} } }
    ])
    expect(Array.isArray(r)).toBe(true)
    expect(r).toHaveLength(5)
    const byId = new Map(r.map((x: any) => [x.id, x]))
    expect((byId.get("a") as any).result).toEqual({})
    expect((byId.get(2) as any).result.tools).toHaveLength(17)
    expect((byId.get(3) as any).error.code).toBe(-32601)
    expect((byId.get("b") as any).result.isError).toBe(true)
    expect((byId.get(null) as any).error.code).toBe(-32600)
  })

  test("a batch element that is not an object is -32600 in its place", async () => {
    const r = await rpc([1, { jsonrpc: "2.0", id: 1, method: "ping" }])
    expect(r).toHaveLength(2)
    expect(r.find((x: any) => x.id === null).error.code).toBe(-32600)
    expect(r.find((x: any) => x.id === 1).result).toEqual({})
  })

  test("a batch larger than 50 is -32600", async () => {
    const r = await rpc(Array.from({ length: 51 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" })))
    expect(r.error.code).toBe(-32600)
  })
})

describe("tools/list", () => {
  test("lists the seventeen tools with JSON Schema input and output definitions, titles and annotations", async () => {
    const r = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    const tools = r.result.tools as Array<any>
    expect(tools.map((t) => t.name).sort()).toEqual([
      "blocklist", "content_freshness", "ct_logs", "dns_lookup", "domain_audit", "domain_intelligence", "email_security", "http_check",
      "lookalike_domains", "monitor_status", "security_headers", "ssl_certificate", "subdomain_takeover", "tls_scan", "waf_detection", "whois_lookup", "zone_hygiene"
    ])
    for (const t of tools) {
      expect(t.description.length).toBeGreaterThan(40)
      expect(t.title.length).toBeGreaterThan(3)
      expect(t.inputSchema.type).toBe("object")
      expect(t.inputSchema.additionalProperties).toBe(false)
      expect(t.outputSchema.type).toBe("object")
      expect(t.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: true })
      expect(JSON.stringify(t.outputSchema)).not.toContain("$id")
      expect(JSON.stringify(t.inputSchema)).not.toMatch(/"title":"(maxLength|between|minLength)\(/)
    }
    const dns = tools.find((t) => t.name === "dns_lookup")
    expect(dns.inputSchema.required).toEqual(["domain"])
    expect(dns.inputSchema.properties.type.enum).toContain("HTTPS")
    expect(dns.inputSchema.properties.type.enum).toContain("SVCB")
    expect(dns.inputSchema.properties.type.enum).toContain("CAA")
    const ssl = tools.find((t) => t.name === "ssl_certificate")
    expect(ssl.inputSchema.properties.port).toMatchObject({ type: "integer", minimum: 1, maximum: 65535 })
    expect(tools.find((t) => t.name === "security_headers").inputSchema.required).toEqual(["url"])
  })
})

describe("HTTP side", () => {
  test("GET is 405 (no server-sent event stream)", async () => {
    const res = await svc.call(PATH, { method: "GET", key: proKey, headers: { accept: "text/event-stream" } })
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("POST")
  })

  test("401 without a key and with an unknown key, in the error envelope", async () => {
    const none = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, null)
    expect(none.status).toBe(401)
    expect((await none.json() as any).error.code).toBe("unauthorized")
    const bad = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, "di_0000000000000000_" + "A".repeat(43))
    expect(bad.status).toBe(401)
  })

  test("403 for free and developer plans; pro and enterprise pass", async () => {
    for (const plan of ["free", "developer"] as const) {
      const { key } = await svc.newKey(plan)
      const res = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, key)
      expect(res.status).toBe(403)
      expect((await res.json() as any).error.code).toBe("plan_forbidden")
    }
    const { key } = await svc.newKey("enterprise")
    expect((await rpc({ jsonrpc: "2.0", id: 1, method: "ping" }, key)).result).toEqual({})
  })

  test("a used-up quota is 429 with Retry-After before any JSON-RPC is handled", async () => {
    const { key, orgId } = await svc.newKey("pro")
    const now = new Date()
    await svc.sql("INSERT INTO quota_usage (org_id, month, used) VALUES (?, ?, 499999)", [orgId, Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)])
    const last = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, key)
    expect(last.status).toBe(200)
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0")
    const refused = await post({ jsonrpc: "2.0", id: 2, method: "ping" }, key)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await refused.json() as any).error.code).toBe("quota_exceeded")
  })

  test("each call is metered as mcpServer in the advanced category with quota headers", async () => {
    const { key, orgId } = await svc.newKey("pro")
    const res = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, key)
    expect(res.headers.get("x-ratelimit-limit")).toBe("500000")
    expect(res.headers.get("x-ratelimit-remaining")).toBe("499999")
    await post([{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 2, method: "ping" }], key)
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, key)
    await svc.flushLog()
    const rows = await svc.sql<{ operation: string; category: string; status: number; method: string; path: string }>(
      "SELECT operation, category, status, method, path FROM request_log WHERE org_id = ? ORDER BY ts",
      [orgId]
    )
    expect(rows.map((r) => [r.operation, r.category, r.method, r.path, r.status])).toEqual([
      ["mcpServer", "advanced", "POST", PATH, 200],
      ["mcpServer", "advanced", "POST", PATH, 200],
      ["mcpServer", "advanced", "POST", PATH, 202]
    ])
    expect(proOrg).not.toBe(orgId)
  })
})
