import { afterAll, describe, expect, test } from "bun:test"
import * as dgram from "node:dgram"
import type { AddressInfo } from "node:net"
import { analyze, gradeOf, scoreOf, SENSITIVE_NAMES, unauthorizedIssuers, validateSoaFields, type ZoneObservations } from "../../src/analyses/zone/analyze"
import { startService } from "../support/service"

describe("zone hygiene rubric", () => {
  test("deductions and grade boundaries", () => {
    expect(scoreOf([])).toBe(100)
    expect(scoreOf([{ severity: "critical" }, { severity: "high" }, { severity: "medium" }, { severity: "low" }, { severity: "info" }])).toBe(100 - 30 - 18 - 8 - 3)
    expect(scoreOf(Array.from({ length: 5 }, () => ({ severity: "critical" as const })))).toBe(0)
    expect([90, 89, 80, 79, 70, 69, 60, 59].map(gradeOf)).toEqual(["A", "B", "B", "C", "C", "D", "D", "F"])
  })

  test("SOA bounds (docs/operations/zone-hygiene.md, the checks)", () => {
    expect(validateSoaFields({ serial: 1, primary_ns: "a", rname: "b", refresh: 86400, retry: 7200, expire: 1209600, minimum: 86400 }).map((v) => v.status)).toEqual(["ok", "ok", "ok", "ok"])
    expect(validateSoaFields({ serial: 1, primary_ns: "a", rname: "b", refresh: 86399, retry: 7199, expire: 1209599, minimum: 86401 }).map((v) => v.status)).toEqual(["too_low", "too_low", "too_low", "too_high"])
    expect(validateSoaFields(null).map((v) => v.status)).toEqual(["unknown", "unknown", "unknown", "unknown"])
  })

  test("at least 40 sensitive names", () => {
    expect(new Set(SENSITIVE_NAMES).size).toBeGreaterThanOrEqual(40)
    for (const n of ["admin", "vpn", "kibana", "jenkins"]) expect(SENSITIVE_NAMES).toContain(n)
  })

  test("CAA cross-reference maps issuer organisations to CAA identifiers", () => {
    const caa = [{ flags: 0, tag: "issue", value: "letsencrypt.org" }, { flags: 0, tag: "issuewild", value: "pki.goog; cansignhttpexchanges=yes" }]
    expect(unauthorizedIssuers(caa, ["Let's Encrypt", "Google Trust Services", "DigiCert Inc", "Unknown CA Ltd"])).toEqual({ unauthorized: ["DigiCert Inc"], unknown: ["Unknown CA Ltd"] })
    expect(unauthorizedIssuers([], ["DigiCert Inc"]).unauthorized).toEqual([])
  })

  test("incomplete checks are limitations and info findings, not failures of the report", () => {
    const inc = { incomplete: "no result within 10000 ms" }
    const o: ZoneObservations = {
      domain: "x.test", now: new Date().toISOString(), ns_error: null,
      nameservers: [{ name: "ns1.x.test", ips: ["192.0.2.1"], skipped: null }, { name: "ns2.x.test", ips: ["192.0.2.2"], skipped: null }],
      soa: inc, soa_apex: inc, wildcard: inc, sensitive: inc, open_resolver: inc, dnssec: inc, caa: inc, axfr: inc
    }
    const r = analyze(o)
    expect(r.hygiene_score).toBe(100)
    expect(r.checks.filter((c) => c.status === "incomplete").length).toBe(8)
    expect(r.checks.find((c) => c.check === "nameserver_redundancy")!.passed).toBe(true)
    expect(r.limitations.length).toBe(8)
    expect(r.findings.every((f) => f.severity === "info")).toBe(true)
  })
})

describe("zone hygiene with a resolver that never answers", () => {
  const sock = dgram.createSocket("udp4")
  afterAll(() => sock.close())

  test("no grade is invented: 502 upstream_unavailable (issue 15: broken zone vs. could not ask)", async () => {
    await new Promise<void>((r) => sock.bind(0, "127.0.0.1", () => r()))
    const port = (sock.address() as AddressInfo).port
    const svc = await startService({ dnsResolvers: [{ host: "127.0.0.1", port }], dnsTimeoutMs: 300, ctAggregatorUrl: "http://127.0.0.1:9", ctBudgetMs: 300 })
    try {
      const key = (await svc.newKey("developer")).key
      const res = await svc.call("/v1/dns/zone-hygiene?domain=silent.test", { key })
      expect(res.status).toBe(502)
      const r: any = await res.json()
      expect(r.error.code).toBe("upstream_unavailable")
      expect(r.hygiene_score).toBeUndefined()
    } finally {
      await svc.stop()
    }
  }, 60_000)
})
