/**
 * Zone Hygiene and the guard: a nameserver whose AAAA is an IPv4-compatible loopback address
 * (`::7f00:2`) is listed but never sent SOA, recursion or AXFR queries.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { ROOT_RECORDS, startDnsServer, type TestDnsServer } from "../support/dnsServer"
import { startService, type TestService } from "../support/service"

let dns: TestDnsServer
let svc: TestService
let key: string

beforeAll(async () => {
  dns = await startDnsServer({
    ...ROOT_RECORDS,
    "embed.test": { NS: ["ns1.embed.test", "ns2.embed.test"], SOA: [{ mname: "ns1.embed.test", rname: "h.embed.test", serial: 1, refresh: 86400, retry: 7200, expire: 1209600, minimum: 3600 }] },
    "ns1.embed.test": { AAAA: ["::7f00:2"] },
    "ns2.embed.test": { AAAA: ["64:ff9b:1::7f00:2"], A: ["127.0.0.2"] }
  })
  svc = await startService({
    allowPrivateTargets: false,
    dnsResolvers: [{ host: "127.0.0.1", port: dns.port }],
    dnsAuthPort: dns.port,
    dnsTimeoutMs: 500,
    ctBudgetMs: 300
  })
  key = (await svc.newKey("developer")).key
})
afterAll(async () => {
  await svc?.stop()
  await dns?.close()
})

describe("Zone Hygiene nameserver addresses pass the guard", () => {
  test("a nameserver whose AAAA embeds a loopback IPv4 gets no SOA, recursion or AXFR query", async () => {
    const res = await svc.call("/v1/dns/zone-hygiene?domain=embed.test", { key })
    expect(res.status).toBe(200)
    const r: any = await res.json()
    expect(r.nameservers.sort()).toEqual(["ns1.embed.test", "ns2.embed.test"])
    const queried = [
      ...r.zone_transfer.map((x: any) => x.ip),
      ...r.open_resolver_check.map((x: any) => x.ip),
      ...Object.keys(r.soa_consistency).filter((k) => !k.startsWith("resolver") && k !== "unique_serials")
    ]
    expect(queried).toEqual([])
    expect(r.limitations.some((l: string) => l.includes("non-public address"))).toBe(true)
    // The refusal does not repeat the internal address in its reason.
    expect(r.limitations.join(" ")).not.toContain("127.0.0.2")
  }, 30_000)
})
