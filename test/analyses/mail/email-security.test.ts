/**
 * GET /v1/security/email against real servers: NSD and Unbound (a signed private tree) with one
 * zone per planted property, an HTTPS server with a test CA for the MTA-STS policies, and SMTP
 * listeners (STARTTLS with a CA-signed certificate, garbage, silence). Each zone must produce
 * exactly its planted findings; bad input is a 4xx, the service's own resolver down a 502.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import * as dgram from "node:dgram"
import type * as net from "node:net"
import { parseResolverList } from "../../../src/platform/Config"
import { until } from "../../support/process"
import { startService, type TestService } from "../../support/service"
import { startMailLab, type MailLab } from "./mailLab"

let ml: MailLab
let svc: TestService
let key: string
const reports = new Map<string, any>()

beforeAll(async () => {
  ml = await startMailLab()
  svc = await startService({
    dnsResolvers: parseResolverList(ml.lab.resolver),
    dnsTimeoutMs: 1500,
    dnssecTrustAnchors: Option.some(ml.lab.anchorsFile),
    allowPrivateTargets: true,
    extraCaCerts: Option.some(ml.pki.caCertPath),
    smtpPort: ml.smtpPort,
    smtpTimeoutMs: 1500,
    mtaStsTimeoutMs: 1500,
    // email_security monitors (10x the minimum interval) run within seconds here
    monitorMinIntervalS: 1,
    alertEvalIntervalMs: 3_600_000
  })
  key = (await svc.newKey("developer")).key
}, 120_000)

afterAll(async () => {
  await svc?.stop()
  await ml?.stop()
}, 30_000)

const email = async (domain: string, query = "") => {
  const k = domain + query
  if (reports.has(k)) return reports.get(k)
  const res = await svc.call(`/v1/security/email?domain=${domain}${query}`, { key })
  const body: any = await res.json()
  if (res.status !== 200) throw new Error(`${domain}: ${res.status} ${JSON.stringify(body)}`)
  reports.set(k, body)
  return body
}

/** Non-info findings as "check:severity", sorted. */
const planted = (r: any) => r.findings.filter((f: any) => f.severity !== "info").map((f: any) => `${f.check}:${f.severity}`).sort()

const EXPECTED: Record<string, ReadonlyArray<string>> = {
  "good.lab": [],
  "nospf.lab": ["spf:high", "dkim:low", "mta_sts:low", "tls_rpt:low"],
  "plusall.lab": ["spf:critical"],
  "toomany.lab": ["spf:high"],
  "voids.lab": ["spf:high"],
  "nodmarc.lab": ["dmarc:high"],
  "pnone.lab": ["dmarc:medium"],
  "sub.inherit.lab": ["spf:high", "dkim:low", "mta_sts:low", "tls_rpt:low"],
  "extauth.lab": [],
  "extunauth.lab": ["dmarc:medium"],
  "dkimbad.lab": ["dkim:low", "dkim:medium"],
  "stsmismatch.lab": ["mta_sts:high"],
  "stsbad.lab": ["mta_sts:high"],
  "stsredirect.lab": ["mta_sts:high"],
  "stshuge.lab": ["mta_sts:high"],
  "stsslow.lab": ["mta_sts:high"],
  "stsbadcert.lab": ["mta_sts:high"],
  "nullmx.lab": ["dmarc:high", "mx:medium"],
  "nullmxok.lab": [],
  "nullmxbad.lab": ["dmarc:high", "mx:medium"],
  "dkimrevoked.lab": ["dkim:low"],
  "bimibad.lab": ["bimi:low"],
  "rptbad.lab": ["tls_rpt:medium"],
  "daneinsecure.lab": ["dane:medium"]
}

