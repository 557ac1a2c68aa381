/** The request log: one record per authenticated request, nothing lost under load or on SIGTERM. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { join } from "node:path"
import { Database } from "bun:sqlite"
import { startServe, waitUntilUp } from "../support/process"
import { startService, type TestService } from "../support/service"
import { tempDir } from "../support/tmp"

let svc: TestService
let origin: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  origin = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") })
  svc = await startService()
})
afterAll(async () => {
  origin?.stop(true)
  await svc?.stop()
})

describe("request log", () => {
  test("records organization, operation, category, status, latency and time", async () => {
    const { key, orgId } = await svc.newKey()
    const before = Date.now()
    await svc.call(`/v1/network/http-check?url=${encodeURIComponent(`http://127.0.0.1:${origin.port}/`)}`, { key })
    await svc.call(`/v1/network/http-check?timeout=3`, { key })
    await svc.call(`/v1/network/http-check`) // unauthenticated: not logged
    await svc.flushLog()
    const rows = await svc.sql<any>("SELECT * FROM request_log WHERE org_id = ? ORDER BY id", [orgId])
    expect(rows.map((r) => [r.operation, r.category, r.method, r.path, r.status])).toEqual([
      ["httpCheck", "network", "GET", "/v1/network/http-check", 200],
      ["httpCheck", "network", "GET", "/v1/network/http-check", 400]
    ])
    for (const r of rows) {
      expect(r.latency_ms).toBeGreaterThan(0)
      expect(r.ts).toBeGreaterThanOrEqual(before - 1000)
      expect(r.cache).toBeNull()
    }
  })

  test("500 concurrent requests: exactly 500 records", async () => {
    const { key, orgId } = await svc.newKey()
    const results = await Promise.all(
      Array.from({ length: 500 }, () => svc.call("/v1/network/http-check?timeout=1", { key }).then((r) => r.status))
    )
    expect(results.every((s) => s === 400)).toBe(true)
    await svc.flushLog()
    const rows = await svc.sql<{ n: number }>("SELECT COUNT(*) AS n FROM request_log WHERE org_id = ?", [orgId])
    expect(rows[0].n).toBe(500)
  })
})

describe("shutdown", () => {
  test("SIGTERM flushes every buffered record before exit", async () => {
    const dir = tempDir("di-sigterm-")
    const db = join(dir, "db.sqlite")
    const { child, port, stdout, exited } = await startServe(process.execPath, ["src/main.ts", "serve"], {
      env: { ...process.env, DATABASE_URL: `sqlite:${db}` }
    })
    try {
      expect(await waitUntilUp(`http://127.0.0.1:${port}/healthz`)).toBe(true)
      const key = stdout().trim().split("\n").pop()!
      const n = 300
      const statuses = await Promise.all(
        Array.from({ length: n }, () =>
          fetch(`http://127.0.0.1:${port}/v1/network/http-check?timeout=1`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status)
        )
      )
      expect(statuses.filter((s) => s === 400).length).toBe(n)
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
      const sqlite = new Database(db, { readonly: true })
      const count = sqlite.query("SELECT COUNT(*) AS n FROM request_log").get() as { n: number }
      sqlite.close()
      expect(count.n).toBe(n)
    } finally {
      child.kill("SIGKILL")
    }
  })
})
