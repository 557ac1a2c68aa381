/**
 * GET /v1/domain/audit against the audit world (world/: real NSD, Unbound, HTTPS and SMTP
 * servers, a lab DNSBL, IPv4 and IPv6 on the loopback of a network namespace of its own): every
 * check passes on full.lab and fails on a planted domain; what does not apply is null and leaves
 * its section complete; inputs that cannot be had leave their checks null and their section
 * incomplete with the reason; the sections asked; bad input; 404, 502 and the plan.
 */
import { beforeAll, describe, expect, test } from "bun:test"
import { CHECK_IDS, CHECKS, type CheckId } from "../../../src/analyses/audit/checks"
import { type AuditWorld, type ServiceName, sharedAuditWorld } from "./world/world"
import { ADDR } from "./world/zones"

let world: AuditWorld
const reports = new Map<string, any>()

const audit = async (query: string, service: ServiceName = "main") => {
  const key = service === "main" ? world.keys.developer : world.keys[service]
  const res = await world.call(service, `/v1/domain/audit?${query}`, key)
  return { status: res.status, body: (await res.json()) as any }
}
const checkOf = (r: any, id: CheckId) => r.sections[CHECKS[id].section].checks.find((c: any) => c.id === id)

beforeAll(async () => {
  world = await sharedAuditWorld()
  const asked = ["full.lab", "bare.lab", "weak.lab", "down.lab", "nomail.lab", "nullmx.lab"]
  await Promise.all(asked.map(async (d) => {
    const r = await audit(`domain=${d}&starttls=true`)
    expect(r.status).toBe(200)
    reports.set(d, r.body)
  }))
}, 240_000)

describe("a fully configured domain", () => {
  test("every one of the 24 checks passes; every section complete; grade A, score 100", () => {
    const r = reports.get("full.lab")
    expect(r.domain).toBe("full.lab")
    expect(r.score).toBe(100)
    expect(r.grade).toBe("A")
    for (const s of ["web", "mail", "dns", "exposure"]) expect({ s, status: r.sections[s].status, score: r.sections[s].score, grade: r.sections[s].grade }).toEqual({ s, status: "complete", score: 100, grade: "A" })
    const all = ["web", "mail", "dns", "exposure"].flatMap((s) => r.sections[s].checks)
    expect(all.map((c: any) => c.id)).toEqual([...CHECK_IDS])
    for (const c of all) expect({ id: c.id, passed: c.passed, severity: c.severity }).toEqual({ id: c.id, passed: true, severity: CHECKS[c.id as CheckId].severity })
    expect(r.findings).toEqual([])
    expect(r.recommendations).toEqual([])
    expect(r.limitations).toEqual([])
  })

  test("reports holds each underlying report as made for this audit", () => {
    const r = reports.get("full.lab")
    expect(r.reports.security_headers.url).toBe("http://full.lab/")
    expect(r.reports.security_headers.grade).toMatch(/^[AB]/)
    expect(r.reports.tls).toMatchObject({ host: "full.lab", port: 443 })
    expect(r.reports.email).toMatchObject({ domain: "full.lab", grade: "A" })
    expect(r.reports.email.starttls.every((s: any) => s.supported)).toBe(true)
    expect(r.reports.zone_hygiene.domain).toBe("full.lab")
    expect(r.reports.takeover).toMatchObject({ domain: "full.lab", candidates: [] })
    expect(r.reports.blocklist).toMatchObject({ target: "full.lab", kind: "domain", listed_count: 0 })
    expect([...r.reports.blocklist.ips].sort()).toEqual([ADDR.good.v4, ADDR.good.v6, ADDR.mx.v4, ADDR.mx.v6].sort())
    for (const s of ["web", "mail", "dns", "exposure"]) expect(typeof r.timings_ms[s]).toBe("number")
    expect(r.timings_ms.total).toBeGreaterThanOrEqual(Math.max(r.timings_ms.web, r.timings_ms.mail, r.timings_ms.dns, r.timings_ms.exposure))
  })
})

