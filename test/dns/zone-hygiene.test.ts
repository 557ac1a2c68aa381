import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import { parseResolverList } from "../../src/platform/Config"
import { CHECK_NAMES } from "../../src/analyses/zone/analyze"
import { makeRows, startCrtSh, type FakeCrtSh } from "../ct/crtsh"
import { startService, type TestService } from "../support/service"
import { startLab, type Lab } from "./lab"

let lab: Lab
let crt: FakeCrtSh
let svc: TestService
let key: string
const reports = new Map<string, any>()

beforeAll(async () => {
  lab = await startLab()
  crt = startCrtSh()
  crt.set("clean.lab", { kind: "rows", rows: makeRows("clean.lab", 3) })
  crt.set("caabad.lab", { kind: "rows", rows: [...makeRows("caabad.lab", 2), ...makeRows("caabad.lab", 1, { firstId: 5000, issuer: "C=US, O=DigiCert Inc, CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1", issuerCaId: 185756 })] })
  svc = await startService({
    dnsResolvers: parseResolverList(lab.resolver),
    dnsAuthPort: lab.port,
    dnsTimeoutMs: 1500,
    dnssecTrustAnchors: Option.some(lab.anchorsFile),
    allowPrivateTargets: true,
    ctAggregatorUrl: crt.url,
    ctBudgetMs: 2000
  })
  key = (await svc.newKey("developer")).key
}, 120_000)

afterAll(async () => {
  await svc?.stop()
  await crt?.stop()
  await lab?.stop()
}, 30_000)

const audit = async (zone: string) => {
  if (reports.has(zone)) return reports.get(zone)
  const res = await svc.call(`/v1/dns/zone-hygiene?domain=${zone}`, { key })
  expect(res.status).toBe(200)
  const body = await res.json()
  reports.set(zone, body)
  return body
}

/** Non-info findings as "check:severity", sorted. */
const planted = (r: any) => r.findings.filter((f: any) => f.severity !== "info").map((f: any) => `${f.check}:${f.severity}`).sort()

const EXPECTED: Record<string, ReadonlyArray<string>> = {
  "clean.lab": [],
  "drift.lab": ["soa_drift:high"],
  "timers.lab": ["soa_fields:low", "soa_fields:low", "soa_fields:low", "soa_fields:low"],
  "wild.lab": ["wildcard:medium"],
  "cnamewild.lab": ["wildcard:medium"],
  "exposed.lab": ["sensitive_subdomains:medium"],
  "open.lab": ["open_resolver:high"],
  "axfr.lab": ["zone_transfer:high"],
  "expired.lab": ["dnssec:critical"],
  "tampered.lab": ["dnssec:critical"],
  "nsec3bad.lab": ["dnssec:low"],
  "nocaa.lab": ["caa:low"],
  "single.lab": ["nameserver_redundancy:high"],
  "unsigned.lab": ["dnssec:medium"],
  "caabad.lab": ["caa:medium"],
  "lame.lab": ["soa_drift:high"]
}

