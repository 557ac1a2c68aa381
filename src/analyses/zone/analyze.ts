/**
 * Zone hygiene, pure: what the probes observed in, the SPEC.md report out (findings with
 * severities, checks, composite, score, grade, recommendations, limitations). No Effect, no I/O.
 *
 * Rubric (SPEC.md "Zone hygiene report"): 100 minus critical 30, high 18, medium 8, low 3 per
 * finding (info 0), floored at 0; grade A >= 90, B >= 80, C >= 70, D >= 60, else F.
 */

export type Severity = "critical" | "high" | "medium" | "low" | "info"

export const CHECK_NAMES = [
  "nameserver_redundancy",
  "soa_drift",
  "soa_fields",
  "wildcard",
  "sensitive_subdomains",
  "open_resolver",
  "dnssec",
  "caa",
  "zone_transfer"
] as const
export type CheckName = (typeof CHECK_NAMES)[number]

export const DEDUCTION: Record<Severity, number> = { critical: 30, high: 18, medium: 8, low: 3, info: 0 }
const RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 }

export const gradeOf = (score: number): "A" | "B" | "C" | "D" | "F" =>
  score >= 90 ? "A" : score >= 80 ? "B" : score >= 70 ? "C" : score >= 60 ? "D" : "F"

export const scoreOf = (findings: ReadonlyArray<{ readonly severity: Severity }>): number =>
  Math.max(0, 100 - findings.reduce((s, f) => s + DEDUCTION[f.severity], 0))

/** A check that could not finish: becomes a limitation and an info finding, never a 500. */
export interface Incomplete {
  readonly incomplete: string
}
export const isIncomplete = (u: unknown): u is Incomplete => typeof u === "object" && u !== null && "incomplete" in u

export interface SoaFields {
  readonly serial: number
  readonly primary_ns: string
  readonly rname: string
  readonly refresh: number
  readonly retry: number
  readonly expire: number
  readonly minimum: number
}

export interface SoaObservation {
  readonly kind: "authoritative" | "recursive"
  readonly nameserver: string | null
  readonly ip: string
  readonly port: number
  readonly soa: SoaFields | null
  /** The answer carried the AA bit (authoritative servers only). */
  readonly authoritative: boolean
  readonly error: string | null
}

export interface NameserverObservation {
  readonly name: string
  readonly ips: ReadonlyArray<string>
  /** Why the nameserver was not queried directly (no address, non-public address). */
  readonly skipped: string | null
}

export interface WildcardObservation {
  readonly probes: ReadonlyArray<string>
  readonly ips: ReadonlyArray<string>
  /** CNAME target of the wildcard, when the wildcard is a CNAME. */
  readonly cname_target: string | null
}

export interface ExposedName {
  readonly name: string
  readonly ips: ReadonlyArray<string>
  readonly record_type: "A" | "AAAA" | "CNAME"
  readonly cname_target: string | null
}

export interface SensitiveObservation {
  readonly probed: number
  /** Names that resolved, before wildcard filtering. */
  readonly resolved: ReadonlyArray<ExposedName>
  readonly errors: number
}

export interface OpenResolverObservation {
  readonly nameserver: string
  readonly ip: string
  readonly is_open_resolver: boolean
  readonly status: string
}

export interface AxfrObservation {
  readonly nameserver: string
  readonly ip: string
  readonly allowed: boolean
  readonly records: number
  readonly status: string
}

export interface CaaRecord {
  readonly flags: number
  readonly tag: string
  readonly value: string
}

export interface CaaObservation {
  /** Name the relevant CAA set was found at (RFC 8659 climbing), or null. */
  readonly found_at: string | null
  readonly records: ReadonlyArray<CaaRecord>
  /** Issuer organisations seen in currently valid CT-logged certificates, or the reason they are unknown. */
  readonly ct_issuers: ReadonlyArray<string> | Incomplete
}

export interface DnssecObservation {
  readonly status: "secure" | "insecure" | "bogus" | "indeterminate"
  readonly reason: string | null
  readonly signed: boolean
  readonly ds_present: boolean
  readonly algorithms: ReadonlyArray<number>
  readonly denial: "nsec" | "nsec3" | null
  readonly nsec3: { readonly algorithm: number; readonly iterations: number; readonly salt: string; readonly opt_out: boolean } | null
  readonly nsec3_compliant: boolean | null
  readonly chain: ReadonlyArray<{ readonly zone: string; readonly status: string; readonly detail: string }>
  readonly verified_rrsets: ReadonlyArray<string>
  readonly earliest_expiration: string | null
}

