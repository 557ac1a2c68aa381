/**
 * Zone Hygiene outbound limits against a real loopback nameserver that counts every packet:
 * 20 concurrent audits of one zone cost about one audit; nameserver addresses per audit are
 * capped (and the report says so); a second audit within the TTL is served from cache (and
 * says so); audit slots per organization answer 429 with Retry-After when full.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { ROOT_RECORDS, startDnsServer, type TestDnsServer } from "../support/dnsServer"
import { startService, type TestService } from "../support/service"

let dns: TestDnsServer
let svc: TestService

const soa = (z: string) => [{ mname: `ns1.${z}`, rname: `h.${z}`, serial: 1, refresh: 86400, retry: 7200, expire: 1209600, minimum: 3600 }]
/** A zone whose two nameservers are this loopback server. */
const zone = (z: string) => {
  dns.set(z, "NS", [`ns1.${z}`, `ns2.${z}`])
  dns.set(z, "SOA", soa(z))
  dns.set(`ns1.${z}`, "A", ["127.0.0.1"])
  dns.set(`ns2.${z}`, "A", ["127.0.0.1"])
}
const countFor = (z: string) => dns.queries.filter((q) => q.toLowerCase().includes(z)).length

beforeAll(async () => {
  dns = await startDnsServer(ROOT_RECORDS)
  svc = await startService({
    allowPrivateTargets: true,
    dnsResolvers: [{ host: "127.0.0.1", port: dns.port }],
    dnsAuthPort: dns.port,
    dnsTimeoutMs: 500,
    ctBudgetMs: 300,
    zoneAuditMaxNsAddresses: 3,
    zoneAuditConcurrencyPerOrg: 1,
    zoneAuditQueueMs: 300
  })
})
afterAll(async () => {
  await svc?.stop()
  await dns?.close()
})

const audit = async (z: string, key: string) => {
  const res = await svc.call(`/v1/dns/zone-hygiene?domain=${z}`, { key })
  return { res, body: (await res.json()) as any }
}

describe("Zone Hygiene outbound limits", () => {
  test("20 concurrent audits of one zone send about as many packets as one audit", async () => {
    zone("one.amp.test")
    zone("many.amp.test")
    const { key } = await svc.newKey("developer")
    const single = await audit("one.amp.test", key)
    expect(single.res.status).toBe(200)
    const perAudit = countFor("one.amp.test")
    expect(perAudit).toBeGreaterThan(50)
    const keys = await Promise.all(Array.from({ length: 20 }, () => svc.newKey("developer")))
    const results = await Promise.all(keys.map((k) => audit("many.amp.test", k.key)))
    expect(results.map((r) => r.res.status)).toEqual(Array(20).fill(200))
    const total = countFor("many.amp.test")
    // Without sharing: 20 × perAudit. With it: one audit's worth.
    if (process.env.SHOW_COUNTS) console.log(`packets: one audit ${perAudit}, 20 concurrent audits ${total}`)
    expect(total).toBeLessThanOrEqual(perAudit + 5)
    for (const r of results) expect(r.body.hygiene_grade).toBe(results[0].body.hygiene_grade)
  }, 60_000)

  test("a second audit within the TTL is served from cache and says so", async () => {
    zone("cached.amp.test")
    const { key } = await svc.newKey("developer")
    const first = await audit("cached.amp.test", key)
    expect(first.body.limitations.join(" ")).not.toContain("Served from cache")
    const before = countFor("cached.amp.test")
    const second = await audit("cached.amp.test", key)
    expect(second.res.status).toBe(200)
    expect(countFor("cached.amp.test")).toBe(before)
    expect(second.body.limitations.some((l: string) => l.startsWith("Served from cache"))).toBe(true)
    expect(second.body.hygiene_score).toBe(first.body.hygiene_score)
  }, 30_000)

  test("nameserver addresses queried directly are capped, and the report says so", async () => {
    const z = "wide.amp.test"
    dns.set(z, "NS", ["ns1." + z, "ns2." + z, "ns3." + z])
    dns.set(z, "SOA", soa(z))
    for (const n of [1, 2, 3]) dns.set(`ns${n}.${z}`, "A", ["127.0.0.1", `127.0.0.${n + 100}`])
    const { key } = await svc.newKey("developer")
    const { res, body } = await audit(z, key)
    expect(res.status).toBe(200)
    expect(body.zone_transfer.length).toBe(3)
    expect(body.open_resolver_check.length).toBe(3)
    // Round robin: each nameserver gets one address before any gets a second.
    expect(new Set(body.zone_transfer.map((x: any) => x.nameserver)).size).toBe(3)
    expect(body.limitations.some((l: string) => l.includes("Only 3 of 6 nameserver addresses"))).toBe(true)
  }, 30_000)

  test("audits beyond the organization's slots wait briefly, then get 429 with Retry-After", async () => {
    // A zone whose nameserver never answers keeps its audit (and the org's only slot) busy.
    const z = "slow.amp.test"
    dns.set(z, "NS", ["ns1." + z])
    dns.set(z, "SOA", soa(z))
    dns.set("ns1." + z, "A", ["127.0.0.77"])
    zone("other.amp.test")
    const { key } = await svc.newKey("developer")
    const slow = audit(z, key)
    await Bun.sleep(50)
    const other = await audit("other.amp.test", key)
    expect(other.res.status).toBe(429)
    expect(other.res.headers.get("retry-after")).toBe("1")
    expect(other.body.error.code).toBe("rate_limited")
    expect(other.body.error.details.retry_after_seconds).toBe(1)
    expect(other.body.error.message).toContain("zone audits")
    // Another organization is not held up.
    const { key: key2 } = await svc.newKey("developer")
    expect((await audit("other.amp.test", key2)).res.status).toBe(200)
    expect((await slow).res.status).toBe(200)
  }, 60_000)
})
