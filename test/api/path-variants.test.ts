/**
 * No spelling of a path reaches an operation without its plan check (docs/conventions.md, "Paths"):
 * a free key against every developer/pro operation (MCP included), every method and every
 * variant of the path (upper case, percent-encoded letters, `;params`, double and trailing
 * slashes, `/v1//…`) is 404 not_found: only the exact spelling is served, and then with the plan
 * check (403); another method on the exact path is 405.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Api } from "../../src/surfaces/api/Api"
import { rawRoutes } from "../../src/surfaces/server/Http"
import { makeOperations } from "../../src/platform/http/Operation"
import { rawRequest } from "../support/raw"
import { startService, type TestService } from "../support/service"

let svc: TestService
let freeKey: string
let freeOrg: string

beforeAll(async () => {
  svc = await startService()
  const k = await svc.newKey("free")
  freeKey = k.key
  freeOrg = k.orgId
})
afterAll(() => svc?.stop())

const operations = makeOperations(Api, rawRoutes).all
const gated = operations.filter((o) => o.plan !== undefined && o.plan !== "free")

/** The declared path with its parameters filled in. */
const concrete = (path: string) => path.replace(/:(\w+)/g, "x1")

/** Every other spelling of the declared `path` (parameters filled in) the router must not fold onto it. */
export const variants = (declared: string): Array<string> => {
  const segments = concrete(declared).split("/") // ["", "v1", "alerts", "rules", "x1"]
  // Respell literal segments only: a parameter's value is the caller's to choose.
  const literals = declared.split("/").map((s, i) => (s !== "" && !s.startsWith(":") ? i : -1)).filter((i) => i > 0)
  const last = literals[literals.length - 1]
  const encodeFirst = (s: string) => `%${s.charCodeAt(0).toString(16)}${s.slice(1)}`
  const withSegment = (i: number, f: (s: string) => string) => segments.map((s, j) => (j === i ? f(s) : s)).join("/")
  const path = segments.join("/")
  return [
    path.toUpperCase(),
    path.replace("/v1/", "/V1/"),
    withSegment(last, (s) => s.toUpperCase()),
    withSegment(last, (s) => s[0].toUpperCase() + s.slice(1)),
    withSegment(2, encodeFirst),
    withSegment(last, encodeFirst),
    withSegment(1, encodeFirst), // /%761/...
    withSegment(last, (s) => s.replace(/[a-z]$/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)),
    `${path};x`,
    `${path};jsessionid=1`,
    withSegment(2, (s) => `${s};p=1`),
    path.replace("/v1/", "/v1//"),
    `/${path}`,
    `${path}/`,
    `${path}//`,
    withSegment(2, (s) => `${s}/`)
  ]
}

const methods = ["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD"] as const

describe("path variants with a free key", () => {
  test("the inventory covers every gated operation, MCP included", () => {
    expect(gated.length).toBeGreaterThan(10)
    expect(gated.map((o) => o.operation)).toContain("mcpServer")
    expect(gated.map((o) => o.operation)).toContain("performanceMetrics")
    expect(gated.map((o) => o.operation)).toContain("createAlertRule")
  })

  test("the exact path is served with the plan check: 403 plan_forbidden", async () => {
    for (const op of gated) {
      const init: RequestInit = op.method === "GET" ? {} : { body: "{}", headers: { "content-type": "application/json" } }
      const res = await svc.call(concrete(op.path) + (op.method === "GET" ? "?domain=example.com" : ""), { ...init, method: op.method, key: freeKey })
      expect({ op: op.operation, status: res.status }).toEqual({ op: op.operation, status: 403 })
      expect(((await res.json()) as any).error.code).toBe("plan_forbidden")
    }
  })

  test("every variant, every method: 404 not_found, never served", async () => {
    for (const op of gated) {
      for (const path of variants(op.path)) {
        for (const method of methods) {
          const body = method === "GET" || method === "HEAD" ? undefined : "{}"
          // Raw requests: fetch would normalize some spellings (a leading "//") before sending.
          const res = await rawRequest(svc.port, method, `${path}?domain=example.com&url=http://127.0.0.1:9/`, {
            headers: { authorization: `Bearer ${freeKey}`, ...(body ? { "content-type": "application/json" } : {}) },
            body
          })
          expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 })
          if (method !== "HEAD") expect(JSON.parse(res.body).error.code).toBe("not_found")
        }
      }
    }
  })

  test("the exact path with another method: 405 with Allow, never served", async () => {
    for (const op of gated) {
      const declared = operations.filter((o) => concrete(o.path) === concrete(op.path)).map((o) => o.method)
      for (const method of methods.filter((m) => !declared.includes(m) && !(m === "HEAD" && declared.includes("GET")))) {
        const res = await svc.call(concrete(op.path), { method, key: freeKey })
        expect({ method, path: op.path, status: res.status }).toEqual({ method, path: op.path, status: 405 })
        const allow = (res.headers.get("allow") ?? "").split(", ")
        for (const m of declared) expect(allow).toContain(m)
      }
    }
  })

  test("nothing a free key sent reached a gated operation: every logged request was refused", async () => {
    await svc.flushLog()
    const rows = await svc.sql<{ status: number; operation: string }>(
      "SELECT status, operation FROM request_log WHERE org_id = ?",
      [freeOrg]
    )
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows) expect({ op: r.operation, status: r.status }).toEqual({ op: r.operation, status: 403 })
  })
})