describe("Email security against NSD, Unbound, an HTTPS policy server and SMTP listeners", () => {
  test.each(Object.entries(EXPECTED))("%s produces exactly its planted findings", async (domain, expected) => {
    const r = await email(domain)
    expect(planted(r)).toEqual([...expected].sort())
    const deduction = r.findings.reduce((s: number, f: any) => s + ({ critical: 30, high: 18, medium: 8, low: 3, info: 0 } as any)[f.severity], 0)
    expect(r.score).toBe(Math.max(0, 100 - deduction))
    expect(r.checks.map((c: any) => c.check)).toEqual(["mx", "spf", "dmarc", "dkim", "mta_sts", "tls_rpt", "bimi", "dane", "starttls"])
    for (const f of r.findings) if (f.severity !== "info") expect(typeof f.recommendation).toBe("string")
  }, 30_000)

  test.each(Object.keys(EXPECTED))("%s: each check tallies every finding of its own, info included", async (domain) => {
    const r = await email(domain)
    const rank = ["info", "low", "medium", "high", "critical"]
    for (const c of r.checks) {
      const own = r.findings.filter((f: any) => f.check === c.check)
      if (c.check === "starttls") {
        // Not asked for (no starttls=true): the check did not run.
        expect(c).toEqual({ check: "starttls", passed: null, severity_max: null, finding_count: 0 })
        continue
      }
      const max = own.reduce((m: string | null, f: any) => (m === null || rank.indexOf(f.severity) > rank.indexOf(m) ? f.severity : m), null)
      expect(c).toEqual({ check: c.check, passed: !own.some((f: any) => f.severity !== "info"), severity_max: max, finding_count: own.length })
    }
  }, 30_000)

  test("tallies: an info finding is counted but does not fail its check; a check not asked for has passed null", async () => {
    const tally = (r: any, check: string) => r.checks.find((c: any) => c.check === check)
    const nullmx = await email("nullmxbad.lab")
    expect(nullmx.findings.filter((f: any) => f.check === "spf").map((f: any) => f.severity)).toEqual(["info"])
    expect(tally(nullmx, "spf")).toEqual({ check: "spf", passed: true, severity_max: "info", finding_count: 1 })
    const revoked = await email("dkimrevoked.lab")
    expect(revoked.findings.filter((f: any) => f.check === "dkim").map((f: any) => f.severity).sort()).toEqual(["info", "low"])
    expect(tally(revoked, "dkim")).toEqual({ check: "dkim", passed: false, severity_max: "low", finding_count: 2 })
    expect(tally(await email("good.lab"), "starttls")).toEqual({ check: "starttls", passed: null, severity_max: null, finding_count: 0 })
    expect(tally(await email("good.lab", "&starttls=true"), "starttls")).toEqual({ check: "starttls", passed: true, severity_max: null, finding_count: 0 })
    expect(tally(await email("smtpbad.lab", "&starttls=true"), "starttls")).toEqual({ check: "starttls", passed: false, severity_max: "high", finding_count: 2 })
  }, 30_000)

  test("a fully configured domain fills every block from real lookups", async () => {
    const r = await email("good.lab", "&dkim_selectors=custom2024")
    expect(r.grade).toBe("A")
    expect(r.mx).toEqual({ records: [{ host: "mx1.good.lab", preference: 10, ips: [expect.any(String)] }, { host: "mx2.good.lab", preference: 20, ips: [expect.any(String)] }], null_mx: false })
    expect(r.spf.record).toBe("v=spf1 mx ip4:192.0.2.0/24 -all")
    expect(r.spf.all).toBe("fail")
    expect(r.dmarc).toMatchObject({ policy: "reject", valid: true, rua: ["mailto:dmarc@good.lab"], inherited_from: null, external_reporting: [] })
    expect(r.dkim.selectors_checked).toContain("custom2024")
    expect(r.dkim.selectors_found.map((k: any) => [k.selector, k.key_type, k.key_bits, k.testing, k.revoked])).toEqual([
      ["selector1", "rsa", 2048, false, false], ["custom2024", "rsa", 2048, false, false]
    ])
    expect(r.mta_sts).toEqual({ record: "v=STSv1; id=20260101", id: "20260101", policy: { mode: "enforce", mx: ["mx1.good.lab", "*.good.lab"], max_age: 604800 }, valid: true, errors: [] })
    expect(r.tls_rpt).toEqual({ record: "v=TLSRPTv1; rua=mailto:tls@good.lab", rua: ["mailto:tls@good.lab"], valid: true, errors: [] })
    expect(r.bimi).toMatchObject({ location: "https://good.lab/logo.svg", authority: "https://good.lab/vmc.pem", valid: true })
    expect(r.dane.mx).toEqual([
      { host: "mx1.good.lab", tlsa: [{ usage: 3, selector: 1, matching_type: 1 }], dnssec_secure: true, valid: true },
      { host: "mx2.good.lab", tlsa: [{ usage: 2, selector: 1, matching_type: 1 }], dnssec_secure: true, valid: true }
    ])
    expect(r.starttls).toBeNull()
  }, 30_000)

  test("DMARC inherited from the organizational domain, and report authorization", async () => {
    const sub = await email("sub.inherit.lab")
    expect(sub.dmarc).toMatchObject({ inherited_from: "inherit.lab", policy: "quarantine", subdomain_policy: "quarantine" })
    expect((await email("extauth.lab")).dmarc.external_reporting).toEqual([{ uri: "mailto:agg@reports.lab", kind: "rua", domain: "reports.lab", authorized: true }])
    expect((await email("extunauth.lab")).dmarc.external_reporting).toEqual([{ uri: "mailto:agg@reports.lab", kind: "rua", domain: "reports.lab", authorized: false }])
  }, 30_000)

  test("DKIM testing, revoked and 1024-bit keys; MTA-STS failure reasons; null MX", async () => {
    const d = await email("dkimbad.lab")
    expect(d.dkim.selectors_found.map((k: any) => [k.selector, k.key_bits, k.testing, k.revoked]).sort()).toEqual([["k1", 1024, false, false], ["s2", null, false, true], ["selector1", 2048, true, false]])
    const reason = async (domain: string) => (await email(domain)).mta_sts.errors.join(" | ")
    expect(await reason("stsmismatch.lab")).toContain("matches no mx pattern")
    expect(await reason("stsbad.lab")).toContain("not STSv1")
    expect(await reason("stsredirect.lab")).toContain("redirect")
    expect(await reason("stshuge.lab")).toContain("larger than 64 KiB")
    expect(await reason("stsslow.lab")).toContain("within 1500 ms")
    expect(await reason("stsbadcert.lab")).toContain("certificate")
    expect((await email("nullmx.lab")).mx).toEqual({ records: [], null_mx: true })
    expect((await email("daneinsecure.lab")).dane.mx[0]).toMatchObject({ host: "mx1.daneinsecure.lab", dnssec_secure: false, valid: false })
  }, 30_000)

  test("starttls=true: a CA-signed STARTTLS server passes; garbage and silent servers are findings within the limit", async () => {
    const good = await email("good.lab", "&starttls=true")
    expect(good.starttls).toHaveLength(2)
    for (const s of good.starttls) expect(s).toMatchObject({ supported: true, tls_version: expect.stringMatching(/^TLSv1\.[23]$/), certificate_valid: true, error: null })
    expect(planted(good)).toEqual([])
    const t0 = performance.now()
    const bad = await email("smtpbad.lab", "&starttls=true")
    expect(performance.now() - t0).toBeLessThan(15_000)
    expect(bad.starttls.map((s: any) => s.supported)).toEqual([false, false])
    expect(bad.starttls.every((s: any) => typeof s.error === "string")).toBe(true)
    expect(planted(bad)).toEqual(["starttls:high", "starttls:high"])
  }, 30_000)

  test("a target whose DNS is broken (SERVFAIL) gets a report with findings, never a 5xx", async () => {
    const r = await email("broken.lab")
    expect(planted(r)).toContain("mx:high")
    expect(planted(r)).toContain("dmarc:high")
  }, 30_000)

  test("a domain that does not exist is 404 not_found", async () => {
    const res = await svc.call("/v1/security/email?domain=nothing-here.lab", { key })
    expect(res.status).toBe(404)
    expect(((await res.json()) as any).error.code).toBe("not_found")
  }, 30_000)
})

