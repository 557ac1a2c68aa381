/** The domain audit's judgement: every check id passes on a fully configured domain and fails on a planted fault. */
import { describe, expect, test } from "bun:test"
import { CHECK_IDS, CHECKS, type CheckId, checksOf, SECTIONS } from "../../../src/analyses/audit/checks"
import { type CheckResult, judgeWeb, type WebInputs } from "../../../src/analyses/audit/judge"
import { judgeDns, judgeExposure, type DnsInputs, type ExposureInputs } from "../../../src/analyses/audit/judgeDns"
import { judgeMail, type MailInputs } from "../../../src/analyses/audit/judgeMail"
import * as fx from "./fixtures"

/** The inputs, writable so that one test can plant one fault. */
type Writable<T> = { -readonly [K in keyof T]: T[K] }
interface All {
  web: Writable<WebInputs>
  mail: Writable<MailInputs>
  dns: Writable<DnsInputs>
  exposure: Writable<ExposureInputs>
}

const good = (): All => ({
  web: { host: "good.lab", reach: fx.reach, ipv6: fx.webIpv6, securityHeaders: fx.securityHeaders, tls: fx.tls },
  mail: { email: fx.email, starttls: true, blocklist: fx.blocklist },
  dns: { zone: fx.zone, nameservers: fx.nameservers },
  exposure: { domain: "good.lab", takeover: { candidates: [] }, blocklist: fx.blocklist, webAddresses: fx.webAddresses }
})

const judgeAll = (a: All): ReadonlyArray<CheckResult> => [...judgeWeb(a.web), ...judgeMail(a.mail), ...judgeDns(a.dns), ...judgeExposure(a.exposure)]
const result = (a: All, id: CheckId) => judgeAll(a).find((c) => c.id === id)!

const listed = (item: string, zone = "zen.spamhaus.org") => ({
  ...fx.blocklist,
  lists: fx.blocklist.lists.map((l) => (l.item === item && l.zone === zone ? { ...l, status: "listed" as const, codes: ["127.0.0.2"], reason: "https://www.spamhaus.org/query/ip/x" } : l)),
  listed_count: 1
})
const tlsGrade = (grade: typeof fx.tls.grade) => ({ ...fx.tls, grade })

