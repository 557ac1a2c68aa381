/**
 * Zone Hygiene tells "the zone is broken" from "we could not ask": when the service's own
 * resolvers (DNS_RESOLVERS) do not answer, the audit is 502 upstream_unavailable, never a
 * grade; a zone that really has no NS records, asked through a working Unbound in front of real
 * NSDs, still gets its report.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import * as dgram from "node:dgram"
import * as net from "node:net"
import { parseResolverList } from "../../src/platform/Config"
import { startService, type TestService } from "../support/service"
import { startLab, type Lab } from "./lab"

let lab: Lab
let silent: dgram.Socket
let closedPort: number

beforeAll(async () => {
  const n = 200 + Math.floor(Math.random() * 50)
  lab = await startLab({ n, zones: [{ name: "plain.lab", ns: [`127.53.${n}.1`, `127.53.${n}.2`], caa: true, records: ["www A 127.0.0.10"] }] })
  // A UDP port that receives and never answers, and one that nothing listens on.
  silent = dgram.createSocket("udp4")
  await new Promise<void>((r) => silent.bind(0, "127.0.0.1", () => r()))
  const probe = dgram.createSocket("udp4")
  await new Promise<void>((r) => probe.bind(0, "127.0.0.1", () => r()))
  closedPort = (probe.address() as net.AddressInfo).port
  probe.close()
}, 120_000)
afterAll(async () => {
  silent?.close()
  await lab?.stop()
}, 30_000)

const auditWith = async (svc: TestService, zone: string) => {
  const { key } = await svc.newKey("developer")
  const res = await svc.call(`/v1/dns/zone-hygiene?domain=${zone}`, { key })
  return { status: res.status, body: (await res.json()) as any }
}

describe("Zone Hygiene when the service's own resolvers fail", () => {
  test.each([
    ["silent", () => (silent.address() as net.AddressInfo).port],
    ["closed", () => closedPort]
  ])("a %s resolver port is 502 upstream_unavailable, not a grade", async (_kind, port) => {
    const svc = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: port() }], dnsTimeoutMs: 300, ctBudgetMs: 300 })
    try {
      const r = await auditWith(svc, "example.lab")
      expect(r.status).toBe(502)
      expect(r.body.error.code).toBe("upstream_unavailable")
      expect(r.body.hygiene_grade).toBeUndefined()
    } finally {
      await svc.stop()
    }
  }, 30_000)

  test("with a working Unbound, a name with no NS records and a nonexistent zone still get reports", async () => {
    const svc = await startService({
      dnsResolvers: parseResolverList(lab.resolver),
      dnsAuthPort: lab.port,
      dnsTimeoutMs: 1500,
      dnssecTrustAnchors: Option.some(lab.anchorsFile),
      ctBudgetMs: 300
    })
    try {
      const noNs = await auditWith(svc, "www.plain.lab")
      expect(noNs.status).toBe(200)
      expect(noNs.body.nameservers).toEqual([])
      expect(noNs.body.findings.some((f: any) => f.check === "nameserver_redundancy" && f.severity === "critical")).toBe(true)
      const missing = await auditWith(svc, "missing.lab")
      expect(missing.status).toBe(200)
      expect(typeof missing.body.hygiene_grade).toBe("string")
      const zone = await auditWith(svc, "plain.lab")
      expect(zone.status).toBe(200)
      expect(zone.body.nameservers.length).toBe(2)
    } finally {
      await svc.stop()
    }
  }, 60_000)
})