/** Where each check fails, and the severity its failure weighs there. */
const FAILS: ReadonlyArray<readonly [CheckId, string, string]> = [
  ["web_reachable", "down.lab", "critical"],
  ["web_ipv6", "bare.lab", "medium"],
  ["web_ipv6", "down.lab", "medium"],
  ["web_ipv6_same_content", "weak.lab", "low"],
  ["web_https", "weak.lab", "high"],
  ["web_https", "bare.lab", "high"],
  ["web_https_redirect", "bare.lab", "medium"],
  ["web_hsts", "weak.lab", "medium"],
  ["web_tls", "weak.lab", "high"],
  ["web_security_headers", "bare.lab", "medium"],
  ["web_security_txt", "weak.lab", "low"],
  ["web_security_txt", "bare.lab", "low"],
  ["mail_spf", "bare.lab", "high"],
  ["mail_spf", "nomail.lab", "high"],
  ["mail_dmarc", "weak.lab", "high"],
  ["mail_dmarc", "nomail.lab", "high"],
  ["mail_dkim", "weak.lab", "medium"],
  ["mail_dkim", "bare.lab", "medium"],
  ["mail_mta_sts", "bare.lab", "low"],
  ["mail_tls_rpt", "weak.lab", "low"],
  ["mail_dane", "weak.lab", "low"],
  ["mail_ipv6", "weak.lab", "low"],
  ["mail_starttls", "bare.lab", "high"],
  ["mail_blocklist", "bare.lab", "high"],
  ["dns_dnssec", "bare.lab", "medium"],
  ["dns_zone", "bare.lab", "medium"],
  ["dns_ipv6", "weak.lab", "low"],
  ["dns_ipv6", "bare.lab", "low"],
  ["dns_caa", "bare.lab", "low"],
  ["exposure_takeover", "bare.lab", "high"],
  ["exposure_blocklist", "bare.lab", "high"]
]

describe("every check fails on its planted domain", () => {
  test("the table covers every check id", () => {
    expect(new Set(FAILS.map(([id]) => id))).toEqual(new Set(CHECK_IDS))
  })

  test.each(FAILS)("%s fails on %s (%s), with a finding that says so", (id, domain, severity) => {
    const r = reports.get(domain)
    const c = checkOf(r, id)
    expect({ id, passed: c.passed, severity: c.severity }).toEqual({ id, passed: false, severity })
    expect(c.summary).toStartWith(CHECKS[id].summary.fail)
    const f = r.findings.find((x: any) => x.check === id)
    expect(f).toMatchObject({ section: CHECKS[id].section, severity, message: c.summary, recommendation: CHECKS[id].recommendation })
    expect(r.recommendations).toContain(CHECKS[id].recommendation)
  })

  test("what each planted fault shows", () => {
    expect(checkOf(reports.get("weak.lab"), "web_ipv6_same_content").summary).toContain("the pages differ by")
    expect(checkOf(reports.get("weak.lab"), "dns_ipv6").summary).toContain(`ns2.weak.lab (${ADDR.silentV6})`)
    expect(checkOf(reports.get("down.lab"), "web_ipv6").summary).toContain(`${ADDR.down.v6} answered neither on 443 nor on 80`)
    expect(checkOf(reports.get("bare.lab"), "mail_blocklist").summary).toContain(`${ADDR.mxPlain.v4} on ip.dnsbl.lab`)
    expect(checkOf(reports.get("bare.lab"), "exposure_blocklist").summary).toContain("bare.lab on dom.dnsbl.lab")
    expect(checkOf(reports.get("bare.lab"), "exposure_takeover").summary).toContain("1 potential")
    expect(reports.get("bare.lab").reports.takeover.candidates.map((c: any) => c.name)).toEqual(["shop.bare.lab"])
    expect(checkOf(reports.get("weak.lab"), "mail_dkim").summary).toContain("512 bits")
  })

  test("findings come most severe first; a section's score is 100 minus its failed checks' weights", () => {
    const weights: Record<string, number> = { critical: 30, high: 18, medium: 8, low: 3 }
    for (const [d, r] of reports) {
      const ranks = r.findings.map((f: any) => ["low", "medium", "high", "critical"].indexOf(f.severity))
      expect({ d, ranks }).toEqual({ d, ranks: [...ranks].sort((a: number, b: number) => b - a) })
      for (const s of ["web", "mail", "dns", "exposure"]) {
        const lost = r.sections[s].checks.filter((c: any) => c.passed === false).reduce((n: number, c: any) => n + weights[c.severity], 0)
        expect({ d, s, score: r.sections[s].score }).toEqual({ d, s, score: Math.max(0, 100 - lost) })
      }
      const complete = ["web", "mail", "dns", "exposure"].filter((s) => r.sections[s].status === "complete").map((s) => r.sections[s].score)
      expect({ d, score: r.score }).toEqual({ d, score: Math.round(complete.reduce((a: number, b: number) => a + b, 0) / complete.length) })
    }
  })
})

