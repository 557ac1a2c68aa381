/** The pure cores of Email Security: table tests (record parsing, discovery rules, findings). */
import { describe, expect, test } from "bun:test"
import { generateKeyPairSync } from "node:crypto"
import { parseReply } from "../../../src/adapters/smtp/Starttls"
import { bimiReport } from "../../../src/analyses/mail/bimi"
import { daneMx, tlsaProblem } from "../../../src/analyses/mail/dane"
import { dkimKeyAt, parseDkimKey, selectorsToCheck, COMMON_SELECTORS } from "../../../src/analyses/mail/dkim"
import { dmarcReport, externalDestinations, organizationalDomain, parseDmarc } from "../../../src/analyses/mail/dmarc"
import { found, type Lookup } from "../../../src/analyses/mail/lookup"
import { mtaStsReport, mxMatches, parsePolicy, parseStsTxt } from "../../../src/analyses/mail/mtaSts"
import { mxReport } from "../../../src/analyses/mail/mx"
import { reverseName } from "../../../src/analyses/mail/resolverDns"
import { tlsRptReport } from "../../../src/analyses/mail/tlsRpt"

const none: Lookup<string> = { _tag: "Void", rcode: "NOERROR" }

describe("DMARC", () => {
  test.each([
    ["v=DMARC1; p=reject; sp=none; pct=50; rua=mailto:a@x.org!10m,mailto:b@y.org; adkim=s; aspf=r", { policy: "reject", subdomain_policy: "none", pct: 50, rua: ["mailto:a@x.org", "mailto:b@y.org"], adkim: "s", aspf: "r", errors: [] }],
    ["v=DMARC1;p=none", { policy: "none", pct: null, errors: [] }],
    ["v=DMARC1; rua=mailto:a@x.org", { policy: null, errors: ["the required p= tag is missing"] }],
    ["v=DMARC1; p=block", { policy: null, errors: ["p=block is not none, quarantine or reject"] }],
    ["p=reject; v=DMARC1", { errors: ["the record must start with v=DMARC1"] }],
    ["v=DMARC1; p=reject; pct=150", { errors: ["pct=150 is not an integer from 0 to 100"] }],
    ["v=DMARC1; p=reject; p=none", { errors: ["tag p appears more than once"] }],
    ["v=DMARC1; p=reject; rua=reports@x.org", { rua: [], errors: ['rua: "reports@x.org" is not a mailto: URI'] }]
  ])("%s", (record, expected) => {
    expect(parseDmarc(record)).toMatchObject(expected as any)
  })

  test("organizational domain from the public suffix list", () => {
    expect(organizationalDomain("a.b.example.co.uk")).toBe("example.co.uk")
    expect(organizationalDomain("mail.example.com")).toBe("example.com")
    expect(organizationalDomain("example.com")).toBe("example.com")
  })

  test("external destinations: another organizational domain only", () => {
    expect(externalDestinations("example.com", ["mailto:d@example.com", "mailto:d@reports.example.com", "mailto:x@vendor.net"], ["mailto:f@other.org"])).toEqual([
      { uri: "mailto:x@vendor.net", kind: "rua", domain: "vendor.net" },
      { uri: "mailto:f@other.org", kind: "ruf", domain: "other.org" }
    ])
  })

  test("own record wins; none falls back to the organizational domain's sp=; two records is no policy", () => {
    const org = found(["v=DMARC1; p=reject; sp=quarantine"])
    expect(dmarcReport({ domain: "a.example.com", own: found(["v=DMARC1; p=none"]), org, authorization: {} })).toMatchObject({ policy: "none", inherited_from: null })
    expect(dmarcReport({ domain: "a.example.com", own: none, org, authorization: {} })).toMatchObject({ policy: "quarantine", subdomain_policy: "quarantine", inherited_from: "example.com" })
    expect(dmarcReport({ domain: "a.example.com", own: none, org: found(["v=DMARC1; p=reject"]), authorization: {} })).toMatchObject({ policy: "reject", inherited_from: "example.com" })
    const two = dmarcReport({ domain: "example.com", own: found(["v=DMARC1; p=none", "v=DMARC1; p=reject"]), org: null, authorization: {} })
    expect(two).toMatchObject({ record: null, valid: false })
    expect(two.errors[0]).toContain("2 DMARC records")
    expect(dmarcReport({ domain: "example.com", own: found(["some other text"]), org: null, authorization: {} }).record).toBeNull()
  })
})