/** One planted fault per check id: the mutation and the words its summary carries. */
const faults: ReadonlyArray<readonly [CheckId, (a: All) => void, string]> = [
  ["web_reachable", (a) => void (a.web.reach = { https: null, http: null }), "answered on neither 443 nor 80"],
  ["web_ipv6", (a) => void (a.web.ipv6 = { ...fx.webIpv6, ipv6: [] }), "has no AAAA record"],
  ["web_ipv6_same_content", (a) => void (a.web.ipv6 = { ...fx.webIpv6, pages: { v4: "<p>Welcome to good.lab, our shop</p>", v6: "<h1>It works!</h1>" } }), "the pages differ by"],
  ["web_https", (a) => void (a.web.reach = { ...fx.reach, https: { ...fx.reach.https!, certificate_valid: false } }), "not valid for good.lab"],
  ["web_https_redirect", (a) => void (a.web.securityHeaders = { ...fx.securityHeaders, tests: { ...fx.securityHeaders.tests, redirection: { ...fx.securityHeaders.tests.redirection, pass: false, result: "redirection-missing" } } }), "redirection-missing"],
  ["web_hsts", (a) => void (a.web.reach = { ...fx.reach, https: { ...fx.reach.https!, hsts: "max-age=15768000" } }), "max-age=15768000"],
  ["web_tls", (a) => void (a.web.tls = tlsGrade("B")), "grade B"],
  ["web_security_headers", (a) => void (a.web.securityHeaders = { ...fx.securityHeaders, grade: "B-" }), "grade B-"],
  ["web_security_txt", (a) => void (a.web.securityHeaders = { ...fx.securityHeaders, extras: { ...fx.securityHeaders.extras, security_txt: { ...fx.securityHeaders.extras.security_txt, expired: true, expires: "2025-01-01T00:00:00.000Z" } } }), "expired 2025-01-01"],
  ["mail_spf", (a) => void (a.mail.email = { ...fx.email, spf: { ...fx.email.spf, record: "v=spf1 mx ?all", all: "neutral" } }), "ends in ?all"],
  ["mail_dmarc", (a) => void (a.mail.email = { ...fx.email, dmarc: { ...fx.email.dmarc, record: "v=DMARC1; p=none", policy: "none" } }), "p=none"],
  ["mail_dkim", (a) => void (a.mail.email = { ...fx.email, dkim: { ...fx.email.dkim, selectors_found: [{ selector: "old", key_type: "rsa", key_bits: 512, testing: false, revoked: false }] } }), "old: 512 bits"],
  ["mail_mta_sts", (a) => void (a.mail.email = { ...fx.email, mta_sts: { ...fx.email.mta_sts, policy: { ...fx.email.mta_sts.policy!, mode: "none" } } }), "mode none"],
  ["mail_tls_rpt", (a) => void (a.mail.email = { ...fx.email, tls_rpt: { record: null, rua: [], valid: false, errors: [] } }), "no _smtp._tls record"],
  ["mail_dane", (a) => void (a.mail.email = { ...fx.email, dane: { mx: [fx.email.dane.mx[0]] } }), "mx2.good.lab"],
  ["mail_ipv6", (a) => void (a.mail.email = { ...fx.email, mx: { ...fx.email.mx, records: [fx.email.mx.records[0], { ...fx.email.mx.records[1], ips: ["127.53.7.26"] }] } }), "no AAAA record for mx2.good.lab"],
  ["mail_starttls", (a) => void (a.mail.email = { ...fx.email, starttls: [fx.email.starttls![0], { ...fx.email.starttls![1], tls_version: "TLSv1" }] }), "mx2.good.lab (127.53.7.26): TLSv1"],
  ["mail_blocklist", (a) => void (a.mail.blocklist = listed("127.53.7.25")), "127.53.7.25 on zen.spamhaus.org"],
  ["dns_dnssec", (a) => void (a.dns.zone = { ...fx.zone, composite: { ...fx.zone.composite, dnssec_status: "insecure" } }), "insecure"],
  ["dns_zone", (a) => void (a.dns.zone = { ...fx.zone, hygiene_grade: "C", hygiene_score: 72 }), "grade C (72)"],
  ["dns_ipv6", (a) => void (a.dns.nameservers = [fx.nameservers[0], { name: "ns2.good.lab", ipv6: [] }]), "only ns1.good.lab answers"],
  ["dns_caa", (a) => void (a.dns.zone = { ...fx.zone, caa: { found_at: null, records: [], issue: [], issuewild: [] }, composite: { ...fx.zone.composite, has_caa: false } }), "No CAA record applies"],
  ["exposure_takeover", (a) => void (a.exposure.takeover = { candidates: [{ confidence: "potential" }, { confidence: "unlikely" }] }), "1 potential"],
  ["exposure_blocklist", (a) => void (a.exposure.blocklist = listed("good.lab", "dbl.spamhaus.org")), "good.lab on dbl.spamhaus.org"]
]

