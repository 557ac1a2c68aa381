/** Authentication, plans, quota and the error shape, through real HTTP. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { Keys } from "../../src/product/accounts/Keys"
import { monthStart, nextMonthStart } from "../../src/product/metering/Quota"
import { planAllows } from "../../src/kernel/plans"
import { startService, type TestService } from "../support/service"

let svc: TestService
let origin: ReturnType<typeof Bun.serve>
let target: string

beforeAll(async () => {
  origin = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") })
  target = encodeURIComponent(`http://127.0.0.1:${origin.port}/`)
  svc = await startService()
})
afterAll(async () => {
  origin?.stop(true)
  await svc?.stop()
})

const expectError = async (res: Response, status: number, code: string) => {
  expect(res.status).toBe(status)
  expect(res.headers.get("content-type")).toContain("application/json")
  const body = (await res.json()) as any
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe("string")
  expect(body.error.message.length).toBeGreaterThan(0)
  return body
}

describe("authentication", () => {
  test("missing, empty, malformed and unknown keys are 401 unauthorized", async () => {
    await expectError(await svc.call(`/v1/network/http-check?url=${target}`), 401, "unauthorized")
    await expectError(await svc.call(`/v1/network/http-check?url=${target}`, { headers: { authorization: "Bearer " } }), 401, "unauthorized")
    await expectError(await svc.call(`/v1/network/http-check?url=${target}`, { headers: { authorization: "Basic abc" } }), 401, "unauthorized")
    await expectError(await svc.call(`/v1/network/http-check?url=${target}`, { key: "di_0000000000000000_" + "A".repeat(43) }), 401, "unauthorized")
    const { key } = await svc.newKey()
    // right id, wrong secret
    const forged = key.slice(0, key.lastIndexOf("_") + 1) + "B".repeat(43)
    await expectError(await svc.call(`/v1/network/http-check?url=${target}`, { key: forged }), 401, "unauthorized")
  })

  test("a valid key is accepted; the response carries request id and quota headers", async () => {
    const { key } = await svc.newKey("free")
    const res = await svc.call(`/v1/network/http-check?url=${target}`, { key })
    expect(res.status).toBe(200)
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000")
    expect(res.headers.get("x-ratelimit-remaining")).toBe("999")
  })

  test("auth is checked before validation: bad input without a key is 401", async () => {
    await expectError(await svc.call(`/v1/network/http-check?timeout=1`), 401, "unauthorized")
  })

  test("keys are stored only as hashes", async () => {
    const { key } = await svc.newKey()
    const rows = await svc.sql<{ secret_hash: string }>("SELECT secret_hash FROM api_keys")
    // di_<id>_<secret>; the base64url secret may itself contain "_".
    const secret = key.split("_").slice(2).join("_")
    expect(secret.length).toBe(43)
    for (const r of rows) {
      expect(r.secret_hash).not.toContain(secret)
      expect(r.secret_hash).toMatch(/^[0-9a-f]{64}$/)
    }
  })

  test("unauthenticated endpoints: health, readiness, OpenAPI, docs; X-Request-Id everywhere", async () => {
    const h = await svc.call("/healthz")
    expect(h.status).toBe(200)
    expect(await h.json()).toEqual({ status: "ok" })
    expect(h.headers.get("x-request-id")).toBeTruthy()
    const r = await svc.call("/readyz")
    expect(await r.json()).toEqual({ status: "ready", database: "ok" })
    const spec = (await (await svc.call("/openapi.json")).json()) as any
    expect(spec.openapi).toMatch(/^3\./)
    expect(Object.keys(spec.paths)).toContain("/v1/network/http-check")
    const docs = await svc.call("/docs")
    expect(docs.status).toBe(200)
    expect(await docs.text()).toContain("<html")
  })

  test("unknown routes are 404 not_found in the envelope, with a request id", async () => {
    const res = await svc.call("/v1/nope")
    await expectError(res, 404, "not_found")
    expect(res.headers.get("x-request-id")).toBeTruthy()
  })

  test("a caller's X-Request-Id is echoed when well-formed", async () => {
    const res = await svc.call("/healthz", { headers: { "x-request-id": "abc-123" } })
    expect(res.headers.get("x-request-id")).toBe("abc-123")
    const bad = await svc.call("/healthz", { headers: { "x-request-id": "a b\tc" } })
    expect(bad.headers.get("x-request-id")).not.toBe("a b\tc")
  })
})

describe("plans", () => {
  test("plan order free < developer < pro < enterprise", () => {
    expect(planAllows("free", "free")).toBe(true)
    expect(planAllows("free", "developer")).toBe(false)
    expect(planAllows("developer", "pro")).toBe(false)
    expect(planAllows("pro", "developer")).toBe(true)
    expect(planAllows("enterprise", "pro")).toBe(true)
  })
})

describe("quota", () => {
  test("the month boundary helpers are UTC calendar months", () => {
    const t = Date.UTC(2026, 10, 22, 13, 5)
    expect(monthStart(t)).toBe(Date.UTC(2026, 10, 1))
    expect(nextMonthStart(t)).toBe(Date.UTC(2026, 11, 1))
    expect(nextMonthStart(Date.UTC(2026, 11, 31, 23))).toBe(Date.UTC(2027, 0, 1))
  })

  test("a used-up monthly quota is 429 quota_exceeded with Retry-After; refused calls do not count", async () => {
    const { key, orgId } = await svc.newKey("free")
    // 998 earlier requests this month, and some last month that must not count.
    const now = Date.now()
    await svc.sql("INSERT INTO quota_usage (org_id, month, used) VALUES (?, ?, 998), (?, ?, 700)", [
      orgId, monthStart(now), orgId, Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 1, 1)
    ])
    const ok1 = await svc.call(`/v1/network/http-check?url=${target}`, { key })
    expect(ok1.status).toBe(200)
    expect(ok1.headers.get("x-ratelimit-remaining")).toBe("1")
    // A 400 after authentication still counts.
    const bad = await svc.call(`/v1/network/http-check?url=${target}&timeout=1`, { key })
    expect(bad.status).toBe(400)
    expect(bad.headers.get("x-ratelimit-remaining")).toBe("0")
    const refused = await svc.call(`/v1/network/http-check?url=${target}`, { key })
    const body = await expectError(refused, 429, "quota_exceeded")
    expect(body.error.message).toContain("1000")
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((nextMonthStart(now) - now) / 1000) + 5)
    // still refused; the refusals are logged but do not count
    await expectError(await svc.call(`/v1/network/http-check?url=${target}`, { key }), 429, "quota_exceeded")
    await svc.flushLog()
    const counted = await svc.sql<{ used: number }>("SELECT used FROM quota_usage WHERE org_id = ? AND month = ?", [orgId, monthStart(now)])
    expect(counted[0].used).toBe(1000)
    const refusedRows = await svc.sql<{ n: number }>("SELECT COUNT(*) AS n FROM request_log WHERE org_id = ? AND status = 429", [orgId])
    expect(refusedRows[0].n).toBe(2)
  })
})

describe("audit tokens", () => {
  test("verify only for their domain and its subdomains", async () => {
    const { orgName } = await svc.newKey("developer")
    const token = await svc.auditToken(orgName, "Example.test")
    const verify = (d: string) => svc.run(Effect.flatMap(Keys, (k) => k.verifyAuditToken(token, d)))
    expect(await verify("example.test")).toBe(true)
    expect(await verify("www.example.test")).toBe(true)
    expect(await verify("badexample.test")).toBe(false)
    expect(await verify("other.test")).toBe(false)
    expect(await svc.run(Effect.flatMap(Keys, (k) => k.verifyAuditToken(token.slice(0, -1) + "x", "example.test")))).toBe(false)
  })
})
