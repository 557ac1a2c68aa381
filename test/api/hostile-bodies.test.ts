/**
 * Hostile bodies on every body-taking route (every declared route whose method carries a body,
 * MCP included): JSON nested 100,000 deep, 2 MiB with a Content-Length, 2 MiB chunked, non-JSON
 * with and without a content type. Answers are 400/413 in the envelope (or the route's own 4xx
 * when it reads no body), never 5xx, never an empty reply. Also: 405 with Allow, 401's
 * WWW-Authenticate, and /readyz 503 on a database file the test makes unusable.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Database } from "bun:sqlite"
import { join } from "node:path"
import { Api } from "../../src/surfaces/api/Api"
import { rawRoutes } from "../../src/surfaces/server/Http"
import { makeOperations } from "../../src/platform/http/Operation"
import { startService, type TestService } from "../support/service"
import { tempDir } from "../support/tmp"

let svc: TestService
let key: string
let ruleId: string

beforeAll(async () => {
  svc = await startService()
  key = (await svc.newKey("enterprise")).key
  const created = await svc.call("/v1/alerts/rules", {
    method: "POST",
    key,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "r", metric: "error_rate", operator: "gt", threshold_value: 5, window_minutes: 5 })
  })
  expect(created.status).toBe(201)
  ruleId = ((await created.json()) as any).rule.id
})
afterAll(() => svc?.stop())

const bodyRoutes = makeOperations(Api, rawRoutes).all.filter((o) => o.method !== "GET")
// DELETE, rotate-secret and test read no body: aim them at a missing rule so they answer 404
// (and the others keep the rule).
const readsNoBody = (r: { path: string; method: string }) => r.method === "DELETE" || /\/(rotate-secret|test)$/.test(r.path)
const pathOf = (r: { path: string; method: string }) => r.path.replace(/:id/, () => (readsNoBody(r) ? "rule_missing" : ruleId))

const deep = "[".repeat(100_000) + "]".repeat(100_000)
const deepObject = '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000)
const twoMiB = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) })

const chunked = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      const bytes = new TextEncoder().encode(text)
      for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.slice(i, i + 64 * 1024))
      controller.close()
    }
  })

const send = async (method: string, path: string, body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) => {
  const res = await svc.call(path, { method, key, body, headers, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as any)
  const text = await res.text()
  expect({ path, status: res.status, empty: text.length === 0 }).toEqual({ path, status: res.status, empty: false })
  return { status: res.status, body: JSON.parse(text) as any }
}

describe("hostile bodies on every body-taking route", () => {
  test("the inventory holds every body-taking route", () => {
    expect(bodyRoutes.map((r) => r.operation).sort()).toEqual(
      ["acknowledgeAlert", "createAlertRule", "createMonitor", "deleteAlertRule", "deleteMonitor", "mcpServer", "resolveAlert",
        "rotateAlertRuleSecret", "rotateMonitorSecret", "testAlertRule", "updateAlertRule", "updateMonitor"]
    )
  })

  test("JSON nested 100,000 deep: 400 invalid_request where the body is read, never 5xx", async () => {
    for (const r of bodyRoutes) {
      for (const body of [deep, deepObject]) {
        const res = await send(r.method, pathOf(r), body, { "content-type": "application/json" })
        expect({ op: r.operation, ok: res.status >= 400 && res.status < 500 }).toEqual({ op: r.operation, ok: true })
        if (["createAlertRule", "updateAlertRule", "resolveAlert", "mcpServer", "createMonitor", "updateMonitor"].includes(r.operation)) {
          expect({ op: r.operation, status: res.status, code: res.body.error.code }).toEqual({ op: r.operation, status: 400, code: "invalid_request" })
        }
      }
    }
  })

  test("2 MiB, declared or chunked: 413 payload_too_large", async () => {
    for (const r of bodyRoutes) {
      const declared = await send(r.method, pathOf(r), twoMiB, { "content-type": "application/json" })
      expect({ op: r.operation, status: declared.status, code: declared.body.error.code }).toEqual({ op: r.operation, status: 413, code: "payload_too_large" })
      const streamed = await send(r.method, pathOf(r), chunked(twoMiB), { "content-type": "application/json" })
      expect({ op: r.operation, status: streamed.status, code: streamed.body.error.code }).toEqual({ op: r.operation, status: 413, code: "payload_too_large" })
    }
  })

  test("not JSON, with and without a content type: 4xx, never 5xx", async () => {
    for (const r of bodyRoutes) {
      for (const headers of [{ "content-type": "application/json" }, {}, { "content-type": "text/plain" }, { "content-type": "application/octet-stream" }] as Array<Record<string, string>>) {
        for (const body of ["{not json", "\u0000\u0001", "x".repeat(10_000)]) {
          const res = await send(r.method, pathOf(r), body, headers)
          // MCP answers unparsable JSON in JSON-RPC: error -32700 (HTTP 200), as the protocol asks.
          const ok = r.operation === "mcpServer" && res.status === 200 ? res.body.error?.code === -32700 : res.status >= 400 && res.status < 500
          expect({ op: r.operation, headers, ok }).toEqual({ op: r.operation, headers, ok: true })
          if (["createAlertRule", "updateAlertRule", "createMonitor", "updateMonitor"].includes(r.operation)) expect(res.status).toBe(400)
        }
      }
    }
  })
})

describe("statuses and headers", () => {
  test("a known path with a wrong method is 405 method_not_allowed with Allow", async () => {
    const rules = await svc.call("/v1/alerts/rules", { method: "PUT", key })
    expect(rules.status).toBe(405)
    expect(rules.headers.get("allow")).toBe("GET, POST, HEAD")
    expect(((await rules.json()) as any).error.code).toBe("method_not_allowed")
    const check = await svc.call("/v1/network/http-check", { method: "POST", key })
    expect(check.status).toBe(405)
    expect(check.headers.get("allow")).toBe("GET, HEAD")
    const mcp = await svc.call("/v1/advanced/mcp", { method: "GET", key })
    expect(mcp.status).toBe(405)
    expect(mcp.headers.get("allow")).toBe("POST")
    const unknown = await svc.call("/v1/alerts/nope", { method: "PUT", key })
    expect(unknown.status).toBe(404)
  })

  test("401 carries WWW-Authenticate: Bearer", async () => {
    const res = await svc.call("/v1/analytics/usage")
    expect(res.status).toBe(401)
    expect(res.headers.get("www-authenticate")).toBe("Bearer")
  })

  test("/readyz is 503 not_ready in the envelope when the database file is unusable", async () => {
    const dir = tempDir("di-readyz-")
    const file = join(dir, "db.sqlite")
    const own = await startService({ databaseUrl: `sqlite:${file}` })
    try {
      expect((await own.call("/readyz")).status).toBe(200)
      // Another process holds the file's write lock: the service can no longer write to it.
      const holder = new Database(file)
      holder.exec("BEGIN IMMEDIATE")
      try {
        const res = await own.call("/readyz")
        expect(res.status).toBe(503)
        expect(((await res.json()) as any).error.code).toBe("not_ready")
      } finally {
        holder.exec("ROLLBACK")
        holder.close()
      }
    } finally {
      await own.stop().catch(() => {})
    }
    // bun:sqlite waits out its busy_timeout (5 s) synchronously, in this very process.
  }, 30_000)
})
