/**
 * The fast path (src/http/FastPath.ts) against the HttpApi path: two instances of the service on
 * one SQLite file, one with FAST_PATH on and one with it off, asked the same requests.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FastPathStats } from "../../src/http/FastPath"
import { monthStart, Quota } from "../../src/metering/Quota"
import { startService, type TestService } from "../support/service"

const dir = mkdtempSync(join(tmpdir(), "di-fast-"))
const databaseUrl = `sqlite:${join(dir, "db.sqlite")}`
let fast: TestService
let full: TestService

beforeAll(async () => {
  fast = await startService({ databaseUrl })
  full = await startService({ databaseUrl, fastPath: false })
})
afterAll(async () => {
  await fast?.stop()
  await full?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const stats = (svc: TestService) =>
  svc.run(Effect.map(FastPathStats, (s) => ({ served: s.served, handedOver: s.handedOver })))

/** How much each counter moved while `f` ran. */
const moved = async (svc: TestService, f: () => Promise<unknown>) => {
  const before = await stats(svc)
  await f()
  const after = await stats(svc)
  return { served: after.served - before.served, handedOver: after.handedOver - before.handedOver }
}

interface Answer {
  readonly status: number
  readonly body: string
  readonly headers: Record<string, string>
}

const ask = async (svc: TestService, path: string, init: RequestInit & { key?: string } = {}): Promise<Answer> => {
  const r = await svc.call(path, init)
  const headers: Record<string, string> = {}
  r.headers.forEach((v, k) => (headers[k] = v))
  return { status: r.status, body: await r.text(), headers }
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Same status, body and header names; the same values where both paths must agree. */
const expectSameAnswer = (a: Answer, b: Answer, requestId?: string) => {
  expect(a.status).toBe(b.status)
  expect(a.body).toBe(b.body)
  expect(Object.keys(a.headers).sort()).toEqual(Object.keys(b.headers).sort())
  for (const h of ["content-type", "content-length", "x-ratelimit-limit", "retry-after"]) {
    expect(a.headers[h]).toBe(b.headers[h])
  }
  for (const x of [a, b]) {
    if (requestId) expect(x.headers["x-request-id"]).toBe(requestId)
    else expect(x.headers["x-request-id"]).toMatch(uuid)
  }
}

const ruleBody = (name: string, threshold: number) =>
  JSON.stringify({ name, metric: "error_rate", operator: "gt", threshold_value: threshold, window_minutes: 5 })

const createRule = async (svc: TestService, key: string, name: string, threshold = 5) => {
  const r = await svc.call("/v1/alerts/rules", {
    key,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: ruleBody(name, threshold)
  })
  expect(r.status).toBe(201)
  return ((await r.json()) as any).rule as { id: string; threshold_value: number }
}

describe("fast path", () => {
  test("steady-state reads are answered on the fast path, byte for byte as the HttpApi path answers them", async () => {
    const { key } = await fast.newKey("developer")
    // The first request of a key fills the key memo on each instance (the fast path hands it over).
    expect((await ask(fast, "/v1/alerts/rules", { key })).status).toBe(200)
    expect((await ask(full, "/v1/alerts/rules", { key })).status).toBe(200)
    const a = await createRule(fast, key, "first")
    await createRule(fast, key, "second", 7)

    interface Case {
      readonly path: string
      readonly method?: string
      /** A well-formed X-Request-Id, echoed by both paths. */
      readonly requestId?: string
      /** A malformed one, replaced by a fresh UUID on both paths. */
      readonly badRequestId?: string
    }
    const served: Array<Case> = [
      { path: "/v1/alerts/rules" },
      { path: "/v1/alerts/rules?unrelated=1" },
      { path: `/v1/alerts/rules/${a.id}` },
      { path: `/v1/alerts/rules/${a.id}`, requestId: "caller-id.42" },
      { path: `/v1/alerts/rules/${a.id}`, badRequestId: "no spaces allowed" },
      { path: `/v1/alerts/rules/${a.id.replace("_", "%5F")}` } // Bun decodes the escape, as the router does
    ]
    const handedOver: Array<Case> = [
      { path: "/v1/alerts/rules/rule_that_does_not_exist" }, // 404 from the full path
      { path: `/v1/alerts/rules/${"x".repeat(101)}` }, // the path schema refuses it: 400
      { path: `/v1/alerts/rules/${a.id.replace("_", "%255F")}` }, // a literal "%": left to the router
      { path: "/v1/alerts/rules/a%2Fb" },
      { path: "/v1/alerts/rules/%ZZ" },
      { path: "/v1/alerts/rules", method: "HEAD" },
      { path: "/v1/alerts/rules", method: "DELETE" } // no such operation: the full path answers
    ]
    // Paths Bun's routes do not match at all go straight to the HttpApi handler.
    const elsewhere: Array<Case> = [{ path: "/v1/alerts/rules/" }, { path: "/v1//alerts/rules" }]
    for (const group of [served, handedOver, elsewhere]) {
      const delta = await moved(fast, async () => {
        for (const c of group) {
          const headers: Record<string, string> = {}
          const sentId = c.requestId ?? c.badRequestId
          if (sentId !== undefined) headers["x-request-id"] = sentId
          const init = { key, method: c.method ?? "GET", headers }
          const x = await ask(fast, c.path, init)
          const y = await ask(full, c.path, init)
          expectSameAnswer(x, y, c.requestId)
          if (group === served) {
            expect(x.status).toBe(200)
            expect(x.headers["content-type"]).toBe("application/json")
          }
        }
      })
      expect(delta).toEqual({
        served: group === served ? group.length : 0,
        handedOver: group === handedOver ? group.length : 0
      })
    }
    // Hostile ids: never a row, so never served; whichever way each goes, the answers agree.
    const hostile = ["%00", "..%2F..%2Fetc%2Fpasswd", "%C3%BC%C3%B1%C3%AF", "%F0%9F%92%A9", "'%20OR%201=1--", "%E0%A4%A"]
    const hostileDelta = await moved(fast, async () => {
      for (const id of hostile) {
        expectSameAnswer(await ask(fast, `/v1/alerts/rules/${id}`, { key }), await ask(full, `/v1/alerts/rules/${id}`, { key }))
      }
    })
    expect(hostileDelta.served).toBe(0)

    const list = JSON.parse((await ask(fast, "/v1/alerts/rules", { key })).body)
    expect(list.rules.map((r: any) => [r.name, r.threshold_value])).toEqual([["first", 5], ["second", 7]])
    // The instance without the fast path never used it.
    expect(await stats(full)).toEqual({ served: 0, handedOver: 0 })
  })

  test("a write is visible to the very next read, made on this instance or on another", async () => {
    const { key } = await fast.newKey("developer")
    await ask(fast, "/v1/alerts/rules", { key })
    await ask(full, "/v1/alerts/rules", { key })
    const delta = await moved(fast, async () => {
      // Written by the other instance, read here.
      const rule = await createRule(full, key, "from-elsewhere", 3)
      let list = JSON.parse((await ask(fast, "/v1/alerts/rules", { key })).body)
      expect(list.rules.map((r: any) => r.id)).toEqual([rule.id])

      // Changed through this instance (PATCH is handed over), read on the fast path.
      const patched = await fast.call(`/v1/alerts/rules/${rule.id}`, {
        key,
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ threshold_value: 9 })
      })
      expect(patched.status).toBe(200)
      const one = JSON.parse((await ask(fast, `/v1/alerts/rules/${rule.id}`, { key })).body)
      expect(one.rule.threshold_value).toBe(9)

      // Deleted elsewhere: gone here at once.
      expect((await full.call(`/v1/alerts/rules/${rule.id}`, { key, method: "DELETE" })).status).toBe(204)
      expect((await ask(fast, `/v1/alerts/rules/${rule.id}`, { key })).status).toBe(404)
      list = JSON.parse((await ask(fast, "/v1/alerts/rules", { key })).body)
      expect(list.rules).toEqual([])
    })
    // Served: list, get, list. Handed over: the PATCH and the read that found nothing.
    expect(delta).toEqual({ served: 3, handedOver: 2 })
  })

  test("an unknown key, a plan below the operation's and a used-up quota are handed over", async () => {
    const unknown = await moved(fast, async () => {
      expect((await ask(fast, "/v1/alerts/rules", { key: "di_nope_nope" })).status).toBe(401)
    })
    expect(unknown).toEqual({ served: 0, handedOver: 1 })

    const free = await fast.newKey("free")
    const forbidden = await moved(fast, async () => {
      for (let i = 0; i < 2; i++) {
        const r = await ask(fast, "/v1/alerts/rules", { key: free.key })
        expect(r.status).toBe(403)
        expect(JSON.parse(r.body).error.code).toBe("plan_forbidden")
      }
    })
    expect(forbidden).toEqual({ served: 0, handedOver: 2 })

    // Three requests of room left in this month's developer quota (50,000).
    const dev = await fast.newKey("developer")
    await fast.sql("INSERT INTO quota_usage (org_id, month, used) VALUES (?, ?, ?)", [dev.orgId, monthStart(Date.now()), 49_997])
    const answers: Array<Answer> = []
    const quota = await moved(fast, async () => {
      for (let i = 0; i < 4; i++) answers.push(await ask(fast, "/v1/alerts/rules", { key: dev.key }))
    })
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429])
    expect(answers.slice(0, 3).map((a) => a.headers["x-ratelimit-remaining"])).toEqual(["2", "1", "0"])
    expect(Number(answers[3].headers["retry-after"])).toBeGreaterThan(0)
    // This close to the limit the quota reserves one unit per request in the store (an atomic
    // check, src/metering/Quota.ts), so no unit is held in memory and every request goes the full way.
    expect(quota).toEqual({ served: 0, handedOver: 4 })
  })

  test("each request answered on the fast path is logged and counted once", async () => {
    const { key, orgId } = await fast.newKey("developer")
    const n = 40
    const delta = await moved(fast, async () => {
      const statuses = await Promise.all(
        Array.from({ length: n }, () => fast.call("/v1/alerts/rules", { key }).then((r) => r.status))
      )
      expect(statuses.every((s) => s === 200)).toBe(true)
    })
    expect(delta.served + delta.handedOver).toBe(n)
    expect(delta.served).toBeGreaterThan(0)
    await fast.flushLog()
    const rows = await full.sql<any>("SELECT operation, category, method, path, status, latency_ms FROM request_log WHERE org_id = ?", [orgId])
    expect(rows.length).toBe(n)
    for (const r of rows) {
      expect([r.operation, r.category, r.method, r.path, r.status]).toEqual(["listAlertRules", "alerts", "GET", "/v1/alerts/rules", 200])
      expect(r.latency_ms).toBeGreaterThan(0)
    }
    // The store's count includes the block the serving instance reserved; its report counts what it served.
    const [usage] = await full.sql<{ used: number }>("SELECT used FROM quota_usage WHERE org_id = ?", [orgId])
    expect(usage.used).toBeGreaterThanOrEqual(n)
    // The serving instance counts exactly what it served (the rest of its block is held, unused).
    const org = { id: orgId, name: "", plan: "developer" as const }
    expect((await fast.run(Effect.flatMap(Quota, (q) => q.used(org)))).used).toBe(n)
    // The other instance's usage report reads the same log.
    const report = JSON.parse((await ask(full, "/v1/analytics/usage?period=current", { key })).body)
    expect(report.total_requests).toBe(n)
    expect(report.by_category.alerts).toBe(n)
  })

  test("an in-memory store has no second connection: the fast path is off", async () => {
    const memory = await startService()
    try {
      const { key } = await memory.newKey("developer")
      for (let i = 0; i < 3; i++) expect((await memory.call("/v1/alerts/rules", { key })).status).toBe(200)
      expect(await stats(memory)).toEqual({ served: 0, handedOver: 0 })
    } finally {
      await memory.stop()
    }
  })
})