export interface ZoneObservations {
  readonly domain: string
  /** ISO time of the audit (for signature-expiry warnings). */
  readonly now: string
  /** Error looking up the NS set, if any (NXDOMAIN, timeout...). */
  readonly ns_error: string | null
  readonly nameservers: ReadonlyArray<NameserverObservation>
  readonly soa: ReadonlyArray<SoaObservation> | Incomplete
  readonly soa_apex: SoaFields | Incomplete
  readonly wildcard: WildcardObservation | Incomplete
  readonly sensitive: SensitiveObservation | Incomplete
  readonly open_resolver: ReadonlyArray<OpenResolverObservation> | Incomplete
  readonly dnssec: DnssecObservation | Incomplete
  readonly caa: CaaObservation | Incomplete
  readonly axfr: ReadonlyArray<AxfrObservation> | Incomplete
}

export interface Finding {
  readonly check: CheckName
  readonly severity: Severity
  readonly message: string
  readonly recommendation: string | null
}

export interface SoaFieldValidation {
  readonly field: "refresh" | "retry" | "expire" | "minimum"
  readonly value: number | null
  readonly recommended_min: number | null
  readonly recommended_max: number | null
  readonly status: "ok" | "too_low" | "too_high" | "unknown"
}

/** SPEC.md operation rule 3: refresh >= 24h, retry >= 2h, expire >= 14d, minimum <= 24h. */
export const SOA_BOUNDS = {
  refresh: { min: 86400, max: null },
  retry: { min: 7200, max: null },
  expire: { min: 1209600, max: null },
  minimum: { min: null, max: 86400 }
} as const

export const validateSoaFields = (soa: SoaFields | null): ReadonlyArray<SoaFieldValidation> =>
  (["refresh", "retry", "expire", "minimum"] as const).map((field) => {
    const b = SOA_BOUNDS[field]
    const value = soa ? soa[field] : null
    const status = value === null
      ? "unknown"
      : b.min !== null && value < b.min
      ? "too_low"
      : b.max !== null && value > b.max
      ? "too_high"
      : "ok"
    return { field, value, recommended_min: b.min, recommended_max: b.max, status }
  })

/**
 * Issuer organisation (as found in certificate issuer names) to the CAA identifiers that
 * authorise it. Matched case-insensitively as a substring of the issuer's O= or CN=.
 */
