/**
 * Every protocol version over streamable HTTP with the official SDK client (pinned per version):
 * initialize, tools/list (titles, annotations, outputSchema), all ten tools against loopback
 * targets with structuredContent validated by ajv; then, raw, the MCP-Protocol-Version header,
 * the batch rule per version and the quota counted per tools/call.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"
import { checkResult, checkToolList, connectHttp, MCP_PATH, type ToolInfo, toolCalls, VERSIONS } from "./client"
import { type Fixtures, startFixtures } from "./fixtures"

let fx: Fixtures
let svc: TestService
let key: string

beforeAll(async () => {
  fx = await startFixtures()
  svc = await startService(fx.config)
  key = (await svc.newKey("pro")).key
})
afterAll(async () => {
  await svc?.stop()
  await fx?.stop()
})

for (const version of VERSIONS) {
  describe(`SDK client on ${version}`, () => {
    test("initialize, list and call all ten tools with validated structured results", async () => {
      const { client, transport } = await connectHttp(svc.baseUrl, key, version)
      try {
        expect(transport.protocolVersion).toBe(version)
        expect(client.getServerVersion()?.name).toBe("domain-intel")
        const { tools } = await client.listTools()
        checkToolList(tools as Array<ToolInfo>)
        const byName = new Map((tools as Array<ToolInfo>).map((t) => [t.name, t]))
        for (const call of toolCalls(fx)) {
          const res = await client.callTool(call)
          const report = checkResult(byName.get(call.name)!, res as any, version)
          if (call.name === "dns_lookup") expect(report.type).toBe("MX")
        }
      } finally {
        await client.close()
      }
    }, 60_000)
  })
}

const post = (body: unknown, headers: Record<string, string> = {}, k = key) =>
  svc.call(MCP_PATH, {
    method: "POST",
    key: k,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" })

describe("MCP-Protocol-Version header", () => {
  test("an unsupported version is HTTP 400 naming the supported ones", async () => {
    for (const v of ["2024-10-07", "2026-01-01", "latest"]) {
      const res = await post(ping(1), { "mcp-protocol-version": v })
      expect(res.status).toBe(400)
      const body = (await res.json()) as any
      expect(body.error.code).toBe("invalid_request")
      expect(body.error.message).toContain("2025-11-25")
    }
  })

  test("each supported version is accepted", async () => {
    for (const v of VERSIONS) {
      const res = await post(ping(1), { "mcp-protocol-version": v })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} })
    }
  })
})

describe("batches per version", () => {
  test("allowed without a header and on 2024-11-05 / 2025-03-26", async () => {
    for (const headers of [{}, { "mcp-protocol-version": "2024-11-05" }, { "mcp-protocol-version": "2025-03-26" }] as Array<Record<string, string>>) {
      const res = await post([ping(1), ping(2)], headers)
      expect(res.status).toBe(200)
      const body = (await res.json()) as Array<any>
      expect(body.map((r) => r.id).sort()).toEqual([1, 2])
    }
  })

  test("-32600 on 2025-06-18 and 2025-11-25, and nothing in it runs", async () => {
    for (const v of ["2025-06-18", "2025-11-25"]) {
      const res = await post([ping(1), { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "dns_lookup", arguments: { domain: "good.test" } } }], { "mcp-protocol-version": v })
      const body = (await res.json()) as any
      expect(Array.isArray(body)).toBe(false)
      expect(body.error.code).toBe(-32600)
      expect(body.id).toBeNull()
      expect(body.error.message).toContain(v)
    }
  })
})

describe("quota per tools/call", () => {
  const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "dns_lookup", arguments: { domain: "good.test" } } })

  test("a batch of five calls counts five; a request without calls counts one", async () => {
    const { key: k } = await svc.newKey("pro")
    const first = await post(ping(1), {}, k)
    expect(first.headers.get("x-ratelimit-remaining")).toBe("499999")
    const batch = await post([call(1), call(2), call(3), call(4), call(5), { jsonrpc: "2.0", method: "notifications/initialized" }], {}, k)
    expect(batch.status).toBe(200)
    expect(batch.headers.get("x-ratelimit-remaining")).toBe(String(499999 - 5))
    const single = await post(call(9), { "mcp-protocol-version": "2025-06-18" }, k)
    expect(single.headers.get("x-ratelimit-remaining")).toBe(String(499999 - 6))
  })

  test("the usage report counts a batch of three calls as three requests", async () => {
    const { key: k } = await svc.newKey("pro")
    const res = await post([call(1), call(2), call(3)], {}, k)
    expect(res.status).toBe(200)
    const usage = (await (await svc.call("/v1/analytics/usage", { key: k })).json()) as any
    // three tools/calls, then the usage request itself
    expect(usage.quota.used).toBe(4)
  })

  test("a batch larger than what is left of the quota is 429", async () => {
    const { key: k, orgId } = await svc.newKey("pro")
    const now = new Date()
    await svc.sql("INSERT INTO quota_usage (org_id, month, used) VALUES (?, ?, 499997)", [orgId, Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)])
    const res = await post([call(1), call(2), call(3), call(4)], {}, k)
    expect(res.status).toBe(429)
    expect(((await res.json()) as any).error.code).toBe("quota_exceeded")
  })
})
