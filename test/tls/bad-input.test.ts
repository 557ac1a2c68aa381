/**
 * GET /v1/security/tls on what is not a TLS server, and on bad parameters: a clear 4xx/502 in the
 * error envelope within the deadline, never a hang or a 500. The hostile peers are real loopback
 * sockets (Bun servers) doing what such services do.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import * as net from "node:net"
import { startService, type TestService } from "../support/service"

let svc: TestService
let key: string
const closers: Array<() => void> = []

/** A TCP server whose connection handler does `onConn`; returns its port. */
const tcp = async (onConn: (s: net.Socket) => void): Promise<number> => {
  const server = net.createServer(onConn)
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  closers.push(() => server.close())
  return (server.address() as net.AddressInfo).port
}

beforeAll(async () => {
  // A short deadline so the silent port answers quickly; the scan keeps a margin inside it.
  svc = await startService({ operationDeadlineMs: 6000 })
  key = (await svc.newKey("developer")).key
})
afterAll(async () => {
  for (const c of closers) c()
  await svc?.stop()
})

const get = async (query: string, k = key) => {
  const t0 = performance.now()
  const res = await svc.call(`/v1/security/tls?${query}`, { key: k })
  return { status: res.status, body: await res.json() as any, ms: performance.now() - t0 }
}

describe("not a TLS service: 502 upstream_unavailable saying why", () => {
  test("a closed port", async () => {
    const port = await tcp(() => {})
    closers.pop()!()
    await Bun.sleep(20)
    const r = await get(`host=127.0.0.1&port=${port}`)
    expect(r.status).toBe(502)
    expect(r.body.error.code).toBe("upstream_unavailable")
    expect(r.body.error.message).toContain("ECONNREFUSED")
  })

  test("a silent port: answered within the deadline", async () => {
    const port = await tcp(() => {})
    const r = await get(`host=127.0.0.1&port=${port}`)
    expect(r.status).toBe(502)
    expect(r.body.error.message).toMatch(/no answer within \d+ ms/)
    expect(r.ms).toBeLessThan(6000)
  }, 15_000)

  test("an HTTP server", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("plain http") })
    closers.push(() => server.stop(true))
    const r = await get(`host=127.0.0.1&port=${server.port}`)
    expect(r.status).toBe(502)
    expect(r.body.error.message).toContain("HTTP, not TLS")
  })

  test("an SMTP banner without STARTTLS", async () => {
    const port = await tcp((s) => s.write("220 mail.example ESMTP ready\r\n"))
    const r = await get(`host=127.0.0.1&port=${port}`)
    expect(r.status).toBe(502)
    expect(r.body.error.message).toContain("text banner")
    expect(r.body.error.message).toContain("220 mail.example")
  })

  test("garbage bytes", async () => {
    const port = await tcp((s) => s.on("data", () => s.write(Buffer.from([0x8f, 0x00, 0x13, 0x37, 0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3]))))
    const r = await get(`host=127.0.0.1&port=${port}`)
    expect(r.status).toBe(502)
    expect(r.body.error.message).toContain("not TLS records")
  })

  test("a reset in the middle of the handshake", async () => {
    // The start of a handshake record (type 22, TLS 1.2, 100 bytes announced), then a TCP reset.
    const port = await tcp((s) => s.on("data", () => {
      s.write(Buffer.from([22, 3, 3, 0, 100, 2, 0, 0]), () => s.resetAndDestroy())
    }))
    const r = await get(`host=127.0.0.1&port=${port}`)
    expect(r.status).toBe(502)
    expect(r.body.error.message).toMatch(/reset|closed the connection/)
  })
})

describe("bad parameters: 400 in the error envelope", () => {
  for (const [what, query] of [
    ["no host", "port=443"],
    ["a URL", "host=https://example.com/"],
    ["a host with a port", "host=example.com:443"],
    ["a path", "host=example.com/x"],
    ["port 0", "host=example.com&port=0"],
    ["port 65536", "host=example.com&port=65536"],
    ["a port that is not a number", "host=example.com&port=https"]
  ] as const) {
    test(what, async () => {
      const r = await get(query)
      expect(r.status).toBe(400)
      expect(r.body.error.code).toBe("invalid_request")
    })
  }

  test("a cloud metadata address is refused by the guard", async () => {
    const r = await get("host=169.254.169.254")
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("target_forbidden")
  })

  test("the free plan may not call it", async () => {
    const free = (await svc.newKey("free")).key
    const r = await get("host=127.0.0.1&port=1", free)
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe("plan_forbidden")
  })
})

describe("private targets without ALLOW_PRIVATE_TARGETS", () => {
  test("loopback in any spelling is target_forbidden", async () => {
    const strict = await startService({ allowPrivateTargets: false })
    try {
      const k = (await strict.newKey("developer")).key
      for (const host of ["127.0.0.1", "localhost", "0x7f000001", "[::1]", "::ffff:127.0.0.1"]) {
        const res = await strict.call(`/v1/security/tls?host=${encodeURIComponent(host)}&port=443`, { key: k })
        expect([host, res.status]).toEqual([host, 400])
        expect(((await res.json()) as any).error.code).toBe("target_forbidden")
      }
    } finally {
      await strict.stop()
    }
  })
})