describe("the catalogue", () => {
  test("every check id has its section, severity, rule, summaries and a recommendation; sections list them in order", () => {
    for (const id of CHECK_IDS) {
      const c = CHECKS[id]
      expect(c).toBeDefined()
      expect(c.id).toBe(id)
      expect(id.startsWith(c.section)).toBe(true)
      expect(c.rule.length * c.summary.pass.length * c.summary.fail.length * c.summary.unknown.length * c.recommendation.length).toBeGreaterThan(0)
    }
    expect(SECTIONS.flatMap(checksOf)).toEqual([...CHECK_IDS])
    expect(CHECK_IDS).toHaveLength(24)
  })

  test("the severities of docs/operations/domain-audit.md", () => {
    const sev = Object.fromEntries(CHECK_IDS.map((id) => [id, CHECKS[id].severity]))
    expect(sev).toMatchObject({
      web_reachable: "critical", web_ipv6: "medium", web_ipv6_same_content: "low", web_https: "high", web_https_redirect: "medium",
      web_hsts: "medium", web_tls: "medium", web_security_headers: "medium", web_security_txt: "low",
      mail_spf: "high", mail_dmarc: "high", mail_dkim: "medium", mail_mta_sts: "low", mail_tls_rpt: "low", mail_dane: "low",
      mail_ipv6: "low", mail_starttls: "high", mail_blocklist: "high",
      dns_dnssec: "medium", dns_zone: "medium", dns_ipv6: "low", dns_caa: "low",
      exposure_takeover: "high", exposure_blocklist: "high"
    })
    expect(CHECKS.web_tls.escalation?.severity).toBe("high")
    expect(CHECKS.exposure_takeover.escalation?.severity).toBe("critical")
  })
})

describe("every check passes on a fully configured domain", () => {
  const all = judgeAll(good())
  test("24 results in catalogue order, every one passed", () => {
    expect(all.map((c) => c.id)).toEqual([...CHECK_IDS])
    expect(all.filter((c) => c.passed !== true).map((c) => `${c.id}: ${c.summary}`)).toEqual([])
    expect(all.every((c) => c.missing === null)).toBe(true)
  })
})

describe("and fails on its planted fault", () => {
  test.each(faults.map(([id, mutate, words]) => [id, mutate, words] as const))("%s", (id, mutate, words) => {
    const a = good()
    mutate(a)
    const all = judgeAll(a)
    const r = all.find((c) => c.id === id)!
    expect(r.passed).toBe(false)
    expect(r.summary).toContain(CHECKS[id].summary.fail)
    expect(r.summary).toContain(words)
    expect(r.missing).toBeNull()
    // Only the planted check fails; a host that answers nothing has no https answer either.
    const alsoFailing: Partial<Record<CheckId, ReadonlyArray<CheckId>>> = { web_reachable: ["web_https", "web_hsts"] }
    expect(all.filter((c) => c.passed === false).map((c) => c.id)).toEqual([id, ...(alsoFailing[id] ?? [])])
  })

  test("the fault table covers every check id", () => {
    expect(faults.map(([id]) => id).sort()).toEqual([...CHECK_IDS].sort())
  })
})

describe("severity escalations", () => {
  test.each([["A-", true, "medium"], ["B", false, "medium"], ["C", false, "high"], ["F", false, "high"], ["T", false, "high"], ["M", false, "high"]] as const)(
    "web_tls grade %s", (grade, passed, severity) => {
      const a = good()
      a.web.tls = tlsGrade(grade)
      expect(result(a, "web_tls")).toMatchObject({ passed, severity })
    }
  )

  test("exposure_takeover: critical when a candidate is confirmed, high when potential, pass when only unlikely", () => {
    const a = good()
    a.exposure.takeover = { candidates: [{ confidence: "confirmed" }, { confidence: "potential" }] }
    expect(result(a, "exposure_takeover")).toMatchObject({ passed: false, severity: "critical" })
    a.exposure.takeover = { candidates: [{ confidence: "potential" }] }
    expect(result(a, "exposure_takeover")).toMatchObject({ passed: false, severity: "high" })
    a.exposure.takeover = { candidates: [{ confidence: "unlikely" }] }
    expect(result(a, "exposure_takeover")).toMatchObject({ passed: true, severity: "high" })
  })
})

