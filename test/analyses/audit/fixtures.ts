/**
 * A fully configured domain's underlying reports and observations, as the audit's judge reads
 * them, built through the reports' own schemas (so a fixture that drifts from a contract fails
 * to decode). Each test mutates one part to make one check fail.
 */
import { Schema } from "effect"
import type { WebIpv6Observation, NameserverIpv6 } from "../../../src/analyses/audit/ipv6"
import type { WebReach } from "../../../src/analyses/audit/judge"
import { BlocklistReport } from "../../../src/analyses/blocklist/schema"
import { TakeoverReport } from "../../../src/analyses/takeover/schema"
import { EmailSecurityReport } from "../../../src/analyses/mail/schema"
import { SecurityHeadersReport } from "../../../src/analyses/observatory/schema"
import { TlsReport } from "../../../src/analyses/tls/schema"
import { ZoneHygieneReport } from "../../../src/analyses/zone/schema"

const test = (pass: boolean, result: string) => ({ pass, result, expectation: result, score_modifier: 0, description: "", recommendation: "" })

export const securityHeaders = Schema.decodeUnknownSync(SecurityHeadersReport)({
  url: "http://good.lab/",
  final_url: "https://good.lab/",
  grade: "A+",
  score: 105,
  tests_passed: 10,
  tests_failed: 0,
  tests_quantity: 10,
  tests: {
    "content-security-policy": test(true, "csp-implemented-with-no-unsafe"),
    cookies: test(true, "cookies-not-found"),
    "cross-origin-resource-sharing": test(true, "cross-origin-resource-sharing-not-implemented"),
    redirection: test(true, "redirection-to-https"),
    "referrer-policy": test(true, "referrer-policy-private"),
    "strict-transport-security": test(true, "hsts-implemented-max-age-at-least-six-months"),
    "subresource-integrity": test(true, "sri-not-implemented-but-no-scripts-loaded"),
    "x-content-type-options": test(true, "x-content-type-options-nosniff"),
    "x-frame-options": test(true, "x-frame-options-sameorigin-or-deny"),
    "cross-origin-resource-policy": test(true, "corp-implemented-with-same-site")
  },
  extras: {
    permissions_policy: { present: false, value: null, features: [] },
    cross_origin_opener_policy: { present: false, value: null, valid: false },
    cross_origin_embedder_policy: { present: false, value: null, valid: false },
    security_txt: {
      present: true,
      url: "https://good.lab/.well-known/security.txt",
      valid: true,
      signed: false,
      expires: "2027-01-01T00:00:00.000Z",
      expired: false,
      contact: ["mailto:security@good.lab"],
      errors: []
    }
  },
  checked_at: "2026-05-01T10:00:00.000Z"
})

const versions = <T>(v: T) => ({ ssl3: v, tls1_0: v, tls1_1: v, tls1_2: v, tls1_3: v })

