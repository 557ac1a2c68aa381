/**
 * GET /v1/security/headers through the whole service: a free key, a real site on loopback
 * (http only: nothing listens on 127.0.0.1:443 here), the error shapes, the metering category.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../../support/service"

let svc: TestService
let site: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      req.method === "OPTIONS"
        ? new Response(null, { status: 204, headers: { "Access-Control-Allow-Origin": req.headers.get("origin") ?? "", "Access-Control-Allow-Credentials": "true" } })
        : new Response("<!doctype html><title>x</title><script src='http://cdn.example/a.js'></script>", {
          headers: { "Content-Type": "text/html", "X-Content-Type-Options": "nosniff", "Set-Cookie": "sessionid=1", "Permissions-Policy": "camera=(), geolocation=()" }
        })
  })
  svc = await startService()
})
afterAll(async () => {
  site.stop(true)
  await svc.stop()
})

describe("GET /v1/security/headers", () => {
  test("grades a site on the free plan, with every test, its fix and the extras", async () => {
    const { key } = await svc.newKey("free")
    const res = await svc.call(`/v1/security/headers?url=${encodeURIComponent(`http://127.0.0.1:${site.port}/`)}`, { key })
    expect(res.status).toBe(200)
    const body = await res.json() as any
    expect(body).toMatchObject({ url: `http://127.0.0.1:${site.port}/`, final_url: `http://127.0.0.1:${site.port}/`, grade: "F", score: 0, tests_quantity: 10 })
    expect(body.tests_passed + body.tests_failed).toBe(10)
    expect(body.tests["strict-transport-security"]).toMatchObject({ pass: false, result: "hsts-not-implemented-no-https", score_modifier: -20 })
    expect(body.tests["cross-origin-resource-sharing"].result).toBe("cross-origin-resource-sharing-implemented-with-universal-access")
    expect(body.tests["subresource-integrity"].result).toBe("sri-not-implemented-and-external-scripts-not-loaded-securely")
    expect(body.tests.cookies.result).toBe("cookies-session-without-secure-flag")
    expect(body.tests.cookies.recommendation).toContain("Secure")
    expect(body.tests["x-content-type-options"]).toMatchObject({ pass: true, recommendation: "" })
    expect(body.extras.permissions_policy).toEqual({ present: true, value: "camera=(), geolocation=()", features: ["camera", "geolocation"] })
    expect(body.extras.security_txt.present).toBe(false)
    await svc.flushLog()
    const usage = await (await svc.call("/v1/analytics/usage?period=current", { key })).json() as any
    expect(usage.by_category.security).toBe(1)
  })

  test("bad input and unreachable sites get the error envelope", async () => {
    const { key } = await svc.newKey("free")
    const ftp = await svc.call(`/v1/security/headers?url=${encodeURIComponent("ftp://example.com/")}`, { key })
    expect(ftp.status).toBe(400)
    expect((await ftp.json() as any).error.code).toBe("target_forbidden")
    const missing = await svc.call(`/v1/security/headers`, { key })
    expect(missing.status).toBe(400)
    expect((await missing.json() as any).error.code).toBe("invalid_request")
    const down = await svc.call(`/v1/security/headers?url=${encodeURIComponent("http://127.0.0.1:9/")}`, { key })
    expect(down.status).toBe(502)
    expect((await down.json() as any).error).toMatchObject({ code: "upstream_unavailable" })
    const anon = await svc.call(`/v1/security/headers?url=example.com`)
    expect(anon.status).toBe(401)
  })

  test("a private target is refused unless private targets are allowed", async () => {
    const strict = await startService({ allowPrivateTargets: false })
    try {
      const { key } = await strict.newKey("free")
      const res = await strict.call(`/v1/security/headers?url=${encodeURIComponent(`http://127.0.0.1:${site.port}/`)}`, { key })
      expect(res.status).toBe(400)
      expect((await res.json() as any).error.code).toBe("target_forbidden")
    } finally {
      await strict.stop()
    }
  })
})
