/**
 * Zone Hygiene tells "the zone is broken" from "we could not ask" (docs/operations/zone-hygiene.md, "Errors"):
 * when the service's own resolvers (DNS_RESOLVERS) do not answer, or cannot answer for the root
 * (NXDOMAIN, REFUSED or SERVFAIL to everything, no root DNSKEY), the audit is 502
 * upstream_unavailable, never a grade or a "DNSSEC bogus" finding; through a working Unbound in
 * front of real NSDs, a name with no NS records gets its report and a nonexistent zone is 404.
 * The broken resolvers are a tiny dns-packet server here (faults a real resolver is configured
 * into only with effort); an apex that answers SERVFAIL while the root resolves is the zone's fault.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import * as dgram from "node:dgram"
import * as net from "node:net"
import { parseResolverList } from "../../src/platform/Config"
import * as packet from "dns-packet"
import { startService, type TestService } from "../support/service"
import { startLab, type Lab } from "./lab"

let lab: Lab
let silent: dgram.Socket
let closedPort: number

type Answer = { readonly rcode: string; readonly answers?: ReadonlyArray<Record<string, unknown>> }
/** A loopback resolver that answers each question as `answer` says (rcode and records). */
const fakeResolver = async (answer: (name: string, type: string) => Answer) => {
  const udp = dgram.createSocket("udp4")
  udp.on("message", (msg, rinfo) => {
    try {
      const q = packet.decode(msg)
      const question = q.questions![0]
      const a = answer(question.name.toLowerCase().replace(/\.$/, "") || ".", String(question.type))
      const rcodes: Record<string, number> = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 }
      // dns-packet encodes the rcode from the low four bits of flags.
      const flags = packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | rcodes[a.rcode]
      udp.send(packet.encode({ type: "response", id: q.id, flags, questions: [question], answers: (a.answers ?? []) as any } as any), rinfo.port, rinfo.address)
    } catch {
      // not a query: no answer
    }
  })
  await new Promise<void>((r) => udp.bind(0, "127.0.0.1", () => r()))
  return { port: (udp.address() as net.AddressInfo).port, close: () => udp.close() }
}
const rootKey = { flags: 257, algorithm: 8, key: Buffer.alloc(64, 1) }
/** The root as a working resolver answers it: NS and DNSKEY. */
const root = (name: string, type: string): Answer | undefined => {
  if (name !== ".") return undefined
  if (type === "NS") return { rcode: "NOERROR", answers: [{ name: ".", type: "NS", class: "IN", ttl: 3600, data: "a.root-servers.net" }] }
  if (type === "DNSKEY") return { rcode: "NOERROR", answers: [{ name: ".", type: "DNSKEY", class: "IN", ttl: 3600, data: rootKey }] }
  return { rcode: "NOERROR" }
}

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

  test.each(["NXDOMAIN", "REFUSED", "SERVFAIL"])("a resolver that answers %s to everything is 502, not a report against the zone", async (rcode) => {
    const dns = await fakeResolver(() => ({ rcode }))
    const svc = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: dns.port }], dnsTimeoutMs: 500, ctBudgetMs: 300 })
    try {
      const r = await auditWith(svc, "example.com")
      expect(r.status).toBe(502)
      expect(r.body.error.code).toBe("upstream_unavailable")
      expect(r.body.error.message).toContain("root")
      expect(r.body.hygiene_grade).toBeUndefined()
    } finally {
      await svc.stop()
      dns.close()
    }
  }, 30_000)

  test("a resolver that answers the zone but has no DNSKEY for the root is 502, not 'DNSSEC bogus'", async () => {
    const z = "keyless.test"
    const dns = await fakeResolver((name, type) => {
      if (name === ".") return type === "NS" ? root(name, type)! : { rcode: "NOERROR" }
      if (name === z && type === "NS") return { rcode: "NOERROR", answers: [{ name: z, type: "NS", class: "IN", ttl: 300, data: `ns1.${z}` }] }
      if (name === z && type === "SOA") return { rcode: "NOERROR", answers: [{ name: z, type: "SOA", class: "IN", ttl: 300, data: { mname: `ns1.${z}`, rname: `h.${z}`, serial: 1, refresh: 86400, retry: 7200, expire: 1209600, minimum: 3600 } }] }
      return { rcode: name.endsWith(z) ? "NOERROR" : "NXDOMAIN" }
    })
    const svc = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: dns.port }], dnsTimeoutMs: 500, ctBudgetMs: 300 })
    try {
      const r = await auditWith(svc, z)
      expect(r.status).toBe(502)
      expect(r.body.error.code).toBe("upstream_unavailable")
      expect(JSON.stringify(r.body)).not.toContain("bogus")
    } finally {
      await svc.stop()
      dns.close()
    }
  }, 30_000)

  test("an apex that answers SERVFAIL while the root resolves is a report with a critical finding", async () => {
    const dns = await fakeResolver((name, type) => root(name, type) ?? { rcode: name.endsWith("broken.test") ? "SERVFAIL" : "NXDOMAIN" })
    const svc = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: dns.port }], dnsTimeoutMs: 500, ctBudgetMs: 300 })
    try {
      const r = await auditWith(svc, "broken.test")
      expect(r.status).toBe(200)
      expect(r.body.nameservers).toEqual([])
      const finding = r.body.findings.find((f: any) => f.check === "nameserver_redundancy")
      expect(finding.severity).toBe("critical")
      expect(finding.message).toContain("SERVFAIL")
    } finally {
      await svc.stop()
      dns.close()
    }
  }, 30_000)

  test("with a working Unbound, a name with no NS records gets a report and a nonexistent zone is 404", async () => {
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
      expect(missing.status).toBe(404)
      expect(missing.body.error.code).toBe("not_found")
      expect(missing.body.error.message).toContain("zone missing.lab does not exist")
      const zone = await auditWith(svc, "plain.lab")
      expect(zone.status).toBe(200)
      expect(zone.body.nameservers.length).toBe(2)
    } finally {
      await svc.stop()
    }
  }, 60_000)
})