describe("Email security input rules", () => {
  test.each([
    ["missing domain", ""],
    ["empty domain", "domain="],
    ["IP address", "domain=127.0.0.1"],
    ["IPv6 address", "domain=%5B%3A%3A1%5D"],
    ["not a host name", "domain=exa_mple..lab"],
    ["too many selectors", `domain=good.lab&dkim_selectors=${Array.from({ length: 21 }, (_, i) => `s${i}`).join(",")}`],
    ["starttls not a boolean", "domain=good.lab&starttls=maybe"]
  ])("%s is 400 invalid_request", async (_what, query) => {
    const res = await svc.call(`/v1/security/email?${query}`, { key })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.code).toBe("invalid_request")
  })

  test("plan and authentication: free is 403 plan_forbidden, no key 401", async () => {
    const free = (await svc.newKey("free")).key
    const r1 = await svc.call("/v1/security/email?domain=good.lab", { key: free })
    expect(r1.status).toBe(403)
    expect(((await r1.json()) as any).error.code).toBe("plan_forbidden")
    expect((await svc.call("/v1/security/email?domain=good.lab")).status).toBe(401)
  })
})

describe("Email security when the service's own resolver is down", () => {
  test("a silent resolver is 502 upstream_unavailable, within the DNS timeout, not a grade", async () => {
    const silent = dgram.createSocket("udp4")
    await new Promise<void>((r) => silent.bind(0, "127.0.0.1", () => r()))
    const down = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: (silent.address() as net.AddressInfo).port }], dnsTimeoutMs: 300, mtaStsTimeoutMs: 500 })
    try {
      const k = (await down.newKey("developer")).key
      const t0 = performance.now()
      const res = await down.call("/v1/security/email?domain=good.lab", { key: k })
      expect(performance.now() - t0).toBeLessThan(5_000)
      expect(res.status).toBe(502)
      const body: any = await res.json()
      expect(body.error.code).toBe("upstream_unavailable")
      expect(body.grade).toBeUndefined()
    } finally {
      await down.stop()
      silent.close()
    }
  }, 20_000)
})

describe("the email_security monitor kind", () => {
  test("a run is this operation's report, judged by grade_below", async () => {
    const create = async (name: string, target: string) => {
      const r = await svc.call("/v1/monitors", {
        method: "POST", key, headers: { "content-type": "application/json" },
        body: JSON.stringify({ name, kind: "email_security", target, interval_seconds: 10, cooldown_minutes: 0, conditions: { grade_below: "A", record_changed: true } })
      })
      expect(r.status).toBe(201)
      return ((await r.json()) as any).monitor
    }
    const good = await create("good", "good.lab")
    const weak = await create("weak", "nodmarc.lab")
    const first = (id: string) =>
      until(async () => ((await (await svc.call(`/v1/monitors/${id}/results`, { key })).json()) as any).results[0], `the first run of ${id}`, 40_000)
    const g = await first(good.id)
    expect(g.ok).toBe(true)
    expect(g.report.domain).toBe("good.lab")
    expect(g.report.grade).toBe("A")
    const w = await first(weak.id)
    expect(w.ok).toBe(false)
    expect(w.summary).toContain("below A")
    expect(w.report.findings.some((f: any) => f.check === "dmarc")).toBe(true)
  }, 60_000)
})
