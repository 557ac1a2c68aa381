/**
 * The domain audit's check catalogue as data: every check id, its section, the severity of its
 * failure (two checks have a worse one in stated cases), what passing means, and the summary
 * sentences. docs/operations/domain-audit.md lists the same table; judge*.ts applies the rules.
 */

export const SECTIONS = ["web", "mail", "dns", "exposure"] as const
export type Section = (typeof SECTIONS)[number]

export const CHECK_IDS = [
  "web_reachable",
  "web_ipv6",
  "web_ipv6_same_content",
  "web_https",
  "web_https_redirect",
  "web_hsts",
  "web_tls",
  "web_security_headers",
  "web_security_txt",
  "mail_spf",
  "mail_dmarc",
  "mail_dkim",
  "mail_mta_sts",
  "mail_tls_rpt",
  "mail_dane",
  "mail_ipv6",
  "mail_starttls",
  "mail_blocklist",
  "dns_dnssec",
  "dns_zone",
  "dns_ipv6",
  "dns_caa",
  "exposure_takeover",
  "exposure_blocklist"
] as const
export type CheckId = (typeof CHECK_IDS)[number]

/** The severities a failed check weighs (the Zone Hygiene rubric: critical 30, high 18, medium 8, low 3). */
export const FAILURE_SEVERITIES = ["critical", "high", "medium", "low"] as const
export type FailureSeverity = (typeof FAILURE_SEVERITIES)[number]

export interface CheckSpec {
  readonly id: CheckId
  readonly section: Section
  readonly severity: FailureSeverity
  /** A worse severity for some failures, and when it applies; null when the severity is fixed. */
  readonly escalation: { readonly severity: FailureSeverity; readonly when: string } | null
  /** What passing means. */
  readonly rule: string
  readonly summary: { readonly pass: string; readonly fail: string; readonly unknown: string }
  /** What to do about a failure (the finding's recommendation). */
  readonly recommendation: string
}

type Row = Omit<CheckSpec, "id" | "section" | "escalation"> & { readonly escalation?: CheckSpec["escalation"] }

const section = (s: Section, rows: Partial<Record<CheckId, Row>>): ReadonlyArray<CheckSpec> =>
  Object.entries(rows).map(([id, r]) => ({ id: id as CheckId, section: s, escalation: null, ...r! }))