describe("what does not apply is null and leaves its section complete", () => {
  test("a domain without MX is judged on SPF -all and DMARC reject only; a null MX likewise", () => {
    for (const [d, passed] of [["nomail.lab", false], ["nullmx.lab", true], ["down.lab", true]] as const) {
      const mail = reports.get(d).sections.mail
      expect({ d, status: mail.status }).toEqual({ d, status: "complete" })
      expect(mail.checks.slice(0, 2).map((c: any) => c.passed)).toEqual([passed, passed])
      for (const c of mail.checks.slice(2)) expect({ d, id: c.id, passed: c.passed }).toEqual({ d, id: c.id, passed: null })
    }
    expect(checkOf(reports.get("nomail.lab"), "mail_spf").summary).toContain("a domain that receives no mail should say v=spf1 -all")
  })

  test("a site that answers nothing fails reachability, HTTPS and HSTS only; the checks of its reports do not apply", () => {
    const r = reports.get("down.lab")
    expect(r.sections.web.status).toBe("complete")
    for (const id of ["web_reachable", "web_https", "web_hsts", "web_ipv6"] as const) expect(checkOf(r, id).passed).toBe(false)
    for (const id of ["web_ipv6_same_content", "web_https_redirect", "web_tls", "web_security_headers", "web_security_txt"] as const) {
      expect({ id, passed: checkOf(r, id).passed }).toEqual({ id, passed: null })
    }
    expect(r.reports.security_headers).toBeNull()
    expect(r.reports.tls).toBeNull()
  })

  test("STARTTLS is tested only when asked", async () => {
    const r = await audit("domain=full.lab&sections=mail")
    expect(checkOf(r.body, "mail_starttls")).toMatchObject({ passed: null, summary: "STARTTLS was not tested: starttls=true was not asked" })
    expect(r.body.sections.mail.status).toBe("complete")
    expect(r.body.reports.email.starttls).toBeNull()
  }, 60_000)
})

describe("the web host", () => {
  test("is www.<domain> when the domain has no A or AAAA; its addresses are checked on the blocklists beside the domain's", () => {
    const r = reports.get("weak.lab")
    expect(r.reports.security_headers.url).toBe("http://www.weak.lab/")
    expect(r.reports.tls.host).toBe("www.weak.lab")
    expect(checkOf(r, "web_reachable").summary).toContain("https://www.weak.lab/")
    expect(r.reports.blocklist.ips).toEqual(expect.arrayContaining([ADDR.self.v4, ADDR.otherV6, ADDR.mx.v4]))
    const items = new Set(r.reports.blocklist.lists.map((l: any) => l.item))
    for (const item of ["weak.lab", ADDR.self.v4, ADDR.otherV6]) expect(items.has(item)).toBe(true)
  })
})

describe("sections", () => {
  test("only those asked run; the others are skipped, with no checks, timings or reports", async () => {
    const r = (await audit("domain=full.lab&sections=mail,dns")).body
    expect(r.sections.web).toEqual({ status: "skipped", score: null, grade: null, checks: [] })
    expect(r.sections.exposure).toEqual({ status: "skipped", score: null, grade: null, checks: [] })
    expect(r.sections.mail.status).toBe("complete")
    expect(r.timings_ms.web).toBeNull()
    expect(r.timings_ms.exposure).toBeNull()
    expect(r.reports.security_headers).toBeNull()
    expect(r.reports.tls).toBeNull()
    expect(r.reports.takeover).toBeNull()
    expect(r.reports.email).not.toBeNull()
    expect(r.reports.zone_hygiene).not.toBeNull()
    // The MX addresses only: the web addresses are exposure's.
    expect([...r.reports.blocklist.ips].sort()).toEqual([ADDR.good.v4, ADDR.good.v6, ADDR.mx.v4, ADDR.mx.v6].sort())
    const web = (await audit("domain=full.lab&sections=web")).body
    expect(web.reports.blocklist).toBeNull()
    expect(web.reports.email).toBeNull()
    expect(web.score).toBe(100)
  }, 60_000)
})

