/** The domain audit's scores: sections, the overall score and grade, findings and limitations, and the report schema. */
import { describe, expect, test } from "bun:test"
import { Schema } from "effect"
import { CHECK_IDS, type CheckId, checksOf } from "../../../src/analyses/audit/checks"
import { decided, notApplicable, undecided, type CheckResult } from "../../../src/analyses/audit/judge"
import { DomainAuditReport } from "../../../src/analyses/audit/schema"
import { sectionScore, summarizeAudit, summarizeSection } from "../../../src/analyses/audit/score"
import { gradeOf } from "../../../src/analyses/zone/model/findings"
import * as fx from "./fixtures"

const passAll = (ids: ReadonlyArray<CheckId>) => ids.map((id) => decided(id, true))
const failing = (ids: ReadonlyArray<CheckId>, failed: ReadonlyArray<CheckId>) => ids.map((id) => decided(id, !failed.includes(id)))

describe("a section", () => {
  test.each<[string, ReadonlyArray<CheckResult>, number]>([
    ["all passed", passAll(checksOf("web")), 100],
    ["one medium failure", failing(checksOf("web"), ["web_hsts"]), 92],
    ["critical + high + medium + low", failing(checksOf("web"), ["web_reachable", "web_https", "web_hsts", "web_security_txt"]), 100 - 30 - 18 - 8 - 3],
    ["escalated severity counts", [decided("web_tls", false, "grade F", "high")], 82],
    // 30 + 18 + 18 (web_tls escalated) + 4 × 8 + 2 × 3 = 104 points
    ["floor 0", [...failing(checksOf("web").filter((id) => id !== "web_tls"), checksOf("web")), decided("web_tls", false, "grade F", "high")], 0],
    ["null checks do not count", [notApplicable("mail_starttls", "STARTTLS was not tested"), undecided("mail_spf", "timeout")], 100]
  ])("%s scores %d", (_, checks, score) => {
    expect(sectionScore(checks)).toBe(score)
  })

  test("complete, incomplete (an input missing), skipped", () => {
    expect(summarizeSection(passAll(checksOf("dns")))).toMatchObject({ status: "complete", score: 100, grade: "A" })
    const partial = [...failing(checksOf("dns").slice(0, 3), ["dns_zone"]), undecided("dns_caa", "the CAA records could not be read")]
    expect(summarizeSection(partial)).toMatchObject({ status: "incomplete", score: 92, grade: "A" })
    expect(summarizeSection(partial).checks[3]).toEqual({ id: "dns_caa", passed: null, severity: "low", summary: "CAA could not be checked: the CAA records could not be read" })
    // A check that does not apply leaves the section complete.
    expect(summarizeSection([notApplicable("mail_starttls", "STARTTLS was not tested: starttls=true was not asked")]).status).toBe("complete")
    expect(summarizeSection(null)).toEqual({ status: "skipped", score: null, grade: null, checks: [] })
  })

  test("grades are Zone Hygiene's (A >= 90, B >= 80, C >= 70, D >= 60, else F)", () => {
    for (const [failed, grade] of [[["web_security_txt"], "A"], [["web_https"], "B"], [["web_https", "web_hsts"], "C"], [["web_reachable", "web_hsts"], "D"], [["web_reachable", "web_https"], "F"]] as const) {
      const s = summarizeSection(failing(checksOf("web"), failed))
      expect(s.grade).toBe(grade)
      expect(s.grade).toBe(gradeOf(s.score!))
    }
  })
})

describe("the audit", () => {
  test("overall: the rounded mean of the complete sections only; incomplete and skipped ones do not count", () => {
    const s = summarizeAudit({
      web: failing(checksOf("web"), ["web_hsts"]), // 92
      mail: failing(checksOf("mail"), ["mail_tls_rpt"]), // 97
      dns: [...passAll(checksOf("dns").slice(1)), undecided("dns_dnssec", "no DNSKEY answer")], // incomplete
      exposure: null
    })
    expect(s.sections.web).toMatchObject({ status: "complete", score: 92 })
    expect(s.sections.mail).toMatchObject({ status: "complete", score: 97 })
    expect(s.sections.dns.status).toBe("incomplete")
    expect(s.sections.exposure.status).toBe("skipped")
    expect(s.score).toBe(95) // (92 + 97) / 2 = 94.5, rounded
    expect(s.grade).toBe("A")
  })

  test("no complete section: score and grade null", () => {
    const s = summarizeAudit({ web: [undecided("web_reachable", "the deadline passed")] })
    expect(s.score).toBeNull()
    expect(s.grade).toBeNull()
    expect(s.sections.mail.status).toBe("skipped")
  })

  test("findings: one per failed check with its section, most severe first; recommendations once each", () => {
    const s = summarizeAudit({
      web: failing(checksOf("web"), ["web_security_txt", "web_hsts"]),
      exposure: [decided("exposure_takeover", false, "1 confirmed", "critical"), decided("exposure_blocklist", false, "good.lab on dbl.example")]
    })
    expect(s.findings.map((f) => [f.section, f.check, f.severity])).toEqual([
      ["exposure", "exposure_takeover", "critical"],
      ["exposure", "exposure_blocklist", "high"],
      ["web", "web_hsts", "medium"],
      ["web", "web_security_txt", "low"]
    ])
    expect(s.findings[0].message).toBe("A subdomain can be taken over: 1 confirmed")
    expect(s.recommendations).toHaveLength(4)
  })

  test("limitations: one per missing input and section, naming the checks it left undecided", () => {
    const why = "the email security report could not be made: the deadline passed"
    const s = summarizeAudit({ mail: checksOf("mail").map((id) => undecided(id, why)), web: [undecided("web_tls", "timeout")] }, ["exposure: cut by AUDIT_DEADLINE_MS"])
    expect(s.limitations).toEqual([
      "web: timeout (not decided: web_tls)",
      `mail: ${why} (not decided: ${checksOf("mail").join(", ")})`,
      "exposure: cut by AUDIT_DEADLINE_MS"
    ])
  })

  test("the whole report encodes through its schema, with every underlying report embedded", () => {
    const s = summarizeAudit({ web: passAll(checksOf("web")), mail: passAll(checksOf("mail")), dns: passAll(checksOf("dns")), exposure: passAll(checksOf("exposure")) })
    const report: typeof DomainAuditReport.Type = {
      domain: "good.lab",
      checked_at: "2026-05-01T10:00:00.000Z",
      timings_ms: { total: 900, web: 800, mail: 600, dns: 700, exposure: 850 },
      ...s,
      reports: { security_headers: fx.securityHeaders, tls: fx.tls, email: fx.email, zone_hygiene: fx.zone, takeover: fx.takeover, blocklist: fx.blocklist }
    }
    const wire = Schema.encodeSync(DomainAuditReport)(report)
    expect(Schema.decodeUnknownSync(DomainAuditReport)(JSON.parse(JSON.stringify(wire)))).toEqual(report)
    expect(wire.sections.web.checks.map((c) => c.id)).toEqual(checksOf("web") as Array<CheckId>)
    expect(Object.values(wire.sections).flatMap((x) => x.checks).map((c) => c.id)).toEqual([...CHECK_IDS])
    expect(wire.score).toBe(100)
  })
})