describe("the mail rule for a domain that receives no mail", () => {
  const noMx = (nullMx: boolean, spf: string, all: "fail" | "softfail", policy: "reject" | "quarantine"): All => {
    const a = good()
    a.mail.email = {
      ...fx.email,
      mx: { records: [], null_mx: nullMx },
      spf: { ...fx.email.spf, record: spf, all },
      dmarc: { ...fx.email.dmarc, policy },
      dkim: { ...fx.email.dkim, selectors_found: [] },
      mta_sts: { record: null, id: null, policy: null, valid: false, errors: [] },
      dane: { mx: [] },
      starttls: []
    }
    return a
  }
  const mail = (a: All) => judgeMail(a.mail)

  test.each([true, false])("null MX %p: only SPF -all and DMARC p=reject are judged; the rest does not apply", (nullMx) => {
    const checks = mail(noMx(nullMx, "v=spf1 -all", "fail", "reject"))
    expect(checks.map((c) => [c.id, c.passed])).toEqual([
      ["mail_spf", true], ["mail_dmarc", true], ["mail_dkim", null], ["mail_mta_sts", null], ["mail_tls_rpt", null],
      ["mail_dane", null], ["mail_ipv6", null], ["mail_starttls", null], ["mail_blocklist", null]
    ])
    expect(checks.every((c) => c.missing === null)).toBe(true)
    expect(checks[2].summary).toBe(`Does not apply: ${nullMx ? "the domain accepts no mail (null MX)" : "the domain has no MX record"}`)
  })

  test("~all and p=quarantine, enough for a mail domain, fail a domain that receives no mail", () => {
    const checks = mail(noMx(false, "v=spf1 ~all", "softfail", "quarantine"))
    expect(checks[0]).toMatchObject({ passed: false })
    expect(checks[0].summary).toContain("should say v=spf1 -all")
    expect(checks[1]).toMatchObject({ passed: false })
    expect(checks[1].summary).toContain("should say p=reject")
  })

  test("with MX, ~all and p=quarantine pass", () => {
    const a = good()
    a.mail.email = { ...fx.email, spf: { ...fx.email.spf, all: "softfail" }, dmarc: { ...fx.email.dmarc, policy: "quarantine" } }
    expect(judgeMail(a.mail).slice(0, 2).map((c) => c.passed)).toEqual([true, true])
  })
})

describe("undecided and not applicable", () => {
  test("mail_starttls is null unless starttls was asked, and leaves the section complete", () => {
    const a = good()
    a.mail.starttls = false
    expect(result(a, "mail_starttls")).toEqual({ id: "mail_starttls", passed: null, severity: "high", summary: "STARTTLS was not tested: starttls=true was not asked", missing: null })
  })

  test("IPv6 content: not applicable without IPv6; undecided (an input missing) when the pages could not be fetched", () => {
    const a = good()
    a.web.ipv6 = { ...fx.webIpv6, ipv6: [] }
    expect(result(a, "web_ipv6_same_content")).toMatchObject({ passed: null, missing: null, summary: "Not compared: the web host does not answer over IPv6" })
    a.web.ipv6 = { ...fx.webIpv6, pages: null }
    expect(result(a, "web_ipv6_same_content")).toMatchObject({ passed: null, missing: "the page could not be fetched over both IPv4 and IPv6" })
  })

  test("an unavailable report leaves exactly its checks null with the reason", () => {
    const a = good()
    a.web.tls = { unavailable: "the TLS scan of good.lab:443 timed out" }
    a.mail.email = { unavailable: "the deadline passed" }
    const all = judgeAll(a)
    expect(all.filter((c) => c.passed === null).map((c) => c.id)).toEqual([
      "web_tls", "mail_spf", "mail_dmarc", "mail_dkim", "mail_mta_sts", "mail_tls_rpt", "mail_dane", "mail_ipv6", "mail_starttls", "mail_blocklist"
    ])
    expect(all.find((c) => c.id === "web_tls")!.missing).toBe("the TLS scan of good.lab:443 timed out")
    expect(all.filter((c) => c.passed === false)).toEqual([])
  })

  test("a blocklist error is undecided, never 'not listed'; a listing elsewhere still fails", () => {
    const a = good()
    const err = { ...fx.blocklist, lists: fx.blocklist.lists.map((l) => (l.item === "127.53.7.26" ? { ...l, status: "error" as const, reason: "zen.spamhaus.org failed its RFC 5782 test points" } : l)) }
    a.mail.blocklist = err
    expect(result(a, "mail_blocklist")).toMatchObject({ passed: null })
    expect(result(a, "mail_blocklist").missing).toContain("127.53.7.26 on zen.spamhaus.org")
    a.mail.blocklist = { ...err, lists: err.lists.map((l) => (l.item === "127.53.7.25" ? { ...l, status: "listed" as const, codes: ["127.0.0.2"] } : l)) }
    expect(result(a, "mail_blocklist")).toMatchObject({ passed: false })
  })

  test("an address the blocklist report does not hold is undecided", () => {
    const a = good()
    a.exposure.webAddresses = ["127.0.0.99"]
    expect(result(a, "exposure_blocklist").missing).toBe("127.0.0.99 was not checked on any blocklist")
  })

  test("DNSSEC indeterminate and unreadable CAA are undecided", () => {
    const a = good()
    a.dns.zone = { ...fx.zone, caa: null, composite: { ...fx.zone.composite, dnssec_status: "indeterminate", dnssec_reason: "no answer for DNSKEY" } }
    const dns = judgeDns(a.dns)
    expect(dns.filter((c) => c.passed === null).map((c) => [c.id, c.missing])).toEqual([
      ["dns_dnssec", "DNSSEC could not be determined (no answer for DNSKEY)"],
      ["dns_caa", "the CAA records could not be read"]
    ])
  })

  test("web_security_txt without a valid Expires fails; web_hsts over the bar passes at exactly one year", () => {
    const a = good()
    a.web.securityHeaders = { ...fx.securityHeaders, extras: { ...fx.securityHeaders.extras, security_txt: { ...fx.securityHeaders.extras.security_txt, expired: null, expires: null } } }
    expect(result(a, "web_security_txt")).toMatchObject({ passed: false })
    a.web.reach = { ...fx.reach, https: { ...fx.reach.https!, hsts: "max-age=31536000" } }
    expect(result(a, "web_hsts").passed).toBe(true)
    a.web.reach = { ...fx.reach, https: { ...fx.reach.https!, hsts: "max-age=31536000; max-age=1" } }
    expect(result(a, "web_hsts")).toMatchObject({ passed: false })
  })
})