describe("Zone hygiene against real NSD and Unbound with a signed private tree", () => {
  test.each(Object.entries(EXPECTED))("%s produces exactly its planted findings", async (zone, expected) => {
    const r = await audit(zone)
    expect(planted(r)).toEqual([...expected].sort())
    const deduction = r.findings.reduce((s: number, f: any) => s + ({ critical: 30, high: 18, medium: 8, low: 3, info: 0 } as any)[f.severity], 0)
    expect(r.hygiene_score).toBe(Math.max(0, 100 - deduction))
    expect(r.checks.map((c: any) => c.check)).toEqual([...CHECK_NAMES])
    for (const c of r.checks) {
      const fs = r.findings.filter((f: any) => f.check === c.check && f.severity !== "info")
      expect(c.finding_count).toBe(fs.length)
      expect(c.passed).toBe(fs.length === 0 && c.status === "completed")
    }
    expect(r.recommendations.length).toBeGreaterThanOrEqual(expected.length > 0 ? 1 : 0)
  }, 60_000)

  test("the clean signed zone grades A with every field filled", async () => {
    const r = await audit("clean.lab")
    expect(r.hygiene_grade).toBe("A")
    expect(r.hygiene_score).toBe(100)
    expect(r.domain).toBe("clean.lab")
    expect(r.nameservers.sort()).toEqual(["ns1.clean.lab", "ns2.clean.lab"])
    expect(r.composite).toEqual({ dnssec_status: "secure", dnssec_reason: null, has_caa: true, caa_unauthorized_ct_issuers: [], zone_transfer_vulnerable: false, nsec3_compliant: true })
    const entries = Object.entries(r.soa_consistency).filter(([k]) => k !== "unique_serials") as Array<[string, any]>
    expect(entries.length).toBe(3) // two authoritative servers and the recursive resolver
    for (const [, e] of entries) {
      expect(e).toMatchObject({ serial: 2026010101, primary_ns: "ns1.clean.lab", rname: "hostmaster.clean.lab", refresh: 86400, retry: 7200, expire: 1209600, minimum: 3600, error: null })
    }
    expect(r.soa_consistency.unique_serials).toEqual([2026010101])
    expect(r.soa_field_validation.map((v: any) => v.status)).toEqual(["ok", "ok", "ok", "ok"])
    expect(r.soa_drift_detected).toBe(false)
    expect(r.wildcard_detected).toBe(false)
    expect(r.wildcard_ips).toEqual([])
    expect(r.exposed_subdomains).toEqual([])
    expect(r.exposed_count).toBe(0)
    expect(r.open_resolver_check.length).toBe(2)
    expect(r.open_resolver_check.every((o: any) => o.is_open_resolver === false && o.status !== "recursive_answer")).toBe(true)
    expect(r.open_resolvers_detected).toBe(0)
    expect(r.zone_transfer.every((z: any) => z.allowed === false)).toBe(true)
    expect(r.dnssec.algorithms).toEqual([15])
    expect(r.dnssec.chain.map((c: any) => c.status)).toEqual(["secure", "secure", "secure"])
    expect(r.dnssec.verified_rrsets).toEqual(expect.arrayContaining(["DNSKEY", "SOA", "NS", "MX", "CAA", "NSEC3"]))
    expect(r.caa.issue).toEqual(["letsencrypt.org"])
    expect(r.findings).toEqual([])
    expect(r.limitations).toEqual([])
  })

  test("each signing algorithm of the tree validates (8 root, 13 lab, 14, 10, 15)", async () => {
    expect((await audit("drift.lab")).dnssec.algorithms).toEqual([14])
    expect((await audit("drift.lab")).composite.dnssec_status).toBe("secure")
    expect((await audit("timers.lab")).dnssec.algorithms).toEqual([10])
    expect((await audit("timers.lab")).composite.dnssec_status).toBe("secure")
    expect((await audit("clean.lab")).dnssec.chain[0].zone).toBe(".")
  })

  test("defect details", async () => {
    const drift = await audit("drift.lab")
    expect(drift.soa_drift_detected).toBe(true)
    expect(drift.soa_consistency.unique_serials).toEqual([2026010101, 2026010102])

    const timers = await audit("timers.lab")
    expect(timers.soa_field_validation).toEqual([
      { field: "refresh", value: 3600, recommended_min: 86400, recommended_max: null, status: "too_low" },
      { field: "retry", value: 600, recommended_min: 7200, recommended_max: null, status: "too_low" },
      { field: "expire", value: 86400, recommended_min: 1209600, recommended_max: null, status: "too_low" },
      { field: "minimum", value: 172800, recommended_min: null, recommended_max: 86400, status: "too_high" }
    ])
    expect(timers.hygiene_grade).toBe("B")

    const wild = await audit("wild.lab")
    expect(wild.wildcard_detected).toBe(true)
    expect(wild.wildcard_ips).toEqual(["127.0.0.99"])
    expect(wild.exposed_count).toBe(0) // vpn.wild.lab resolves to the wildcard address: filtered

    const cw = await audit("cnamewild.lab")
    expect(cw.wildcard_detected).toBe(true)
    expect(cw.wildcard_ips).toEqual([])
    expect(cw.exposed_count).toBe(0)
    expect(cw.limitations.some((l: string) => l.includes("CNAME"))).toBe(true)

    const exposed = await audit("exposed.lab")
    expect(exposed.exposed_count).toBe(4)
    expect(exposed.exposed_subdomains.map((e: any) => e.name).sort()).toEqual(["admin.exposed.lab", "jenkins.exposed.lab", "kibana.exposed.lab", "vpn.exposed.lab"])
    const kibana = exposed.exposed_subdomains.find((e: any) => e.name === "kibana.exposed.lab")
    expect(kibana).toEqual({ name: "kibana.exposed.lab", ips: ["127.0.0.24"], record_type: "CNAME", cname_target: "kibana-host.exposed.lab" })

    const open = await audit("open.lab")
    expect(open.open_resolvers_detected).toBe(1)
    expect(open.open_resolver_check.find((o: any) => o.is_open_resolver).ip).toBe(lab.addr(4))

    const axfr = await audit("axfr.lab")
    expect(axfr.composite.zone_transfer_vulnerable).toBe(true)
    expect(axfr.zone_transfer.every((z: any) => z.allowed && z.records > 300)).toBe(true)

    const expired = await audit("expired.lab")
    expect(expired.composite.dnssec_status).toBe("bogus")
    expect(expired.composite.dnssec_reason).toContain("expired")
    expect(expired.hygiene_grade).toBe("C")

    const tampered = await audit("tampered.lab")
    expect(tampered.composite.dnssec_status).toBe("bogus")
    expect(tampered.composite.dnssec_reason).toContain("does not verify")

    const nsec3 = await audit("nsec3bad.lab")
    expect(nsec3.composite.nsec3_compliant).toBe(false)
    expect(nsec3.dnssec.nsec3).toMatchObject({ iterations: 10, salt: "abcdef01" })
    expect(nsec3.composite.dnssec_status).toBe("secure")

    expect((await audit("nocaa.lab")).composite.has_caa).toBe(false)
    expect((await audit("single.lab")).nameservers).toEqual(["ns1.single.lab"])

    const unsigned = await audit("unsigned.lab")
    expect(unsigned.composite.dnssec_status).toBe("insecure")
    expect(unsigned.composite.nsec3_compliant).toBeNull()

    const caabad = await audit("caabad.lab")
    expect(caabad.composite.caa_unauthorized_ct_issuers).toEqual(["DigiCert Inc"])

    const lame = await audit("lame.lab")
    const dead = lame.soa_consistency[`ns2.lame.lab (${lab.addr(9)})`]
    expect(dead.serial).toBeNull()
    expect(dead.error).toBe("timeout")
  })

  test("bad input is 400, a free plan 403", async () => {
    for (const d of ["", "not a domain", "127.0.0.1", "http://[::1]/"]) {
      const res = await svc.call(`/v1/dns/zone-hygiene?domain=${encodeURIComponent(d)}`, { key })
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).error.code).toBe("invalid_request")
    }
    const free = (await svc.newKey("free")).key
    const res = await svc.call("/v1/dns/zone-hygiene?domain=clean.lab", { key: free })
    expect(res.status).toBe(403)
  })

  test("a nonexistent zone (NXDOMAIN while the root resolves) is 404 not_found, not a report", async () => {
    const res = await svc.call("/v1/dns/zone-hygiene?domain=nonexistent.lab", { key })
    expect(res.status).toBe(404)
    const body = (await res.json()) as any
    expect(body.error.code).toBe("not_found")
    expect(body.error.message).toContain("nonexistent.lab does not exist")
  }, 60_000)
})

describe("Zone hygiene without ALLOW_PRIVATE_TARGETS", () => {
  test("nameservers on non-public addresses are listed but not queried", async () => {
    const strict = await startService({
      dnsResolvers: parseResolverList(lab.resolver),
      dnsAuthPort: lab.port,
      dnssecTrustAnchors: Option.some(lab.anchorsFile),
      allowPrivateTargets: false,
      ctAggregatorUrl: crt.url,
      ctBudgetMs: 1000
    })
    try {
      const k = (await strict.newKey("developer")).key
      const res = await strict.call("/v1/dns/zone-hygiene?domain=axfr.lab", { key: k })
      expect(res.status).toBe(200)
      const r: any = await res.json()
      expect(r.nameservers.length).toBe(2)
      expect(r.open_resolver_check).toEqual([])
      expect(r.zone_transfer).toEqual([])
      expect(r.limitations.some((l: string) => l.includes("non-public address"))).toBe(true)
    } finally {
      await strict.stop()
    }
  }, 60_000)
})
