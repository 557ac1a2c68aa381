/**
 * dns_lookup and internal DNS: answers in non-public ranges from the service's resolver are
 * left out (and the reply says so) unless ALLOW_PRIVATE_TARGETS=true.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startDnsServer, type TestDnsServer } from "../support/dnsServer"
import { startService, type TestService } from "../support/service"

let dns: TestDnsServer
let strict: TestService
let open: TestService

beforeAll(async () => {
  dns = await startDnsServer({
    "intranet.test": { A: ["10.1.2.3", "93.184.216.34"], AAAA: ["fd00::5", "::7f00:1"], TXT: ["hello"] },
    "3.2.1.10.in-addr.arpa": { PTR: ["db.corp.internal"] }
  })
  const dnsResolvers = [{ host: "127.0.0.1", port: dns.port }]
  strict = await startService({ allowPrivateTargets: false, dnsResolvers })
  open = await startService({ allowPrivateTargets: true, dnsResolvers })
})
afterAll(async () => {
  await strict?.stop()
  await open?.stop()
  await dns?.close()
})

const lookup = async (svc: TestService, domain: string, type: string) => {
  const { key } = await svc.newKey("pro")
  const res = await svc.call("/v1/advanced/mcp", {
    method: "POST",
    key,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "dns_lookup", arguments: { domain, type } } })
  })
  expect(res.status).toBe(200)
  const body = (await res.json()) as any
  // No version header: the JSON report first, the readable summary second.
  return { text: body.result.content.map((b: any) => b.text).join("\n") as string, report: body.result.structuredContent }
}

describe("dns_lookup withholds private answers", () => {
  test("A: the private address is left out and the reply says one answer was", async () => {
    const { text, report } = await lookup(strict, "intranet.test", "A")
    expect(report.answers.map((a: any) => a.value)).toEqual(["93.184.216.34"])
    expect(report.withheld).toContain("1 answer")
    expect(text).toContain("left out")
    expect(text).not.toContain("10.1.2.3")
  })
  test("AAAA: unique-local and IPv4-compatible loopback are both left out", async () => {
    const { text, report } = await lookup(strict, "intranet.test", "AAAA")
    expect(report.answers).toEqual([])
    expect(report.withheld).toContain("2 answers")
    expect(text).not.toContain("fd00::5")
  })
  test("PTR of a private address is left out", async () => {
    const { text, report } = await lookup(strict, "10.1.2.3", "PTR")
    expect(report.answers).toEqual([])
    expect(text).not.toContain("corp.internal")
  })
  test("other types pass untouched", async () => {
    const { report } = await lookup(strict, "intranet.test", "TXT")
    expect(report.answers.length).toBe(1)
    expect(report.withheld).toBeUndefined()
  })
  test("ALLOW_PRIVATE_TARGETS=true shows everything", async () => {
    const { report } = await lookup(open, "intranet.test", "A")
    expect(report.answers.map((a: any) => a.value).sort()).toEqual(["10.1.2.3", "93.184.216.34"])
    expect(report.withheld).toBeUndefined()
  })
})
