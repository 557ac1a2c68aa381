/**
 * The analyses of the REST API as MCP tools (docs/mcp.md, "One contract"). Each decodes its
 * arguments with its REST operation's input Schema (`…Inputs.json`), calls the very function or
 * service that operation calls, and is described by that operation's report Schema, so
 * `structuredContent` is the REST report of the same target and a failure carries the code REST
 * answers for it.
 */
import { Duration, Effect } from "effect"
import { AppConfig } from "../../platform/Config"
import { CtAggregator } from "../../adapters/ct/CtAggregator"
import { CtLogsInputs, CtLogsReport } from "../api/ct"
import { ctLogs } from "../handlers/ct"
import { ZoneHygieneInputs, ZoneHygieneReport } from "../api/dns"
import { ZoneHygiene } from "../../analyses/zone/ZoneHygiene"
import { ContentFreshnessInputs, FreshnessReport } from "../api/freshness"
import { ContentFreshness } from "../../analyses/freshness/ContentFreshness"
import { HttpCheckInputs, HttpCheckReport, httpCheckDeadlineMs } from "../api/network"
import { httpCheck } from "../../analyses/network/HttpCheck"
import { HttpProbe } from "../../adapters/probe/HttpProbe"
import type { DnsResolver } from "../../adapters/dns/DnsResolver"
import { WafDetectionInputs, WafReport } from "../api/waf"
import { WafDetection } from "../../analyses/waf/WafDetection"
import { EmailSecurity } from "../../analyses/mail/EmailSecurity"
import { EmailSecurityReport } from "../../analyses/mail/schema"
import { EmailSecurityInputs } from "../api/email"
import { emailSecurity } from "../handlers/email"
import { TlsReport } from "../../analyses/tls/schema"
import { TlsScan } from "../../analyses/tls/TlsScan"
import { TlsScanInputs } from "../api/tls"
import { tlsScan } from "../handlers/tls"
import { TakeoverReport } from "../../analyses/takeover/schema"
import type { SubdomainTakeover } from "../../analyses/takeover/SubdomainTakeover"
import { TakeoverInputs } from "../api/takeover"
import { subdomainTakeover } from "../handlers/takeover"
import { DomainAuditReport } from "../../analyses/audit/schema"
import type { DomainAudit } from "../../analyses/audit/DomainAudit"
import { AuditInputs } from "../api/audit"
import { domainAudit } from "../handlers/audit"
import type { Blocklist } from "../../analyses/blocklist/Blocklist"
import { BlocklistReport } from "../../analyses/blocklist/schema"
import { BlocklistInputs } from "../api/blocklist"
import { blocklistCheck } from "../handlers/blocklist"
import { auditText, httpCheckText } from "./summaries"
import { defineTool, McpCaller, type ToolDefinition } from "./tool"