export const CA_IDENTIFIERS: ReadonlyArray<{ readonly match: RegExp; readonly label: string; readonly caa: ReadonlyArray<string> }> = [
  { match: /let'?s encrypt|isrg/i, label: "Let's Encrypt", caa: ["letsencrypt.org"] },
  { match: /digicert|rapidssl|geotrust|thawte|symantec|encryption everywhere/i, label: "DigiCert", caa: ["digicert.com", "symantec.com", "geotrust.com", "rapidssl.com", "thawte.com", "digitalcertvalidation.com"] },
  { match: /sectigo|comodo|usertrust|zerossl/i, label: "Sectigo", caa: ["sectigo.com", "comodoca.com", "comodo.com", "usertrust.com", "trust-provider.com", "zerossl.com"] },
  { match: /globalsign/i, label: "GlobalSign", caa: ["globalsign.com"] },
  { match: /google trust services|gts ca|^.*\bwr[0-9]\b|^.*\bwe[0-9]\b/i, label: "Google Trust Services", caa: ["pki.goog", "google.com"] },
  { match: /amazon/i, label: "Amazon", caa: ["amazon.com", "amazontrust.com", "awstrust.com", "amazonaws.com"] },
  { match: /godaddy|starfield/i, label: "GoDaddy", caa: ["godaddy.com", "starfieldtech.com"] },
  { match: /entrust/i, label: "Entrust", caa: ["entrust.net"] },
  { match: /buypass/i, label: "Buypass", caa: ["buypass.com", "buypass.no"] },
  { match: /microsoft/i, label: "Microsoft", caa: ["microsoft.com"] },
  { match: /ssl\.com/i, label: "SSL.com", caa: ["ssl.com"] },
  { match: /certum|asseco/i, label: "Certum", caa: ["certum.pl", "certum.eu"] },
  { match: /cloudflare/i, label: "Cloudflare", caa: ["digicert.com", "letsencrypt.org", "pki.goog", "sectigo.com", "ssl.com"] }
]

const caaDomainOf = (value: string) => value.split(";")[0].trim().toLowerCase()

/** CT issuers not authorised by the CAA issue/issuewild records (empty when no CAA). */
export const unauthorizedIssuers = (records: ReadonlyArray<CaaRecord>, issuers: ReadonlyArray<string>): { unauthorized: Array<string>; unknown: Array<string> } => {
  const issue = records.filter((r) => r.tag.toLowerCase() === "issue" || r.tag.toLowerCase() === "issuewild")
  if (issue.length === 0) return { unauthorized: [], unknown: [] }
  const allowed = new Set(issue.map((r) => caaDomainOf(r.value)).filter((d) => d.length > 0))
  const unauthorized: Array<string> = []
  const unknown: Array<string> = []
  for (const issuer of issuers) {
    const ca = CA_IDENTIFIERS.find((c) => c.match.test(issuer))
    if (!ca) {
      unknown.push(issuer)
      continue
    }
    if (!ca.caa.some((d) => allowed.has(d))) unauthorized.push(issuer)
  }
  return { unauthorized: [...new Set(unauthorized)], unknown: [...new Set(unknown)] }
}

const caaIssuers = (records: ReadonlyArray<CaaRecord>) => ({
  issue: records.filter((r) => r.tag.toLowerCase() === "issue").map((r) => caaDomainOf(r.value)),
  issuewild: records.filter((r) => r.tag.toLowerCase() === "issuewild").map((r) => caaDomainOf(r.value)),
  iodef: records.filter((r) => r.tag.toLowerCase() === "iodef").map((r) => r.value)
})

export const analyze = (o: ZoneObservations) => {
  const findings: Array<Finding> = []
  const limitations: Array<string> = []
  const incomplete = new Set<CheckName>()
  const add = (check: CheckName, severity: Severity, message: string, recommendation: string | null) =>
    findings.push({ check, severity, message, recommendation })
  const cannot = (check: CheckName, why: Incomplete) => {
    incomplete.add(check)
    limitations.push(`${check}: check could not complete (${why.incomplete})`)
    add(check, "info", `The ${check} check could not complete: ${why.incomplete}`, null)
  }

  // 1. Nameserver redundancy.
  const nsNames = o.nameservers.map((n) => n.name)
  const allIps = new Set(o.nameservers.flatMap((n) => n.ips))
  if (o.ns_error !== null && o.nameservers.length === 0) {
    add("nameserver_redundancy", "critical", `No authoritative nameservers found for ${o.domain}: ${o.ns_error}`, "Delegate the zone to at least two authoritative nameservers.")
  } else if (o.nameservers.length === 0) {
    add("nameserver_redundancy", "critical", `${o.domain} has no NS records`, "Delegate the zone to at least two authoritative nameservers.")
  } else if (o.nameservers.length === 1) {
    add("nameserver_redundancy", "high", `Only one nameserver (${nsNames[0]}) serves ${o.domain}`, "Add at least one more nameserver, on a different network (RFC 2182).")
  } else if (allIps.size === 1) {
    add("nameserver_redundancy", "high", `All ${o.nameservers.length} nameservers share one address (${[...allIps][0]})`, "Host the nameservers on distinct addresses and networks (RFC 2182).")
  }
  for (const ns of o.nameservers) {
    if (ns.ips.length === 0) {
      add("nameserver_redundancy", "medium", `Nameserver ${ns.name} has no A or AAAA address`, `Publish an address for ${ns.name} or remove it from the NS set.`)
    }
  }
  for (const ns of o.nameservers) if (ns.skipped && ns.ips.length > 0) limitations.push(`${ns.name} not queried directly: ${ns.skipped}`)

  // 2. SOA drift (and lame servers, seen while asking each one).
  const soaConsistency: Record<string, unknown> = {}
  let uniqueSerials: Array<number> = []
  let drift = false
  if (isIncomplete(o.soa)) cannot("soa_drift", o.soa)
  else {
    for (const s of o.soa) {
      const key = s.kind === "authoritative" ? `${s.nameserver} (${s.ip})` : `resolver ${s.ip}:${s.port}`
      soaConsistency[key] = {
        kind: s.kind,
        nameserver: s.nameserver,
        ip: s.ip,
        serial: s.soa?.serial ?? null,
        primary_ns: s.soa?.primary_ns ?? null,
        rname: s.soa?.rname ?? null,
        refresh: s.soa?.refresh ?? null,
        retry: s.soa?.retry ?? null,
        expire: s.soa?.expire ?? null,
        minimum: s.soa?.minimum ?? null,
        error: s.error
      }
    }
    uniqueSerials = [...new Set(o.soa.flatMap((s) => (s.soa ? [s.soa.serial] : [])))].sort((a, b) => a - b)
    drift = uniqueSerials.length > 1
    if (drift) {
      const by = uniqueSerials.map((serial) => `${serial} at ${o.soa && !isIncomplete(o.soa) ? o.soa.filter((s) => s.soa?.serial === serial).map((s) => s.nameserver ?? `resolver ${s.ip}`).join(", ") : ""}`)
      add("soa_drift", "high", `SOA serials differ across servers (${by.join("; ")}): zone replication is failing silently`, "Check zone transfers (NOTIFY/IXFR/AXFR) from the primary to every secondary and make all nameservers serve the same serial.")
    }
    for (const s of o.soa.filter((x) => x.kind === "authoritative")) {
      if (s.error !== null) {
        add("soa_drift", "high", `Nameserver ${s.nameserver} (${s.ip}) gave no SOA for ${o.domain}: ${s.error}`, `Make ${s.nameserver} answer authoritatively for ${o.domain} or remove it from the delegation.`)
      } else if (!s.authoritative) {
        add("soa_drift", "high", `Nameserver ${s.nameserver} (${s.ip}) answers for ${o.domain} without authority (lame delegation)`, `Configure ${s.nameserver} as authoritative for ${o.domain} or remove it from the NS set.`)
      }
    }
  }
  soaConsistency.unique_serials = uniqueSerials

  // 3. SOA fields.
  const apex = isIncomplete(o.soa_apex) ? null : o.soa_apex
  if (isIncomplete(o.soa_apex)) cannot("soa_fields", o.soa_apex)
  const fieldValidation = validateSoaFields(apex)
  for (const v of fieldValidation) {
    if (v.status === "too_low" || v.status === "too_high") {
      const bound = v.status === "too_low" ? `at least ${v.recommended_min}` : `at most ${v.recommended_max}`
      add("soa_fields", "low", `SOA ${v.field} is ${v.value} s; recommended ${bound} s`, `Set the SOA ${v.field} to ${bound} seconds.`)
    }
  }

  // 4. Wildcard.
  let wildcardDetected = false
  let wildcardIps: ReadonlyArray<string> = []
  let wildcardCname: string | null = null
  if (isIncomplete(o.wildcard)) cannot("wildcard", o.wildcard)
  else {
    wildcardDetected = o.wildcard.ips.length > 0 || o.wildcard.cname_target !== null
    wildcardCname = o.wildcard.cname_target
    wildcardIps = o.wildcard.cname_target !== null ? [] : o.wildcard.ips
    if (o.wildcard.cname_target !== null) {
      limitations.push(`The apex wildcard is a CNAME to ${o.wildcard.cname_target}: wildcard_ips is empty and sensitive names are filtered by their CNAME target instead of by address`)
      add("wildcard", "medium", `${o.domain} has a wildcard CNAME (*.${o.domain} -> ${o.wildcard.cname_target}): every name resolves`, "Remove the wildcard or restrict it; wildcards hide typos and let arbitrary names resolve (cookie scoping, phishing).")
    } else if (wildcardDetected) {
      add("wildcard", "medium", `${o.domain} has a wildcard record: random names resolve to ${o.wildcard.ips.join(", ")}`, "Remove the wildcard or restrict it; wildcards hide typos and let arbitrary names resolve (cookie scoping, phishing).")
    }
  }

  // 5. Sensitive subdomains, filtered against the wildcard.
  let exposed: Array<ExposedName> = []
  if (isIncomplete(o.sensitive)) cannot("sensitive_subdomains", o.sensitive)
  else {
    const wild = new Set(wildcardIps)
    exposed = o.sensitive.resolved.filter((e) => {
      if (wildcardCname !== null && e.cname_target !== null && e.cname_target.toLowerCase().replace(/\.$/, "") === wildcardCname.toLowerCase().replace(/\.$/, "")) return false
      if (wild.size > 0 && e.ips.length > 0 && e.ips.every((ip) => wild.has(ip))) return false
      return true
    })
    if (exposed.length > 0) {
      add("sensitive_subdomains", "medium", `${exposed.length} sensitive subdomain${exposed.length === 1 ? "" : "s"} resolve publicly: ${exposed.map((e) => e.name).join(", ")}`, "Move administrative and internal services off public DNS (split-horizon or VPN-only names), or make sure they require strong authentication.")
    }
    if (o.sensitive.errors > 0) limitations.push(`${o.sensitive.errors} sensitive-name lookups failed (timeout or server failure) and are not counted`)
  }

  // 6. Open resolvers.
  let openList: ReadonlyArray<OpenResolverObservation> = []
  if (isIncomplete(o.open_resolver)) cannot("open_resolver", o.open_resolver)
  else {
    openList = o.open_resolver
    for (const r of o.open_resolver.filter((x) => x.is_open_resolver)) {
      add("open_resolver", "high", `Nameserver ${r.nameserver} (${r.ip}) answers recursive queries for anyone (open resolver)`, `Disable recursion on ${r.nameserver} or restrict it to your own networks; open resolvers are used for DDoS amplification and cache poisoning.`)
    }
  }

  // 7. DNSSEC.
  let dnssecStatus: DnssecObservation["status"] = "indeterminate"
  let nsec3Compliant: boolean | null = null
  let dnssec: DnssecObservation | null = null
  if (isIncomplete(o.dnssec)) cannot("dnssec", o.dnssec)
  else {
    dnssec = o.dnssec
    dnssecStatus = o.dnssec.status
    nsec3Compliant = o.dnssec.nsec3_compliant
    switch (o.dnssec.status) {
      case "bogus":
        add("dnssec", "critical", `DNSSEC validation fails (bogus): ${o.dnssec.reason}`, "Re-sign the zone (check signature validity periods and the signer's clock) and make the parent's DS match a published DNSKEY; validating resolvers refuse bogus answers, so the zone is unreachable for them.")
        break
      case "insecure":
        if (!o.dnssec.signed) {
          add("dnssec", "medium", `${o.domain} is not DNSSEC-signed`, "Sign the zone (algorithm 13 or 15) and publish its DS at the parent.")
        } else if (!o.dnssec.ds_present) {
          add("dnssec", "medium", `${o.domain} publishes DNSKEY records but the parent has no DS: the chain of trust is broken (${o.dnssec.reason})`, "Publish the DS record of the key-signing key at the registrar/parent zone.")
        } else {
          add("dnssec", "info", `DNSSEC chain is insecure: ${o.dnssec.reason}`, null)
        }
        break
      case "indeterminate":
        limitations.push(`DNSSEC could not be determined: ${o.dnssec.reason}`)
        add("dnssec", "info", `DNSSEC status could not be determined: ${o.dnssec.reason}`, null)
        break
      case "secure":
        break
    }
    if (o.dnssec.nsec3 && o.dnssec.nsec3_compliant === false) {
      add("dnssec", "low", `NSEC3 parameters do not follow RFC 9276: ${o.dnssec.nsec3.iterations} extra iterations, salt ${o.dnssec.nsec3.salt === "" ? "empty" : `"${o.dnssec.nsec3.salt}"`}`, "Use NSEC3 with 0 extra iterations and an empty salt (RFC 9276), or NSEC.")
    }
    if (o.dnssec.status === "secure" && o.dnssec.earliest_expiration !== null) {
      const left = (Date.parse(o.dnssec.earliest_expiration) - Date.parse(o.now)) / 86_400_000
      if (left < 3) add("dnssec", "low", `DNSSEC signatures expire within ${Math.max(0, left).toFixed(1)} days (${o.dnssec.earliest_expiration})`, "Check that automatic re-signing runs.")
    }
  }

  // 8. CAA.
  let hasCaa = false
  let unauthorized: Array<string> = []
  let caaDetail: { found_at: string | null; records: ReadonlyArray<CaaRecord>; issue: Array<string>; issuewild: Array<string> } | null = null
  if (isIncomplete(o.caa)) cannot("caa", o.caa)
  else {
    hasCaa = o.caa.records.length > 0
    caaDetail = { found_at: o.caa.found_at, records: o.caa.records, ...caaIssuers(o.caa.records) }
    if (!hasCaa) {
      add("caa", "low", `No CAA records: any certificate authority may issue for ${o.domain}`, `Publish CAA records naming the CAs you use, e.g. ${o.domain}. CAA 0 issue "letsencrypt.org", plus an iodef contact.`)
    }
    if (isIncomplete(o.caa.ct_issuers)) {
      limitations.push(`CAA cross-reference with CT logs skipped: ${o.caa.ct_issuers.incomplete}`)
    } else if (hasCaa) {
      const r = unauthorizedIssuers(o.caa.records, o.caa.ct_issuers)
      unauthorized = r.unauthorized
      if (r.unknown.length > 0) limitations.push(`CT issuers not mapped to CAA identifiers (not judged): ${r.unknown.join("; ")}`)
      if (unauthorized.length > 0) {
        add("caa", "medium", `Certificates currently valid for ${o.domain} were issued by CAs its CAA records do not authorise: ${unauthorized.join("; ")}`, "Either add the issuing CA to the CAA records or revoke the certificates and find out who requested them.")
      }
    }
  }

  // 9. Zone transfer.
  let axfrList: ReadonlyArray<AxfrObservation> = []
  let transferVulnerable = false
  if (isIncomplete(o.axfr)) cannot("zone_transfer", o.axfr)
  else {
    axfrList = o.axfr
    const open = o.axfr.filter((a) => a.allowed)
    transferVulnerable = open.length > 0
    if (transferVulnerable) {
      add("zone_transfer", "high", `Zone transfer (AXFR) of ${o.domain} is allowed to anyone by ${open.map((a) => `${a.nameserver} (${a.ip}, ${a.records} records)`).join(", ")}`, "Restrict AXFR to the secondaries' addresses or TSIG keys (allow-transfer / provide-xfr / acl).")
    }
  }
  if (!isIncomplete(o.soa) && !isIncomplete(o.axfr) && o.nameservers.every((n) => n.skipped !== null)) {
    limitations.push("No nameserver could be queried directly; per-nameserver checks are empty")
  }

  const checks = CHECK_NAMES.map((check) => {
    const fs = findings.filter((f) => f.check === check && f.severity !== "info")
    const max = fs.reduce<Severity | null>((m, f) => (m === null || RANK[f.severity] > RANK[m] ? f.severity : m), null)
    return {
      check,
      passed: fs.length === 0 && !incomplete.has(check),
      severity_max: max,
      finding_count: fs.length,
      status: incomplete.has(check) ? "incomplete" : "completed"
    }
  })
  const score = scoreOf(findings)
  const ordered = [...findings].sort((a, b) => RANK[b.severity] - RANK[a.severity])
  const recommendations = [...new Set(ordered.flatMap((f) => (f.recommendation ? [f.recommendation] : [])))]
  return {
    domain: o.domain,
    nameservers: nsNames,
    nameserver_addresses: Object.fromEntries(o.nameservers.map((n) => [n.name, n.ips])),
    soa_consistency: soaConsistency,
    soa_field_validation: fieldValidation,
    soa_drift_detected: drift,
    wildcard_detected: wildcardDetected,
    wildcard_ips: wildcardIps,
    exposed_subdomains: exposed,
    exposed_count: exposed.length,
    open_resolver_check: openList,
    open_resolvers_detected: openList.filter((r) => r.is_open_resolver).length,
    zone_transfer: axfrList,
    caa: caaDetail,
    dnssec,
    checks,
    composite: {
      dnssec_status: dnssecStatus,
      dnssec_reason: dnssec?.reason ?? null,
      has_caa: hasCaa,
      caa_unauthorized_ct_issuers: unauthorized,
      zone_transfer_vulnerable: transferVulnerable,
      nsec3_compliant: nsec3Compliant
    },
    hygiene_score: score,
    hygiene_grade: gradeOf(score),
    findings: ordered,
    recommendations,
    limitations
  }
}

export type ZoneHygieneReport = ReturnType<typeof analyze>

/** Names an attacker tries first (at least 40). */
export const SENSITIVE_NAMES: ReadonlyArray<string> = [
  "admin", "administrator", "vpn", "remote", "kibana", "jenkins", "grafana", "prometheus", "elastic", "elasticsearch",
  "gitlab", "git", "jira", "confluence", "phpmyadmin", "mysql", "db", "database", "redis", "mongo",
  "staging", "stage", "dev", "test", "uat", "qa", "internal", "intranet", "corp", "backup",
  "ftp", "sftp", "ssh", "rdp", "citrix", "owa", "exchange", "webmail", "cpanel", "whm",
  "portal", "dashboard", "monitor", "nagios", "zabbix", "vault", "consul", "k8s", "kubernetes", "api-internal",
  "debug", "old", "legacy", "sonarqube", "argocd", "rancher", "traefik", "mail-admin", "secure", "login"
]