const rows: ReadonlyArray<CheckSpec> = [
  ...section("web", {
    web_reachable: {
      severity: "critical",
      rule: "the web host answers over https or http",
      summary: { pass: "The web host answers", fail: "The web host answers neither https nor http", unknown: "Whether the web host answers could not be checked" },
      recommendation: "Serve the site on port 443 (https), and on port 80 only to redirect to it."
    },
    web_ipv6: {
      severity: "medium",
      rule: "the web host has an AAAA record and every AAAA address answers on 443 or 80",
      summary: { pass: "The web host is reachable over IPv6", fail: "The web host is not reachable over IPv6", unknown: "IPv6 reachability of the web host could not be checked" },
      recommendation: "Publish an AAAA record for the web host and make its web server listen on that IPv6 address (ports 443 and 80)."
    },
    web_ipv6_same_content: {
      severity: "low",
      rule: "the page over IPv6 and over IPv4 differ by at most 10%, as internet.nl compares them",
      summary: { pass: "The same page is served over IPv6 and IPv4", fail: "The page over IPv6 differs from the one over IPv4", unknown: "The pages over IPv6 and IPv4 could not be compared" },
      recommendation: "Serve the same site on the IPv6 and IPv4 addresses (same virtual host and ports on both)."
    },
    web_https: {
      severity: "high",
      rule: "https answers with a certificate valid for the web host",
      summary: { pass: "HTTPS answers with a valid certificate", fail: "HTTPS does not answer with a certificate valid for the name", unknown: "HTTPS could not be checked" },
      recommendation: "Serve https on port 443 with a certificate that a public CA issued for the web host name."
    },
    web_https_redirect: {
      severity: "medium",
      rule: "http:// redirects to https:// on the same host first",
      summary: { pass: "http:// redirects to https:// on the same host", fail: "http:// does not redirect to https:// on the same host", unknown: "The http redirect could not be checked" },
      recommendation: "Answer every http:// request with a 301 redirect to the same host over https://, before any other redirect."
    },
    web_hsts: {
      severity: "medium",
      rule: "the https answer carries Strict-Transport-Security with max-age of at least 31536000 (one year)",
      summary: { pass: "HSTS is set for at least a year", fail: "HSTS is missing or shorter than a year", unknown: "HSTS could not be checked" },
      recommendation: "Send Strict-Transport-Security: max-age=31536000; includeSubDomains on every https answer."
    },
    web_tls: {
      severity: "medium",
      escalation: { severity: "high", when: "the TLS grade is C or worse (C, D, E, F, or T/M for an untrusted or mismatched certificate)" },
      rule: "the TLS configuration grades A- or better",
      summary: { pass: "The TLS configuration grades A- or better", fail: "The TLS configuration grades below A-", unknown: "The TLS configuration could not be graded" },
      recommendation: "Offer TLS 1.2 and 1.3 only, with forward-secret AEAD suites, and a trusted certificate for the name."
    },
    web_security_headers: {
      severity: "medium",
      rule: "the HTTP Observatory grade is B or better",
      summary: { pass: "The security headers grade B or better", fail: "The security headers grade below B", unknown: "The security headers could not be graded" },
      recommendation: "Add Content-Security-Policy, X-Content-Type-Options, X-Frame-Options (or frame-ancestors) and Referrer-Policy; see the security_headers report's tests."
    },
    web_security_txt: {
      severity: "low",
      rule: "/.well-known/security.txt is present and its Expires is in the future",
      summary: { pass: "security.txt is published and current", fail: "security.txt is missing or expired", unknown: "security.txt could not be checked" },
      recommendation: "Publish /.well-known/security.txt with Contact: and an Expires: less than a year ahead (RFC 9116)."
    }
  }),
  ...section("mail", {
    mail_spf: {
      severity: "high",
      rule: "a valid SPF record ending in -all or ~all (a domain that sends no mail: -all)",
      summary: { pass: "SPF is valid and ends in -all or ~all", fail: "SPF is missing, invalid or too permissive", unknown: "SPF could not be checked" },
      recommendation: "Publish one TXT record \"v=spf1 <your senders> -all\" (\"v=spf1 -all\" for a domain that sends no mail)."
    },
    mail_dmarc: {
      severity: "high",
      rule: "a DMARC policy of quarantine or reject (a domain that sends no mail: reject)",
      summary: { pass: "DMARC enforces quarantine or reject", fail: "DMARC is missing or does not enforce", unknown: "DMARC could not be checked" },
      recommendation: "Publish _dmarc.<domain> TXT \"v=DMARC1; p=reject; rua=mailto:…\" (p=quarantine while you watch reports)."
    },
    mail_dkim: {
      severity: "medium",
      rule: "a DKIM key is found and no RSA key is under 1024 bits",
      summary: { pass: "A DKIM key of adequate size is published", fail: "No usable DKIM key, or a key under 1024 bits", unknown: "DKIM could not be checked" },
      recommendation: "Sign outgoing mail with DKIM using a 2048-bit RSA (or Ed25519) key published at <selector>._domainkey.<domain>."
    },
    mail_mta_sts: {
      severity: "low",
      rule: "a valid MTA-STS policy in mode enforce or testing",
      summary: { pass: "MTA-STS is published", fail: "MTA-STS is missing or invalid", unknown: "MTA-STS could not be checked" },
      recommendation: "Publish _mta-sts.<domain> TXT \"v=STSv1; id=…\" and https://mta-sts.<domain>/.well-known/mta-sts.txt listing your MX hosts (RFC 8461)."
    },
    mail_tls_rpt: {
      severity: "low",
      rule: "a valid TLS-RPT record",
      summary: { pass: "TLS-RPT is published", fail: "TLS-RPT is missing or invalid", unknown: "TLS-RPT could not be checked" },
      recommendation: "Publish _smtp._tls.<domain> TXT \"v=TLSRPTv1; rua=mailto:…\" (RFC 8460)."
    },
    mail_dane: {
      severity: "low",
      rule: "every MX host has a valid TLSA record under DNSSEC",
      summary: { pass: "DANE protects every MX host", fail: "DANE does not protect every MX host", unknown: "DANE could not be checked" },
      recommendation: "Sign the MX hosts' zones with DNSSEC and publish _25._tcp.<mx> TLSA 3 1 1 <key digest> for each MX host (RFC 7672)."
    },
    mail_ipv6: {
      severity: "low",
      rule: "every MX host has an AAAA record",
      summary: { pass: "Every MX host has an IPv6 address", fail: "Not every MX host has an IPv6 address", unknown: "IPv6 of the MX hosts could not be checked" },
      recommendation: "Publish an AAAA record for every MX host and accept mail on it."
    },
    mail_starttls: {
      severity: "high",
      rule: "every MX address offers STARTTLS with TLS 1.2 or better (asked with starttls=true only)",
      summary: { pass: "Every MX offers STARTTLS with TLS 1.2 or better", fail: "Not every MX offers STARTTLS with TLS 1.2 or better", unknown: "STARTTLS was not tested" },
      recommendation: "Offer STARTTLS on every MX host with TLS 1.2 and 1.3 enabled."
    },
    mail_blocklist: {
      severity: "high",
      rule: "no MX address is listed on a DNSBL",
      summary: { pass: "No MX address is on a blocklist", fail: "An MX address is on a blocklist", unknown: "The MX addresses' blocklist standing could not be checked" },
      recommendation: "Find why the address is listed (the list's reason), fix the cause, then ask the list for removal."
    }
  }),
  ...section("dns", {
    dns_dnssec: {
      severity: "medium",
      rule: "the zone validates as DNSSEC secure",
      summary: { pass: "The zone is DNSSEC-signed and validates", fail: "The zone is not DNSSEC secure", unknown: "DNSSEC could not be determined" },
      recommendation: "Sign the zone and publish its DS record at the registrar."
    },
    dns_zone: {
      severity: "medium",
      rule: "Zone Hygiene grades B or better",
      summary: { pass: "Zone hygiene grades B or better", fail: "Zone hygiene grades below B", unknown: "Zone hygiene could not be graded" },
      recommendation: "Fix the zone_hygiene report's findings, most severe first."
    },
    dns_ipv6: {
      severity: "low",
      rule: "at least two name servers have AAAA records and answer over IPv6",
      summary: { pass: "At least two name servers answer over IPv6", fail: "Fewer than two name servers answer over IPv6", unknown: "IPv6 of the name servers could not be checked" },
      recommendation: "Give at least two name servers AAAA records and make them answer queries over IPv6."
    },
    dns_caa: {
      severity: "low",
      rule: "a CAA record set applies to the domain",
      summary: { pass: "CAA names the CAs allowed to issue", fail: "No CAA record applies", unknown: "CAA could not be checked" },
      recommendation: "Publish CAA records naming the CAs you use, e.g. <domain> CAA 0 issue \"letsencrypt.org\" (RFC 8659)."
    }
  }),
  ...section("exposure", {
    exposure_takeover: {
      severity: "high",
      escalation: { severity: "critical", when: "a candidate is confirmed" },
      rule: "no subdomain takeover candidate of confidence potential or confirmed",
      summary: { pass: "No subdomain takeover candidate", fail: "A subdomain can be taken over", unknown: "Subdomain takeover could not be checked" },
      recommendation: "Remove the DNS records that point to unclaimed resources (see the takeover report's candidates), or claim the resources."
    },
    exposure_blocklist: {
      severity: "high",
      rule: "neither the domain nor its web addresses are listed on a DNSBL",
      summary: { pass: "Neither the domain nor its web addresses are on a blocklist", fail: "The domain or a web address is on a blocklist", unknown: "The blocklist standing could not be checked" },
      recommendation: "Find why it is listed (the list's reason), fix the cause, then ask the list for removal."
    }
  })
]

/** The catalogue, by id, in the order of CHECK_IDS. */
export const CHECKS: Readonly<Record<CheckId, CheckSpec>> = Object.fromEntries(
  CHECK_IDS.map((id) => [id, rows.find((r) => r.id === id)!])
) as Record<CheckId, CheckSpec>

/** The check ids of one section, in catalogue order. */
export const checksOf = (s: Section): ReadonlyArray<CheckId> => CHECK_IDS.filter((id) => CHECKS[id].section === s)
