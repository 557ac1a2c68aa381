/**
 * HTTP Uptime Check end to end: the real service against real Bun HTTP/HTTPS servers on
 * loopback (certificates made by the test), every field and every error of the check.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import * as net from "node:net"
import * as tls from "node:tls"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { startService, type TestService } from "../support/service"
import { makePki } from "../support/tls"

const pki = makePki()
const trusted = pki.leaf(["localhost", "127.0.0.1"])
const untrusted = pki.selfSigned(["localhost", "127.0.0.1"])

let svc: TestService
let key: string
let origin: ReturnType<typeof Bun.serve>
let tlsOrigin: ReturnType<typeof Bun.serve>
let badTls: ReturnType<typeof Bun.serve>
let silent: net.Server
let silentTls: tls.Server
const silentSockets: Array<net.Socket> = []
const seen: Array<Headers> = []

const securityHeaders = {
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "content-security-policy": "default-src 'self'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "permissions-policy": "geolocation=()",
  "cross-origin-resource-policy": "same-origin",
  "alt-svc": 'h3=":443"; ma=86400, h3-29=":443", h2=":443"',
  "cache-control": "public, max-age=60"
}

beforeAll(async () => {
  origin = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url)
      const self = `http://127.0.0.1:${origin.port}`
      switch (url.pathname) {
        case "/ok":
          return new Response("x".repeat(1234), { headers: { ...securityHeaders, server: "test-origin", "content-type": "text/plain" } })
        case "/r1":
          return new Response(null, { status: 301, headers: { location: "/r2" } })
        case "/r2":
          return new Response(null, { status: 302, headers: { location: `${self}/ok` } })
        case "/loop":
          return new Response(null, { status: 302, headers: { location: "/loop" } })
        case "/bad-location":
          return new Response(null, { status: 302, headers: { location: "http://[not-a-host" } })
        case "/to-metadata":
          return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } })
        case "/to-ftp":
          return new Response(null, { status: 302, headers: { location: "ftp://127.0.0.1/" } })
        case "/missing":
          return new Response("nope", { status: 404 })
        case "/error":
          return new Response("boom", { status: 503 })
        case "/endless":
          return new Response(
            new ReadableStream({
              pull(controller) {
                controller.enqueue(new Uint8Array(64 * 1024))
              }
            }),
            { headers: { "content-type": "application/octet-stream" } }
          )
        case "/echo-headers":
          seen.push(req.headers)
          return Response.json(Object.fromEntries(req.headers))
        default:
          return new Response("not found", { status: 404 })
      }
    }
  })
  tlsOrigin = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: trusted.cert, key: trusted.key },
    fetch: () => new Response("secure", { headers: securityHeaders })
  })
  badTls = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: untrusted.cert, key: untrusted.key },
    fetch: () => new Response("untrusted")
  })
  // Accepts connections and never answers.
  silent = net.createServer((s) => { silentSockets.push(s) })
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()))
  // Completes the TLS handshake and never answers.
  silentTls = tls.createServer({ cert: trusted.cert, key: trusted.key }, (s) => { silentSockets.push(s) })
  await new Promise<void>((r) => silentTls.listen(0, "127.0.0.1", () => r()))

  const caPath = join(pki.dir, "trust.pem")
  writeFileSync(caPath, pki.caCert)
  svc = await startService({ extraCaCerts: { _tag: "Some", value: caPath } as any })
  key = (await svc.newKey("free")).key
})

afterAll(async () => {
  origin?.stop(true)
  tlsOrigin?.stop(true)
  badTls?.stop(true)
  for (const s of silentSockets) s.destroy()
  silent?.close()
  silentTls?.close()
  await svc?.stop()
})

const check = async (params: Record<string, string>) => {
  const res = await svc.call(`/v1/network/http-check?${new URLSearchParams(params)}`, { key })
  return { res, body: (await res.json()) as any }
}

describe("http-check", () => {
  test("HEAD reports status, headers, security summary, Alt-Svc and the Content-Length value", async () => {
    const url = `http://127.0.0.1:${origin.port}/ok`
    const { res, body } = await check({ url })
    expect(res.status).toBe(200)
    expect(body.url).toBe(url)
    expect(body.final_url).toBe(url)
    expect(body.method).toBe("HEAD")
    expect(body.status).toEqual({ code: 200, ok: true, text: "OK" })
    expect(body.content_length_bytes).toBe(1234)
    expect(body.headers.server).toBe("test-origin")
    expect(body.headers.content_type).toBe("text/plain")
    expect(body.headers.strict_transport_security).toBe(securityHeaders["strict-transport-security"])
    expect(body.headers.cross_origin_resource_policy).toBe("same-origin")
    expect(body.headers.cache_control).toBe("public, max-age=60")
    // Plain http: the STS header is reported (hsts_max_age) but not in effect (RFC 6797 §8.1),
    // the same judgement security_headers makes (src/analyses/network/hsts.ts).
    expect(body.security_summary).toEqual({
      hsts_enabled: false,
      hsts_max_age: 31536000,
      csp_enabled: true,
      x_content_type_options_nosniff: true,
      x_frame_options_enabled: true,
      referrer_policy_set: true
    })
    expect(body.advertised_http_versions).toEqual(["h3", "h2"])
    expect(body.redirects).toEqual([])
    expect(body.ssl.verified).toBeNull()
    expect(body.error).toBeNull()
    expect(typeof body.timings.total_ms).toBe("number")
    expect(body.timings.total_ms).toBeGreaterThan(0)
    expect(Number.isNaN(Date.parse(body.checked_at))).toBe(false)
  })

  test("GET measures the downloaded bytes", async () => {
    const { body } = await check({ url: `http://127.0.0.1:${origin.port}/ok`, method: "GET" })
    expect(body.method).toBe("GET")
    expect(body.content_length_bytes).toBe(1234)
  })

  test("a bare host gets http:// prepended", async () => {
    const { body } = await check({ url: `127.0.0.1:${origin.port}/ok` })
    expect(body.url).toBe(`http://127.0.0.1:${origin.port}/ok`)
    expect(body.status.code).toBe(200)
  })

  test("the edge cache is bypassed with no-cache request headers", async () => {
    seen.length = 0
    const { body } = await check({ url: `http://127.0.0.1:${origin.port}/echo-headers`, method: "GET" })
    expect(body.status.code).toBe(200)
    expect(seen.length).toBe(1)
    expect(seen[0].get("cache-control")).toContain("no-cache")
    expect(seen[0].get("pragma")).toBe("no-cache")
  })

  test("follows a redirect chain and times each hop", async () => {
    const { body } = await check({ url: `http://127.0.0.1:${origin.port}/r1` })
    expect(body.final_url).toBe(`http://127.0.0.1:${origin.port}/ok`)
    expect(body.status.code).toBe(200)
    expect(body.redirects.map((r: any) => [r.from, r.to, r.status])).toEqual([
      [`http://127.0.0.1:${origin.port}/r1`, `http://127.0.0.1:${origin.port}/r2`, 301],
      [`http://127.0.0.1:${origin.port}/r2`, `http://127.0.0.1:${origin.port}/ok`, 302]
    ])
    for (const r of body.redirects) expect(typeof r.time_ms).toBe("number")
  })

  test("follow_redirects=false returns the first redirect as is", async () => {
    const { body } = await check({ url: `http://127.0.0.1:${origin.port}/r1`, follow_redirects: "false" })
    expect(body.status.code).toBe(301)
    expect(body.status.ok).toBe(false)
    expect(body.final_url).toBe(`http://127.0.0.1:${origin.port}/r1`)
    expect(body.redirects).toEqual([])
    expect(body.error).toBeNull()
  })

  test("a redirect loop stops at max_redirects", async () => {
    const { res, body } = await check({ url: `http://127.0.0.1:${origin.port}/loop`, max_redirects: "3" })
    expect(res.status).toBe(200)
    expect(body.error).toBe("too_many_redirects")
    expect(body.redirects.length).toBe(4)
    expect(body.status.code).toBe(302)
  })

  test("a Location that is not a URL is invalid_redirect_location", async () => {
    const { body } = await check({ url: `http://127.0.0.1:${origin.port}/bad-location` })
    expect(body.error).toBe("invalid_redirect_location")
    expect(body.status.code).toBe(302)
  })

  test("a redirect to a cloud metadata address is refused in the body, not followed", async () => {
    const { res, body } = await check({ url: `http://127.0.0.1:${origin.port}/to-metadata` })
    expect(res.status).toBe(200)
    expect(body.error).toBe("target_forbidden")
    expect(body.final_url).toBe(`http://127.0.0.1:${origin.port}/to-metadata`)
  })

  test("a redirect to a non-http scheme is refused", async () => {
    const { body } = await check({ url: `http://127.0.0.1:${origin.port}/to-ftp` })
    expect(body.error).toBe("target_forbidden")
  })

  test("non-2xx statuses are reported in the body", async () => {
    const a = await check({ url: `http://127.0.0.1:${origin.port}/missing` })
    expect(a.res.status).toBe(200)
    expect(a.body.status).toMatchObject({ code: 404, ok: false })
    const b = await check({ url: `http://127.0.0.1:${origin.port}/error`, method: "GET" })
    expect(b.body.status).toMatchObject({ code: 503, ok: false })
    expect(b.body.error).toBeNull()
  })

  test("a server that never answers is a timeout within the requested limit", async () => {
    const { res, body } = await check({ url: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/`, timeout: "1000" })
    expect(res.status).toBe(200)
    expect(body.error).toBe("timeout")
    expect(body.status.code).toBeNull()
    expect(body.status.ok).toBe(false)
    // The connection was made: its time is reported, as curl's time_connect is; no first byte.
    expect(body.timings.connect_ms).toBeGreaterThanOrEqual(0)
    expect(body.timings.connect_ms).toBeLessThan(body.timings.total_ms)
    expect(body.timings.tls_ms).toBeNull()
    expect(body.timings.ttfb_ms).toBeNull()
    expect(body.timings.total_ms).toBeGreaterThanOrEqual(1000)
  })

  test("a TLS server that never answers after its handshake: connect and TLS times, no first byte", async () => {
    const { body } = await check({ url: `https://127.0.0.1:${(silentTls.address() as net.AddressInfo).port}/`, timeout: "1000" })
    expect(body.error).toBe("timeout")
    expect(body.status.code).toBeNull()
    expect(body.timings.connect_ms).toBeGreaterThanOrEqual(0)
    expect(body.timings.tls_ms).toBeGreaterThan(0)
    expect(body.timings.connect_ms + body.timings.tls_ms).toBeLessThan(body.timings.total_ms)
    expect(body.timings.ttfb_ms).toBeNull()
  })

  test("a refused connection is fetch_failed with the underlying message", async () => {
    const port = await new Promise<number>((r) => {
      const s = net.createServer()
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port
        s.close(() => r(p))
      })
    })
    const { body } = await check({ url: `http://127.0.0.1:${port}/` })
    expect(body.error).toBe("fetch_failed")
    expect(body.error_detail).toContain("ECONNREFUSED")
    expect(body.status.code).toBeNull()
    expect(body.timings.connect_ms).toBeNull()
  })

  test("an endless body is capped, not buffered", async () => {
    const { body } = await check({ url: `http://127.0.0.1:${origin.port}/endless`, method: "GET", timeout: "20000" })
    expect(body.status.code).toBe(200)
    expect(body.body_truncated).toBe(true)
    expect(body.content_length_bytes).toBe(10 * 1024 * 1024)
  })

  test("https with a certificate from the trusted CA: ssl.verified true", async () => {
    const { body } = await check({ url: `https://localhost:${tlsOrigin.port}/` })
    expect(body.status.code).toBe(200)
    expect(body.ssl.verified).toBe(true)
    expect(body.ssl.error).toBeNull()
    expect(body.ssl.protocol).toMatch(/TLS/)
    expect(typeof body.timings.tls_ms).toBe("number")
  })

  test("https with an untrusted certificate: ssl.verified false with the reason", async () => {
    const { body } = await check({ url: `https://localhost:${badTls.port}/` })
    expect(body.ssl.verified).toBe(false)
    expect(typeof body.ssl.error).toBe("string")
  })

  test("https with a valid certificate for another name: ssl.verified false", async () => {
    const other = pki.leaf(["other.example"])
    const srv = Bun.serve({ port: 0, hostname: "127.0.0.1", tls: { cert: other.cert, key: other.key }, fetch: () => new Response("x") })
    try {
      const { body } = await check({ url: `https://localhost:${srv.port}/` })
      expect(body.ssl.verified).toBe(false)
      expect(body.ssl.error).toContain("not valid for localhost")
    } finally {
      srv.stop(true)
    }
  })

  test("invalid parameters are 400 invalid_request in the error envelope", async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { url: "http://127.0.0.1/", method: "POST" },
      { url: "http://127.0.0.1/", timeout: "999" },
      { url: "http://127.0.0.1/", timeout: "30001" },
      { url: "http://127.0.0.1/", timeout: "abc" },
      { url: "http://127.0.0.1/", max_redirects: "11" },
      { url: "http://127.0.0.1/", max_redirects: "-1" },
      { url: "http://127.0.0.1/", follow_redirects: "maybe" },
      { url: "http://exa mple.com/" }
    ]
    for (const params of cases) {
      const { res, body } = await check(params)
      expect(res.status).toBe(400)
      expect(body.error.code).toBe("invalid_request")
      expect(typeof body.error.message).toBe("string")
    }
  })
})

describe("validation messages", () => {
  test("an enum parameter's alternatives are named once", async () => {
    const res = await svc.call(`/v1/network/http-check?url=http://127.0.0.1/&method=PUT`, { key })
    expect(res.status).toBe(400)
    const body = (await res.json()) as any
    expect(body.error.details.issues).toHaveLength(1)
    expect(body.error.details.issues[0].path).toBe("method")
    expect(body.error.message).toContain("method")
  })
  test("a missing required parameter is named", async () => {
    const res = await svc.call(`/v1/network/http-check`, { key })
    const body = (await res.json()) as any
    expect(res.status).toBe(400)
    expect(body.error.details.issues.map((i: any) => i.path)).toEqual(["url"])
  })
})

describe("raw query strings", () => {
  test("an unencoded url parameter keeps its // (scheme and path)", async () => {
    const raw = `http://127.0.0.1:${origin.port}//echo-headers`
    seen.length = 0
    const res = await fetch(`${svc.baseUrl}/v1/network/http-check?url=${raw}&method=GET`, { headers: { authorization: `Bearer ${key}` } })
    const body = (await res.json()) as any
    expect(body.url).toBe(raw)
  })
})