export const tls = Schema.decodeUnknownSync(TlsReport)({
  host: "good.lab",
  port: 443,
  ip: "127.0.0.10",
  checked_at: "2026-05-01T10:00:00.000Z",
  timings_ms: { total: 120 },
  protocols: { ...versions(false), tls1_2: true, tls1_3: true },
  cipher_suites: { ...versions([]), tls1_2: ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"], tls1_3: ["TLS_AES_128_GCM_SHA256"] },
  server_preference: true,
  key_exchange: { groups: ["x25519"], forward_secrecy: true, post_quantum: false },
  alpn: { http2: true, http1_1: true, negotiated: ["h2", "http/1.1"] },
  http3: { advertised: false, alt_svc: null },
  certificate: {
    subject: "CN=good.lab",
    issuer: "CN=Lab CA",
    sans: ["good.lab"],
    not_before: "2026-01-01T00:00:00.000Z",
    not_after: "2027-01-01T00:00:00.000Z",
    days_left: 245,
    key_type: "EC",
    key_bits: 256,
    signature_algorithm: "ecdsa-with-SHA256",
    chain_trusted: true,
    hostname_match: true,
    chain: [],
    ocsp_stapled: null,
    sct_count: 0
  },
  features: { secure_renegotiation: true, fallback_scsv: true, compression: false, heartbeat: false },
  vulnerabilities: { heartbleed: false },
  grade: "A+",
  score: 95,
  findings: [],
  recommendations: [],
  limitations: []
})

export const email = Schema.decodeUnknownSync(EmailSecurityReport)({
  domain: "good.lab",
  checked_at: "2026-05-01T10:00:00.000Z",
  mx: {
    records: [
      { host: "mx1.good.lab", preference: 10, ips: ["127.53.7.25", "fd00::25"] },
      { host: "mx2.good.lab", preference: 20, ips: ["127.53.7.26", "fd00::26"] }
    ],
    null_mx: false
  },
  spf: { record: "v=spf1 mx -all", valid: true, all: "fail", lookups: 1, void_lookups: 0, includes: [], errors: [] },
  dmarc: {
    record: "v=DMARC1; p=reject", valid: true, policy: "reject", subdomain_policy: null, pct: null, rua: [], ruf: [],
    adkim: null, aspf: null, inherited_from: null, external_reporting: [], errors: []
  },
  dkim: { selectors_checked: ["selector1"], selectors_found: [{ selector: "selector1", key_type: "rsa", key_bits: 2048, testing: false, revoked: false }] },
  mta_sts: { record: "v=STSv1; id=1", id: "1", policy: { mode: "enforce", mx: ["*.good.lab"], max_age: 604800 }, valid: true, errors: [] },
  tls_rpt: { record: "v=TLSRPTv1; rua=mailto:tls@good.lab", rua: ["mailto:tls@good.lab"], valid: true, errors: [] },
  bimi: { record: null, location: null, authority: null, valid: false, errors: [] },
  dane: {
    mx: [
      { host: "mx1.good.lab", tlsa: [{ usage: 3, selector: 1, matching_type: 1 }], dnssec_secure: true, valid: true },
      { host: "mx2.good.lab", tlsa: [{ usage: 3, selector: 1, matching_type: 1 }], dnssec_secure: true, valid: true }
    ]
  },
  starttls: [
    { host: "mx1.good.lab", ip: "127.53.7.25", supported: true, tls_version: "TLSv1.3", certificate_valid: true, error: null },
    { host: "mx2.good.lab", ip: "127.53.7.26", supported: true, tls_version: "TLSv1.2", certificate_valid: true, error: null }
  ],
  checks: [],
  findings: [],
  score: 100,
  grade: "A",
  recommendations: [],
  limitations: []
})

export const zone = Schema.decodeUnknownSync(ZoneHygieneReport)({
  domain: "good.lab",
  nameservers: ["ns1.good.lab", "ns2.good.lab"],
  nameserver_addresses: {},
  soa_consistency: {},
  soa_field_validation: [],
  soa_drift_detected: false,
  wildcard_detected: false,
  wildcard_ips: [],
  exposed_subdomains: [],
  exposed_count: 0,
  open_resolver_check: [],
  open_resolvers_detected: 0,
  zone_transfer: [],
  caa: { found_at: "good.lab", records: [{ flags: 0, tag: "issue", value: "lab-ca.example" }], issue: ["lab-ca.example"], issuewild: [] },
  dnssec: null,
  checks: [],
  composite: {
    dnssec_status: "secure",
    dnssec_reason: null,
    has_caa: true,
    caa_unauthorized_ct_issuers: [],
    zone_transfer_vulnerable: false,
    nsec3_compliant: true
  },
  hygiene_score: 97,
  hygiene_grade: "A",
  findings: [],
  recommendations: [],
  limitations: [],
  timings_ms: { total: 300 }
})

const entry = (zone: string, item: string) => ({ zone, item, status: "not_listed" as const, codes: [], reason: null })

export const blocklist = Schema.decodeUnknownSync(BlocklistReport)({
  target: "good.lab",
  kind: "domain",
  ips: ["127.0.0.10", "fd00::10", "127.53.7.25", "fd00::25", "127.53.7.26", "fd00::26"],
  lists: [
    entry("dbl.spamhaus.org", "good.lab"),
    ...["127.0.0.10", "fd00::10", "127.53.7.25", "fd00::25", "127.53.7.26", "fd00::26"].map((ip) => entry("zen.spamhaus.org", ip))
  ],
  listed_count: 0,
  checked_at: "2026-05-01T10:00:00.000Z",
  limitations: []
})

/** A clean domain's takeover report (no candidate). */
export const takeover = Schema.decodeUnknownSync(TakeoverReport)({
  domain: "good.lab",
  checked_at: "2026-05-01T10:00:00.000Z",
  timings_ms: { sources: 40, wildcards: 41, names: 300, total: 301 },
  names_checked: 112,
  sources: { ct: 3, zone_transfer: 0, wordlist: 110, given: 0 },
  candidates: [],
  providers_known: 97,
  findings: [],
  score: 100,
  grade: "A",
  recommendations: [],
  limitations: []
})

export const webAddresses = ["127.0.0.10", "fd00::10"]

export const reach: WebReach = {
  https: { status: 200, certificate_valid: true, hsts: "max-age=63072000; includeSubDomains" },
  http: { status: 301 }
}

const page = "<html><head><script nonce=\"abc\">x()</script></head><body>Welcome to good.lab</body></html>"

export const webIpv6: WebIpv6Observation = {
  host: "good.lab",
  ipv4: [{ address: "127.0.0.10", ports: [443, 80] }],
  ipv6: [{ address: "fd00::10", ports: [443, 80] }],
  pages: { v4: page, v6: page.replace("abc", "def") }
}

export const nameservers: ReadonlyArray<NameserverIpv6> = [
  { name: "ns1.good.lab", ipv6: [{ address: "fd00::53", answered: true }] },
  { name: "ns2.good.lab", ipv6: [{ address: "fd00::54", answered: true }] }
]