export const makeAnalysisTools = Effect.gen(function*() {
  const context = yield* Effect.context<HttpProbe | CtAggregator | AppConfig | EmailSecurity | TlsScan | SubdomainTakeover | Blocklist | DnsResolver | DomainAudit>()
  const config = yield* AppConfig
  const waf = yield* WafDetection
  const freshness = yield* ContentFreshness
  const zone = yield* ZoneHygiene

  const httpCheckTool = defineTool({
    name: "http_check",
    title: "HTTP uptime check",
    description:
      "Send one HEAD (default) or GET request to a URL, following redirects, and report it the way curl -w would. Use it to check whether a site is up, how fast it answers and where it redirects. Takes as long as the site needs, at most `timeout` (default 10 s). A site that fails is still a result: `status.code` is null and `error` says why (timeout, fetch_failed, invalid_redirect_location). Main fields: `status` {code, ok}, `timings` (total_ms, dns_ms, connect_ms, tls_ms, ttfb_ms), `redirects`, `ssl.verified`, `headers`, `security_summary` (hsts_enabled is true only when browsers apply HSTS: received over https).",
    input: HttpCheckInputs.json,
    output: HttpCheckReport,
    run: (args) => httpCheck(args).pipe(Effect.provide(context)),
    summary: httpCheckText,
    timeout: (args) => Duration.millis(httpCheckDeadlineMs(args))
  })

  const wafTool = defineTool({
    name: "waf_detection",
    title: "WAF / CDN detection (passive)",
    description:
      "Detect the web application firewall or CDN in front of a site from one ordinary request (passive: no attack canaries are sent). Use it to learn who protects or serves a site. Takes one HTTP fetch, up to about 10 s. Main fields: `provider_present`, `primaryProvider`, `providers[]` (name, vendor, confidence 0-1 with the matched `evidence`), `topology` (single or layered), `block_category` (whether our request was itself blocked) and `status_code` (null when the site did not answer, with `error`).",
    input: WafDetectionInputs.pick("domain").json,
    output: WafReport,
    run: (args) => waf.detect({ domain: args.domain, activeProbe: false, auditToken: undefined }),
    summary: (r) =>
      `WAF detection for ${r.domain} (${r.final_url}, HTTP ${r.status_code ?? "no answer"}): ${r.provider_present ? `${r.primaryProvider}${r.providerCount > 1 ? ` and ${r.providerCount - 1} more (${r.topology})` : ""}` : "no WAF/CDN provider recognised"}${r.error ? `; error: ${r.error}` : ""}`
  })

  const freshnessTool = defineTool({
    name: "content_freshness",
    title: "Content freshness",
    description:
      "Fetch a page and judge how fresh its content is from its published/modified dates (meta tags, JSON-LD, time elements, Last-Modified) and its cache headers. Use it to tell whether a site is maintained or a page is outdated. Takes one page fetch, usually 1-3 s. Main fields: `contentAge` {days, category fresh/recent/aging/stale/unknown}, `publishDate`/`modifiedDate`, `dateConsistency`, `cacheHeaders` (effectiveTtl, CDN), `score` 0-100, `grade` A+ to F and `recommendations`.",
    input: ContentFreshnessInputs.json,
    output: FreshnessReport,
    run: (args) => freshness.analyze(args.domain),
    summary: (r) =>
      `Content freshness of ${r.finalUrl}: grade ${r.grade} (score ${r.score}), content ${r.contentAge.category}${r.contentAge.days !== null ? ` (${r.contentAge.days} days old)` : ""}, confidence ${r.confidence}`
  })

  const zoneTool = defineTool({
    name: "zone_hygiene",
    title: "DNS zone hygiene audit",
    description:
      "Audit a DNS zone at its authoritative nameservers: nameserver redundancy, SOA serial drift and SOA timers, wildcard, exposed sensitive subdomains (admin, vpn, jenkins…), open resolvers, DNSSEC (verified cryptographically), CAA and zone-transfer (AXFR) exposure. Use it for the health and security of a domain's DNS setup; give the zone apex (example.com). Takes a few seconds (many queries in parallel). Main fields: `grade`/`score`, `findings[]` with severity, and one section per check (`soa_consistency`, `open_resolver_check`, `dnssec`, `caa`, `zone_transfer`…).",
    input: ZoneHygieneInputs.json,
    output: ZoneHygieneReport,
    run: (args) => Effect.flatMap(McpCaller, (caller) => zone.audit(args.domain, caller.orgId)),
    summary: (r) => {
      const o = r as unknown as { domain: string; grade?: string; score?: number; nameservers: ReadonlyArray<string> }
      return `Zone hygiene of ${o.domain}: ${o.grade !== undefined ? `grade ${o.grade}${o.score !== undefined ? ` (score ${o.score})` : ""}, ` : ""}${o.nameservers.length} nameserver(s)`
    }
  })

  const ctTool = defineTool({
    name: "ct_logs",
    title: "Certificate transparency logs",
    description:
      "List the TLS certificates public certificate-transparency logs hold for a domain, from crt.sh and Cert Spotter at once, newest first, one entry per certificate (precertificate and certificate merged, and a certificate both sources list). Use it to find which CAs issued certificates for a domain, spot unexpected issuance, or discover subdomains (`names`). Takes 1-5 s on a cache miss (results are cached for 30 min). Main fields: `certificates[]` (issuer, common_name, names, not_before, not_after, timestamp, sources), `total`, `truncated` with `pagination.next_offset` for the next page (pass it as `offset`), `sources[]` (each aggregator's status: ok, error or skipped) and `limitations` (what a failed source leaves out), `cache.outcome`, `embedded_sct` of the newest valid certificate.",
    input: CtLogsInputs.json,
    output: CtLogsReport,
    run: (args) => ctLogs(args).pipe(Effect.provide(context)),
    summary: (r) =>
      `Certificate transparency for ${r.domain}: ${r.total} certificate(s), showing ${r.count}${r.truncated && r.pagination.next_offset !== null ? ` (next page: offset ${r.pagination.next_offset})` : ""}. ${r.note}`
  })

  const emailTool = defineTool({
    name: "email_security",
    title: "Email security (SPF, DMARC, DKIM, MTA-STS, DANE…)",
    description:
      "Check a domain's email authentication and transport security: MX (and RFC 7505 null MX), SPF evaluated per RFC 7208 (lookup and void-lookup limits), DMARC (with the organizational-domain fallback and report authorization), DKIM keys under common selectors plus `dkim_selectors` (key type, bits, testing, revoked), MTA-STS (TXT and HTTPS policy vs the MX set), TLS-RPT, BIMI and DANE TLSA (trusted only when DNSSEC-validated). Use it to judge whether a domain can be spoofed and whether mail to it is protected in transit. Takes about a second (all lookups in parallel). Main fields: `grade`/`score`, `findings[]` with severity and the record to publish, `checks[]`, and one block per check (`spf`, `dmarc`, `mta_sts`, …). The REST operation also offers a STARTTLS test.",
    input: EmailSecurityInputs.pick("domain", "dkim_selectors").json,
    output: EmailSecurityReport,
    run: (args) => emailSecurity(args).pipe(Effect.provide(context)),
    summary: (r) =>
      `Email security of ${r.domain}: grade ${r.grade} (score ${r.score}); ${r.checks.filter((c) => c.passed === false).map((c) => c.check).join(", ") || "every check that ran passed"}${r.checks.some((c) => c.passed === false) ? " need attention" : ""}`
  })

  const tlsTool = defineTool({
    name: "tls_scan",
    title: "TLS configuration scan and grade",
    description:
      "Scan a TLS server the way sslscan or testssl.sh would and grade it by SSL Labs' rating guide: which protocols (SSL 3.0 to TLS 1.3) and cipher suites it accepts, in its own order, every key exchange group it accepts (post-quantum X25519MLKEM768 included, `key_exchange.post_quantum`), HTTP/2 and HTTP/1.1 by ALPN (`alpn`), HTTP/3 advertised by Alt-Svc or the HTTPS DNS record (`http3`), secure renegotiation, TLS_FALLBACK_SCSV, compression, heartbeat and Heartbleed, and its certificate (trust, name, key, OCSP stapling, SCTs; read even from a server that offers only legacy suites). Use it to audit an HTTPS (or any TLS) endpoint. Takes about 1-5 s (many short handshakes, at most 4 at once). Main fields: `grade` (A+ to F, T untrusted, M name mismatch), `score`, `protocols`, `cipher_suites`, `key_exchange`, `alpn`, `http3`, `certificate`, `findings[]`.",
    input: TlsScanInputs.json,
    output: TlsReport,
    run: (args) => tlsScan(args).pipe(Effect.provide(context)),
    summary: (r) =>
      `TLS scan of ${r.host}:${r.port} (${r.ip}): grade ${r.grade} (score ${r.score}); protocols ${Object.entries(r.protocols).filter(([, on]) => on).map(([v]) => v).join(", ") || "none"}; ${r.findings.length} finding(s)`
  })

  const takeoverTool = defineTool({
    name: "subdomain_takeover",
    title: "Subdomain takeover and dangling DNS",
    description:
      "Find names under a domain that a stranger could take over: a CNAME to a hosting service's resource nobody holds any more (a deleted S3 bucket, GitHub Pages site, Heroku app, Azure resource: `cname_unclaimed`, judged by the service's own \"no such resource\" answer or NXDOMAIN), a CNAME, delegation, MX host or SPF include under a registered domain that does not exist (`cname_dangling`, `ns_dangling`, `mx_dangling`, `spf_dangling`), or a delegation no name server serves (`ns_dangling`). Checks the domain, names from CT logs, a zone transfer where allowed, a built-in list of common labels and `names` (extra names under the domain, at most 100). Use it to audit a domain's DNS for takeover risk. Takes a few seconds (every name resolved, services asked over HTTP). Main fields: `candidates[]` (name, type, target, chain, provider, evidence, confidence confirmed/potential/unlikely), `names_checked`, `sources`, `grade`/`score`, `findings`, `limitations` (names that could not be judged).",
    input: TakeoverInputs.json,
    output: TakeoverReport,
    run: (args) => subdomainTakeover(args).pipe(Effect.provide(context)),
    summary: (r) =>
      `Subdomain takeover check of ${r.domain}: ${r.names_checked} name(s) checked, grade ${r.grade} (score ${r.score}); ${r.candidates.length === 0 ? "no candidate" : r.candidates.map((c) => `${c.name} ${c.type} → ${c.target} (${c.confidence})`).join("; ")}`
  })

  const auditTool = defineTool({
    name: "domain_audit",
    title: "Domain audit (web, mail, DNS, exposure), scored",
    description:
      "Audit how well a domain is set up, as internet.nl's website and mail tests do, with DNS and exposure beside them, in one call: `web` (the site answers, IPv6 and the same page over IPv6, HTTPS with a valid certificate, the http-to-https redirect, HSTS of a year, TLS grade A- or better, security headers grade B or better, security.txt), `mail` (SPF, DMARC, DKIM, MTA-STS, TLS-RPT, DANE, IPv6 of the MX hosts, blocklists), `dns` (DNSSEC, zone hygiene grade, IPv6 of the name servers, CAA) and `exposure` (subdomain takeover, blocklists of the domain and its web addresses). `sections` picks some (default all). Use it for a first, overall judgement of a domain; the single tools (email_security, tls_scan, zone_hygiene, subdomain_takeover, …) go deeper. Takes several seconds, at most AUDIT_DEADLINE_MS (default 25 s). Main fields: `grade`/`score`, `sections.<name>` {status complete/incomplete/skipped, score, grade, checks[] {id, passed (null: undecided or not applicable), severity, summary}}, `findings[]` (each failed check with its recommendation), `limitations` (what could not be checked), and `reports` (the underlying reports).",
    input: AuditInputs.pick("domain", "sections").json,
    output: DomainAuditReport,
    run: (args) => Effect.flatMap(McpCaller, (caller) => domainAudit(args, caller.orgId)).pipe(Effect.provide(context)),
    summary: auditText,
    timeout: () => Duration.millis(config.auditDeadlineMs)
  })

  const blocklistTool = defineTool({
    name: "blocklist",
    title: "Blocklist (DNSBL) reputation",
    description:
      "Check whether an IP address or a domain is on the DNS blocklists mail receivers consult (DNSBLs: by default Spamhaus ZEN, SpamCop, Barracuda, PSBL for addresses; Spamhaus DBL, SURBL for domains). For a domain, the domain is asked of the domain lists and every address of its A, AAAA and MX hosts of the address lists. Use it when mail is rejected or lands in spam, or to vet an address or domain. Takes about a second (every list asked at once). Each list is first checked with its RFC 5782 test points; a list that fails them, refuses the query (127.255.255.x), answers outside 127.0.0.0/8 (a rewriting resolver) or does not answer is `error`, never `not_listed`. Main fields: `listed_count`, `lists[]` (zone, item, status listed/not_listed/error, return `codes`, `reason`: the list's TXT for a listing, why for an error), `ips` (the addresses asked), `limitations`. A private or special-purpose address is refused (target_forbidden).",
    input: BlocklistInputs.json,
    output: BlocklistReport,
    run: (args) => blocklistCheck(args).pipe(Effect.provide(context)),
    summary: (r) => {
      const listed = r.lists.filter((l) => l.status === "listed")
      const errors = r.lists.filter((l) => l.status === "error").length
      return `Blocklists for ${r.target}: ${listed.length === 0 ? "listed nowhere" : `listed ${listed.length} time(s): ${listed.map((l) => `${l.item} on ${l.zone} (${l.codes.join(", ")})`).join("; ")}`}; ${r.lists.length} (list, item) pairs asked${errors > 0 ? `, ${errors} without a usable answer` : ""}`
    }
  })

  return [httpCheckTool, wafTool, freshnessTool, zoneTool, ctTool, emailTool, tlsTool, takeoverTool, blocklistTool, auditTool] as ReadonlyArray<ToolDefinition>
})