describe("a site that does not answer", () => {
  test("fails reachability, HTTPS and HSTS; the checks of its reports do not apply, whatever those inputs are", () => {
    const a = good()
    a.web.reach = { https: null, http: null }
    a.web.securityHeaders = { unavailable: "the security headers of good.lab: good.lab could not be reached over http or https" }
    a.web.tls = { unavailable: "the TLS scan of good.lab:443: no connection" }
    const web = judgeWeb(a.web)
    const by = (id: CheckId) => web.find((c) => c.id === id)!
    for (const id of ["web_reachable", "web_https", "web_hsts"] as const) expect(by(id).passed).toBe(false)
    for (const id of ["web_https_redirect", "web_tls", "web_security_headers", "web_security_txt"] as const) {
      expect({ id, passed: by(id).passed, missing: by(id).missing }).toEqual({ id, passed: null, missing: null })
      expect(by(id).summary).toStartWith("Not graded: good.lab ")
    }
  })

  test("http only: web_tls does not apply (web_https fails), the headers' checks are judged from their report", () => {
    const a = good()
    a.web.reach = { https: null, http: { status: 200 } }
    const web = judgeWeb(a.web)
    expect(web.find((c) => c.id === "web_tls")).toMatchObject({ passed: null, missing: null })
    expect(web.find((c) => c.id === "web_security_headers")!.passed).toBe(true)
  })

  test("a reach that could not be had leaves the report checks to their reports", () => {
    const a = good()
    a.web.reach = { unavailable: "the fetch of good.lab: good.lab resolves to a non-public address" }
    const web = judgeWeb(a.web)
    expect(web.find((c) => c.id === "web_reachable")).toMatchObject({ passed: null, missing: "the fetch of good.lab: good.lab resolves to a non-public address" })
    expect(web.find((c) => c.id === "web_tls")!.passed).toBe(true)
  })
})