describe("DKIM", () => {
  const spki = (bits: number) => generateKeyPairSync("rsa", { modulusLength: bits }).publicKey.export({ type: "spki", format: "der" }).toString("base64")
  const ed = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "der" }).subarray(-32).toString("base64")
  test.each([
    ["rsa 2048", `v=DKIM1; k=rsa; p=${spki(2048)}`, { key_type: "rsa", key_bits: 2048, testing: false, revoked: false, errors: [] }],
    ["rsa 1024 testing", `v=DKIM1; t=y; p=${spki(1024)}`, { key_type: "rsa", key_bits: 1024, testing: true }],
    ["ed25519", `v=DKIM1; k=ed25519; p=${ed}`, { key_type: "ed25519", key_bits: 256, errors: [] }],
    ["revoked", "v=DKIM1; p=", { revoked: true, key_bits: null }],
    ["garbage key", "v=DKIM1; p=AAAA", { key_bits: null, errors: ["p= is not a SubjectPublicKeyInfo RSA key"] }],
    ["unknown type", "k=dsa; p=AAAA", { errors: ["unknown key type k=dsa"] }]
  ])("%s", (_n, record, expected) => {
    expect(parseDkimKey("s", record)).toMatchObject(expected as any)
  })
  test("a TXT answer without p= is no key; the selector list adds the caller's and refuses malformed ones", () => {
    expect(dkimKeyAt("s", found(["v=spf1 -all"]))).toBeNull()
    const s = selectorsToCheck(["Custom", "selector1", "bad selector", "../x"])
    expect(s.selectors).toEqual([...COMMON_SELECTORS, "custom"])
    expect(s.invalid).toEqual(["bad selector", "../x"])
  })
})

describe("MTA-STS", () => {
  test.each([
    ["*.example.com", "mx1.example.com", true],
    ["*.example.com", "a.b.example.com", false],
    ["*.example.com", "example.com", false],
    ["mx1.example.com", "MX1.example.com.", true],
    ["mx1.example.com", "mx2.example.com", false]
  ])("pattern %s vs %s", (p, h, ok) => expect(mxMatches(p, h)).toBe(ok))

  test("policy fields", () => {
    expect(parsePolicy("version: STSv1\r\nmode: enforce\r\nmx: mx1.x.org\r\nmx: *.x.org\r\nmax_age: 86400\r\n")).toEqual({ policy: { mode: "enforce", mx: ["mx1.x.org", "*.x.org"], max_age: 86400 }, errors: [] })
    expect(parsePolicy("version: STSv1\nmode: none\nmax_age: 1").errors).toEqual([])
    expect(parsePolicy("version: STSv1\nmode: enforce\nmax_age: 99999999\n").errors).toEqual(["policy max_age 99999999 exceeds 31557600", "policy lists no mx patterns"])
    expect(parsePolicy("<html>").policy).toBeNull()
    expect(parseStsTxt("v=STSv1; id=abc!").errors).toEqual(["id=abc! is not 1-32 letters and digits"])
  })

  test("record, policy and MX set together", () => {
    const body = { _tag: "Body" as const, text: "version: STSv1\nmode: enforce\nmx: *.x.org\nmax_age: 604800\n" }
    expect(mtaStsReport({ txt: found(["v=STSv1; id=1"]), fetch: body, mxHosts: ["mx.x.org"] }).valid).toBe(true)
    expect(mtaStsReport({ txt: found(["v=STSv1; id=1"]), fetch: body, mxHosts: ["mx.y.org"] }).errors).toEqual(["MX host mx.y.org matches no mx pattern of the policy"])
    expect(mtaStsReport({ txt: none, fetch: body, mxHosts: [] })).toEqual({ record: null, id: null, policy: null, valid: false, errors: [] })
    expect(mtaStsReport({ txt: found(["v=STSv1; id=1", "v=STSv1; id=2"]), fetch: body, mxHosts: [] }).valid).toBe(false)
    expect(mtaStsReport({ txt: found(["v=STSv1; id=1"]), fetch: { _tag: "Error", reason: "boom" }, mxHosts: [] }).errors).toEqual(["policy fetch failed: boom"])
  })
})

