/**
 * Operating it (docs/operating.md, "Metrics", "Access log", "CORS"): /metrics in the Prometheus
 * text format (checked by Debian's `promtool check metrics`), METRICS_TOKEN, CORS_ORIGINS; the
 * access log of a real `serve` process and LOG_ACCESS=false.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { Redacted, Option } from "effect"
import { resolve } from "node:path"
import { Effect } from "effect"
import { exchange } from "../../src/adapters/dns/DnsResolver"
import { exposition, recordOutbound } from "../../src/platform/observability/metrics"
import { type FakeCrtSh, makeRows, startCrtSh } from "../ct/crtsh"
import { startServe, until } from "../support/process"
import { startService, type TestService } from "../support/service"

const root = resolve(import.meta.dir, "../..")
let open: TestService
let locked: TestService
let origin: ReturnType<typeof Bun.serve>
let crt: FakeCrtSh

beforeAll(async () => {
  origin = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") })
  crt = startCrtSh()
  crt.set("metrics.test", { kind: "rows", rows: makeRows("metrics.test", 2) })
  open = await startService({ corsOrigins: ["https://console.example", "http://localhost:3000"], ctAggregatorUrl: crt.url })
  locked = await startService({ metricsToken: Option.some(Redacted.make("s3cret-metrics")) })
})
afterAll(async () => {
  origin?.stop(true)
  await crt?.stop()
  await open?.stop()
  await locked?.stop()
})

const promtool = (text: string) => spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" })

describe("/metrics", () => {
  test("Prometheus text that promtool accepts, with the documented series and no organization label", async () => {
    const { key, orgName } = await open.newKey("pro")
    await open.call(`/v1/network/http-check?url=${encodeURIComponent(`http://127.0.0.1:${origin.port}/`)}`, { key })
    await open.call("/v1/account", { key })
    await open.call("/v1/account")
    recordOutbound("dns", "timeout")
    // A CT page: a miss, then the same page from the cache.
    for (let i = 0; i < 2; i++) expect((await open.call("/v1/domain/ct-logs?domain=metrics.test", { key })).status).toBe(200)
    const res = await open.call("/metrics")
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toContain("text/plain")
    const text = await res.text()
    const check = promtool(text)
    expect(check.stderr + check.stdout).toBe("")
    expect(check.status).toBe(0)
    expect(text).toMatch(/^domain_intel_requests_total\{operation="account",status="200"\} \d+$/m)
    expect(text).toMatch(/^domain_intel_requests_total\{operation="account",status="401"\} \d+$/m)
    expect(text).toMatch(/^domain_intel_requests_total\{operation="httpCheck",status="200"\} \d+$/m)
    expect(text).toMatch(/^domain_intel_request_duration_seconds_bucket\{le="\+Inf",operation="account"\} \d+$/m)
    expect(text).toMatch(/^domain_intel_request_duration_seconds_count\{operation="httpCheck"\} \d+$/m)
    expect(text).toMatch(/^domain_intel_outbound_requests_total\{kind="dns",outcome="timeout"\} \d+$/m)
    // The http-check above went out through HttpProbe.
    expect(text).toMatch(/^domain_intel_outbound_requests_total\{kind="http",outcome="ok"\} [1-9]\d*$/m)
    expect(text).toMatch(/^domain_intel_cache_total\{cache="ctLogs",result="miss"\} [1-9]\d*$/m)
    expect(text).toMatch(/^domain_intel_cache_total\{cache="ctLogs",result="hit"\} [1-9]\d*$/m)
    expect(text).toMatch(/^domain_intel_outbound_requests_total\{kind="ct",outcome="ok"\} [1-9]\d*$/m)
    expect(text).toContain("# TYPE domain_intel_request_duration_seconds histogram")
    expect(text).not.toContain(orgName)
    expect(text).not.toMatch(/\borg(anization)?(_id)?="/)
    expect(text).not.toContain(key)
  })

  test("outbound DNS queries are counted by outcome", async () => {
    const count = async () => {
      const text = (await exposition()).text
      return ["ok", "error", "timeout"].reduce((n, o) => n + Number(new RegExp(`^domain_intel_outbound_requests_total\\{kind="dns",outcome="${o}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0), 0)
    }
    const before = await count()
    // Nothing listens on the discard port: the query fails or times out, and is counted either way.
    await Effect.runPromise(Effect.either(exchange({ name: "count.test", type: "A" }, { host: "127.0.0.1", port: 9 }, 300)))
    expect(await count()).toBe(before + 1)
  })

  test("a sample with a broken format is what promtool refuses (the check can fail)", () => {
    expect(promtool("# TYPE x counter\nx{a=\"1\" 2\n").status).not.toBe(0)
  })

  test("METRICS_TOKEN: a bearer token is required, compared exactly", async () => {
    const none = await locked.call("/metrics")
    expect(none.status).toBe(401)
    expect(((await none.json()) as any).error.code).toBe("unauthorized")
    expect((await locked.call("/metrics", { key: "wrong" })).status).toBe(401)
    expect((await locked.call("/metrics", { key: "s3cret-metrics-and-more" })).status).toBe(401)
    const ok = await locked.call("/metrics", { key: "s3cret-metrics" })
    expect(ok.status).toBe(200)
    expect(await ok.text()).toContain("domain_intel_requests_total")
  })
})

describe("CORS_ORIGINS", () => {
  test("an allowed origin gets its origin back and the tracking headers exposed, errors included", async () => {
    const { key } = await open.newKey("free")
    const res = await open.call("/v1/account", { key, headers: { origin: "https://console.example" } })
    expect(res.status).toBe(200)
    expect(res.headers.get("access-control-allow-origin")).toBe("https://console.example")
    expect(res.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining")
    expect(res.headers.get("vary")).toContain("Origin")
    const denied = await open.call("/v1/account", { headers: { origin: "http://localhost:3000" } })
    expect(denied.status).toBe(401)
    expect(denied.headers.get("access-control-allow-origin")).toBe("http://localhost:3000")
  })

  test("a preflight from an allowed origin is 204 with the allowed methods and headers, not metered", async () => {
    const res = await open.call("/v1/alerts/rules", {
      method: "OPTIONS",
      headers: { origin: "https://console.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" }
    })
    expect(res.status).toBe(204)
    expect(res.headers.get("access-control-allow-origin")).toBe("https://console.example")
    expect(res.headers.get("access-control-allow-methods")).toContain("POST")
    expect(res.headers.get("access-control-allow-headers")).toBe("authorization, content-type")
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0)
  })

  test("another origin, or no CORS_ORIGINS at all, gets no CORS header", async () => {
    const other = await open.call("/healthz", { headers: { origin: "https://evil.example" } })
    expect(other.headers.get("access-control-allow-origin")).toBeNull()
    const pre = await open.call("/v1/account", { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "GET" } })
    expect(pre.headers.get("access-control-allow-origin")).toBeNull()
    const unset = await locked.call("/healthz", { headers: { origin: "https://console.example" } })
    expect(unset.headers.get("access-control-allow-origin")).toBeNull()
  })
})

describe("access log", () => {
  const serve = (extra: Record<string, string>) =>
    startServe(process.execPath, ["src/main.ts", "serve"], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: "sqlite::memory:", ALLOW_PRIVATE_TARGETS: "true", ...extra }
    })

  test("one JSON line per request on stderr with the documented fields, never the key", async () => {
    const s = await serve({})
    let stderr = ""
    s.child.stderr!.on("data", (d) => (stderr += d))
    try {
      const key = await until(() => s.stdout().match(/^di_\S+$/m)?.[0], "bootstrap key")
      await fetch(`http://127.0.0.1:${s.port}/v1/account?x=1`, { headers: { authorization: `Bearer ${key}`, "x-request-id": "req-abc-1" } })
      await fetch(`http://127.0.0.1:${s.port}/v1/account`, { headers: { authorization: `Bearer ${key}x` } })
      await fetch(`http://127.0.0.1:${s.port}/healthz`)
      const lines = await until(() => {
        const l = stderr.split("\n").filter((x) => x.includes('"message":"request"')).map((x) => JSON.parse(x))
        return l.length >= 3 ? l : undefined
      }, "three access-log lines")
      const ok = lines.find((l) => l.request_id === "req-abc-1")
      expect(ok).toMatchObject({ message: "request", org: "default", operation: "account", method: "GET", path: "/v1/account", status: 200 })
      expect(ok.duration_ms).toBeNumber()
      expect(lines.find((l) => l.status === 401)).toMatchObject({ org: null, operation: "account" })
      expect(lines.find((l) => l.path === "/healthz")).toMatchObject({ status: 200 })
      expect(stderr).not.toContain(key.replace(/^di_[0-9a-f]{16}_/, ""))
    } finally {
      s.child.kill("SIGKILL")
    }
  })

  test("LOG_ACCESS=false silences it", async () => {
    const s = await serve({ LOG_ACCESS: "false" })
    let stderr = ""
    s.child.stderr!.on("data", (d) => (stderr += d))
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`http://127.0.0.1:${s.port}/healthz`)).status).toBe(200)
      await Bun.sleep(200)
      expect(stderr).not.toContain('"message":"request"')
    } finally {
      s.child.kill("SIGKILL")
    }
  })
})