describe("inputs that cannot be had", () => {
  test("a list that never answers: the blocklist checks are null, their sections incomplete, the reason in limitations", async () => {
    const r = (await audit("domain=full.lab&sections=mail,exposure", "faulty")).body
    for (const s of ["mail", "exposure"]) expect(r.sections[s].status).toBe("incomplete")
    expect(checkOf(r, "mail_blocklist").passed).toBeNull()
    expect(checkOf(r, "exposure_blocklist").passed).toBeNull()
    expect(r.limitations.some((l: string) => l.startsWith("mail: ") && l.includes("slow.dnsbl.lab") && l.endsWith("(not decided: mail_blocklist)"))).toBe(true)
    expect(r.limitations.some((l: string) => l.startsWith("exposure: ") && l.endsWith("(not decided: exposure_blocklist)"))).toBe(true)
    // No complete section: no overall score.
    expect(r.score).toBeNull()
    expect(r.grade).toBeNull()
    expect(r.findings).toEqual([])
  }, 60_000)

  test("a site that does not answer within AUDIT_DEADLINE_MS: its checks are null, not failed; the answer still comes", async () => {
    const r = (await audit("domain=slow.lab&sections=web,dns", "faulty")).body
    expect(r.sections.web.status).toBe("incomplete")
    for (const id of ["web_reachable", "web_https", "web_hsts", "web_tls", "web_security_headers"] as const) expect({ id, passed: checkOf(r, id).passed }).toEqual({ id, passed: null })
    expect(r.limitations).toContain("web: the fetch of slow.lab: no result within the audit's 4000 ms (AUDIT_DEADLINE_MS) (not decided: web_reachable, web_https, web_hsts)")
    expect(r.findings.map((f: any) => f.check)).toEqual(["web_ipv6"])
    expect(r.sections.dns.status).toBe("complete")
    expect(r.score).toBe(r.sections.dns.score)
  }, 60_000)

  test("addresses the guard refuses (ALLOW_PRIVATE_TARGETS off) are not contacted: their checks are null", async () => {
    const r = (await audit("domain=full.lab&sections=web,dns", "guarded")).body
    expect(r.sections.web.status).toBe("incomplete")
    expect(r.sections.dns.status).toBe("incomplete")
    expect(checkOf(r, "web_ipv6")).toMatchObject({ passed: null })
    expect(checkOf(r, "web_ipv6").summary).toContain(`${ADDR.good.v6} is a non-public address, not contacted`)
    expect(checkOf(r, "dns_ipv6").passed).toBeNull()
    expect(checkOf(r, "web_reachable").summary).toContain("full.lab resolves to a non-public address")
    expect(r.findings).toEqual([])
  }, 60_000)
})

describe("errors", () => {
  test.each([
    ["", "domain"],
    ["domain=", "domain"],
    ["domain=192.0.2.1", "IP address"],
    ["domain=https://full.lab/path", "path"],
    ["domain=full.lab&sections=web,nope", 'unknown section "nope"'],
    ["domain=full.lab&sections=", "name at least one section"],
    ["domain=full.lab&sections=web,mail,dns,exposure,web", "at most 4 sections"],
    ["domain=full.lab&starttls=maybe", "starttls"]
  ])("%p is 400 invalid_request", async (query, says) => {
    const r = await audit(query)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("invalid_request")
    expect(r.body.error.message).toContain(says)
  })

  test("a domain that does not exist is 404 not_found", async () => {
    const r = await audit("domain=nowhere.lab")
    expect(r).toEqual({ status: 404, body: { error: { code: "not_found", message: "nowhere.lab does not exist (NXDOMAIN)" } } })
  })

  test("the service's own resolver silent: 502 upstream_unavailable, never a report or 404", async () => {
    for (const d of ["full.lab", "nowhere.lab"]) {
      const r = await audit(`domain=${d}`, "broken")
      expect(r.status).toBe(502)
      expect(r.body.error.code).toBe("upstream_unavailable")
      expect(r.body.error.message).toContain("the service's DNS resolvers cannot answer for the root zone")
    }
  }, 30_000)

  test("the free plan is refused: a developer operation", async () => {
    const res = await world.call("main", "/v1/domain/audit?domain=full.lab", world.keys.free)
    expect(res.status).toBe(403)
  })
})