describe("TLS-RPT, BIMI, DANE, MX, SMTP replies", () => {
  test("TLS-RPT", () => {
    expect(tlsRptReport(found(["v=TLSRPTv1; rua=mailto:a@x.org,https://r.x.org/tls"]))).toEqual({ record: "v=TLSRPTv1; rua=mailto:a@x.org,https://r.x.org/tls", rua: ["mailto:a@x.org", "https://r.x.org/tls"], valid: true, errors: [] })
    expect(tlsRptReport(found(["v=TLSRPTv1;"])).errors).toEqual(["the required rua= tag is missing"])
    expect(tlsRptReport({ _tag: "Failed", reason: "SERVFAIL" }).errors[0]).toContain("SERVFAIL")
  })
  test("BIMI", () => {
    expect(bimiReport(found(["v=BIMI1; l=https://x.org/l.svg; a=https://x.org/vmc.pem"]))).toMatchObject({ valid: true, location: "https://x.org/l.svg", authority: "https://x.org/vmc.pem" })
    expect(bimiReport(found(["v=BIMI1; l=http://x.org/l.svg"])).errors).toEqual(["l=http://x.org/l.svg is not an https URL"])
    expect(bimiReport(found(["v=BIMI1; l=https://x.org/l.png"])).valid).toBe(false)
  })
  test("DANE: usable records only, and only when DNSSEC-secure", () => {
    const rec = (usage: number, selector: number, matchingType: number, len: number) => ({ usage, selector, matchingType, certificate: Buffer.alloc(len, 1) })
    expect(tlsaProblem(rec(3, 1, 1, 32))).toBeNull()
    expect(tlsaProblem(rec(2, 0, 2, 64))).toBeNull()
    expect(tlsaProblem(rec(1, 1, 1, 32))).toContain("PKIX-EE")
    expect(tlsaProblem(rec(3, 1, 1, 20))).toContain("not 32")
    expect(tlsaProblem(rec(3, 2, 1, 32))).toContain("selector")
    expect(daneMx({ host: "mx", tlsa: [rec(3, 1, 1, 32)], status: "secure", reason: null, error: null })).toMatchObject({ dnssec_secure: true, valid: true })
    expect(daneMx({ host: "mx", tlsa: [rec(3, 1, 1, 32)], status: "insecure", reason: null, error: null })).toMatchObject({ dnssec_secure: false, valid: false })
    expect(daneMx({ host: "mx", tlsa: [rec(0, 1, 1, 32)], status: "secure", reason: null, error: null })).toMatchObject({ dnssec_secure: true, valid: false })
  })
  test("MX and null MX (RFC 7505)", () => {
    expect(mxReport({ lookup: found([{ preference: 20, exchange: "b.x.org" }, { preference: 10, exchange: "A.x.org." }]), ips: { "a.x.org": ["192.0.2.1"] } })).toEqual({
      records: [{ host: "a.x.org", preference: 10, ips: ["192.0.2.1"] }, { host: "b.x.org", preference: 20, ips: [] }],
      null_mx: false
    })
    expect(mxReport({ lookup: found([{ preference: 0, exchange: "" }]), ips: {} })).toEqual({ records: [], null_mx: true })
  })
  test("SMTP replies (RFC 5321 §4.2.1) and reverse names", () => {
    expect(parseReply(["250-mx", "250-STARTTLS", "250 SIZE"])).toEqual({ code: 250, lines: ["mx", "STARTTLS", "SIZE"] })
    expect(parseReply(["250-mx"])).toBe("incomplete")
    expect(parseReply(["hello"])).toContain("malformed")
    expect(parseReply(["250-mx", "220 x"])).toContain("different codes")
    expect(reverseName("192.0.2.1")).toBe("1.2.0.192.in-addr.arpa")
    expect(reverseName("2001:db8::1")).toBe("1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa")
  })
})
