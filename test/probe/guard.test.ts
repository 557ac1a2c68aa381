/**
 * The target guard: pure classification tables, then the real service with the private-address
 * rule on, a listener on the forbidden address that must see no connection, and names resolved
 * through a loopback DNS server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import * as net from "node:net"
import { classifyAddress, parseTarget } from "../../src/adapters/probe/guard"
import { startDnsServer, type TestDnsServer } from "../support/dnsServer"
import { startService, type TestService } from "../support/service"

describe("classifyAddress", () => {
  const table: Array<[string, "public" | "private" | "metadata"]> = [
    ["8.8.8.8", "public"],
    ["2606:4700::1111", "public"],
    ["127.0.0.1", "private"],
    ["127.255.0.9", "private"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"], // CGNAT
    ["169.254.1.1", "private"], // link-local
    ["224.0.0.1", "private"], // multicast
    ["0.0.0.0", "private"],
    ["255.255.255.255", "private"],
    ["240.0.0.1", "private"], // reserved
    ["192.0.2.1", "private"], // documentation
    ["::1", "private"],
    ["::", "private"],
    ["fe80::1", "private"],
    ["fc00::1", "private"],
    ["ff02::1", "private"],
    ["::ffff:127.0.0.1", "private"],
    ["::ffff:7f00:1", "private"],
    ["::ffff:8.8.8.8", "public"],
    ["169.254.169.254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["not-an-ip", "private"]
  ]
  for (const [addr, expected] of table) {
    test(`${addr} is ${expected}`, () => expect(classifyAddress(addr)).toBe(expected))
  }
})

describe("parseTarget", () => {
  test("literal forms are normalised to dotted IPv4 by URL parsing", () => {
    for (const form of ["2130706433", "0x7f000001", "0177.0.0.1", "127.1", "0x7f.0.0.1", "127.0.0.1."]) {
      const t = parseTarget(`http://${form}/`)
      expect(t).toHaveProperty("host", "127.0.0.1")
      expect(t).toHaveProperty("literal", true)
    }
    expect(parseTarget("http://[::ffff:127.0.0.1]/")).toHaveProperty("host", "::ffff:7f00:1")
  })
  test("schemes other than http(s) are target_forbidden", () => {
    for (const u of ["ftp://example.com/", "file:///etc/passwd", "gopher://x/", "javascript:alert(1)", "data:text/plain,hi"]) {
      expect(parseTarget(u)).toHaveProperty("code", "target_forbidden")
    }
  })
  test("bare hosts get http://", () => {
    const t = parseTarget("example.com:8080/x") as any
    expect(t.url.href).toBe("http://example.com:8080/x")
    expect(t.port).toBe(8080)
  })
  test("garbage is invalid_request", () => {
    for (const u of ["", "http://", "http://exa mple.com", "http://user:pw@example.com/", "http://-bad-.com/"]) {
      expect(parseTarget(u)).toHaveProperty("code", "invalid_request")
    }
  })
})

describe("guard in the service (ALLOW_PRIVATE_TARGETS=false)", () => {
  let svc: TestService
  let permissive: TestService
  let dns: TestDnsServer
  let key: string
  let permissiveKey: string
  let listener: net.Server
  let port: number
  let connections = 0

  beforeAll(async () => {
    listener = net.createServer((s) => {
      connections++
      s.destroy()
    })
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", () => r()))
    port = (listener.address() as net.AddressInfo).port
    dns = await startDnsServer({
      "loopback.test": { A: ["127.0.0.1"] },
      "mixed.test": { A: ["93.184.216.34", "10.0.0.7"] },
      "v6loop.test": { AAAA: ["::1"] },
      "metadata.test": { A: ["169.254.169.254"] }
    })
    const resolvers = [{ host: "127.0.0.1", port: dns.port }]
    svc = await startService({ allowPrivateTargets: false, dnsResolvers: resolvers })
    permissive = await startService({ allowPrivateTargets: true, dnsResolvers: resolvers })
    key = (await svc.newKey()).key
    permissiveKey = (await permissive.newKey()).key
  })
  afterAll(async () => {
    listener?.close()
    await dns?.close()
    await svc?.stop()
    await permissive?.stop()
  })

  const forbidden = async (s: TestService, k: string, url: string) => {
    const res = await s.call(`/v1/network/http-check?url=${encodeURIComponent(url)}`, { key: k })
    const body = (await res.json()) as any
    expect({ url, status: res.status }).toEqual({ url, status: 400 })
    expect(body.error.code).toBe("target_forbidden")
  }

  test("every literal form of loopback is refused and nothing connects", async () => {
    for (const host of ["127.0.0.1", "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "localhost", "LOCALHOST.", "foo.localhost"]) {
      await forbidden(svc, key, `http://${host}:${port}/`)
    }
    await forbidden(svc, key, `127.0.0.1:${port}`)
    expect(connections).toBe(0)
  })

  test("IPv6 forms embedding a loopback or metadata IPv4 are refused and nothing connects", async () => {
    for (const host of ["[::7f00:1]", "[::127.0.0.1]", "[0:0:0:0:0:0:7F00:1]", "[::a9fe:a9fe]", "[64:ff9b::7f00:1]", "[64:ff9b:1::7f00:1]", "[::ffff:0:7f00:1]", "[2002:7f00:1::1]", "[2001:0:808:808::80ff:fffe]"]) {
      await forbidden(svc, key, `http://${host}:${port}/`)
    }
    expect(connections).toBe(0)
  })

  test("a webhook URL embedding a loopback IPv4 in IPv6 is refused at rule creation", async () => {
    const res = await svc.call("/v1/alerts/rules", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "embedded", metric: "error_rate", operator: "gt", threshold_value: 5, window_minutes: 15,
        channels: [{ type: "webhook", url: `http://[::7f00:1]:${port}/hook` }], cooldown_minutes: 30, enabled: true
      })
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.code).toBe("target_forbidden")
  })

  test("refusals say that a name is not public, not where it points", async () => {
    for (const [url, hidden] of [[`http://mixed.test:${port}/`, "10.0.0.7"], [`http://loopback.test:${port}/`, "127.0.0.1"]]) {
      const res = await svc.call(`/v1/network/http-check?url=${encodeURIComponent(url)}`, { key })
      const text = await res.text()
      expect(res.status).toBe(400)
      expect(text).toContain("non-public address")
      expect(text).not.toContain(hidden)
    }
  })

  test("names resolving to a private address, or to any private among public ones, are refused", async () => {
    await forbidden(svc, key, `http://loopback.test:${port}/`)
    await forbidden(svc, key, `http://mixed.test:${port}/`)
    await forbidden(svc, key, `http://v6loop.test:${port}/`)
    expect(connections).toBe(0)
    expect(dns.queries).toContain("loopback.test A")
  })

  test("private ranges are refused", async () => {
    for (const u of ["http://10.0.0.1/", "http://192.168.0.1/", "http://172.16.5.4/", "http://100.64.1.1/", "http://[fe80::1]/", "http://0.0.0.0/", "http://224.0.0.1/"]) {
      await forbidden(svc, key, u)
    }
  })

  test("cloud metadata stays refused even when private targets are allowed", async () => {
    for (const u of ["http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/", "http://[fd00:ec2::254]/", "http://100.100.100.200/", `http://metadata.test:${port}/`]) {
      await forbidden(permissive, permissiveKey, u)
    }
  })

  test("ALLOW_PRIVATE_TARGETS=true lets loopback through", async () => {
    const res = await permissive.call(`/v1/network/http-check?url=${encodeURIComponent(`http://loopback.test:${port}/`)}`, { key: permissiveKey })
    expect(res.status).toBe(200)
    const body = (await res.json()) as any
    expect(body.error).toBe("fetch_failed") // the listener hangs up without answering
    expect(connections).toBe(1)
  })

  test("non-http schemes are target_forbidden", async () => {
    await forbidden(svc, key, "ftp://127.0.0.1/")
    await forbidden(svc, key, "file:///etc/passwd")
  })

  test("an unresolvable name is reported in the body", async () => {
    const res = await permissive.call(`/v1/network/http-check?url=${encodeURIComponent("http://nowhere.test/")}`, { key: permissiveKey })
    expect(res.status).toBe(200)
    const body = (await res.json()) as any
    expect(body.error).toBe("fetch_failed")
    expect(body.error_detail).toContain("nowhere.test")
    expect(body.status.code).toBeNull()
  })
})
