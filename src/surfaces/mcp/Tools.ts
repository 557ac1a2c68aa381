/**
 * The MCP tools (docs/mcp.md): five lookups of their own (this file; `security_headers` takes
 * `GET /v1/security/headers`'s inputs), the analyses of the REST API (./analysisTools.ts) and
 * `monitor_status` (./monitorTool.ts). Each is defined by an argument Schema and an output Schema
 * (./tool.ts); a tool that fails yields a ToolFailure with the REST catalogue's code (→ `isError: true`).
 */
import { Clock, Context, Effect, Layer } from "effect"
import { AppConfig } from "../../platform/Config"
import { DnsResolver } from "../../adapters/dns/DnsResolver"
import { parseTarget } from "../../adapters/probe/guard"
import { makeAnalysisTools } from "./analysisTools"
import { makeMonitorStatusTool } from "./monitorTool"
import { makeLookalikeTool } from "./lookalikeTool"
import { DnsLookupArgs, DomainIntelligenceArgs, SslCertificateArgs, WhoisLookupArgs } from "./args"
import { SecurityHeadersInputs } from "../api/headers"
import { CertInspector } from "../../adapters/x509/CertInspector"
import { renderRecord, reverseName, withholdPrivate, type RecordTypeName } from "../../analyses/dns/dnsRecords"
import { ToolFailure } from "../../kernel/ToolFailure"
import { Outbound } from "../../adapters/probe/Outbound"
import { Rdap } from "../../adapters/rdap/Rdap"
import { CertReport, DnsReport, WhoisReport } from "../../kernel/lookupReports"
import { DomainIntelligenceReport } from "./domainIntelligence"
import { HttpSecurityGrade } from "../../analyses/observatory/HttpSecurityGrade"
import { SecurityHeadersReport } from "../../analyses/observatory/schema"
import { certText, dnsText, headersText, whoisText } from "./summaries"
import { defineTool, type ToolDefinition } from "./tool"

export { DnsLookupArgs, DomainIntelligenceArgs, SslCertificateArgs, WhoisLookupArgs } from "./args"
export type { ToolDefinition } from "./tool"

// ---------------------------------------------------------------------------------------------
// The tools

export class Tools extends Context.Tag("domain-intel/McpTools")<Tools, {
  readonly list: ReadonlyArray<ToolDefinition>
  readonly get: (name: string) => ToolDefinition | undefined
}>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const dns = yield* DnsResolver
      const config = yield* AppConfig
      const rdap = yield* Rdap
      const certs = yield* CertInspector
      const grader = yield* HttpSecurityGrade

      const dnsLookup = (domain: string, type: RecordTypeName) =>
        Effect.gen(function*() {
          const bare = domain.replace(/\.$/, "").toLowerCase()
          const queryName = type === "PTR" ? reverseName(bare) ?? bare : bare
          const ans = yield* dns.query({ name: queryName, type }).pipe(
            Effect.mapError((e) => new ToolFailure({ message: e.message }))
          )
          const shown = withholdPrivate(bare, type, ans.answers.map(renderRecord), config.allowPrivateTargets)
          return {
            domain: bare,
            query_name: queryName,
            type,
            rcode: ans.rcode,
            authenticated_data: ans.flags.ad,
            resolver: ans.server.host.includes(":") ? `[${ans.server.host}]:${ans.server.port}` : `${ans.server.host}:${ans.server.port}`,
            answers: shown.answers,
            authority: ans.authorities.filter((a) => a.type === "SOA").map(renderRecord),
            ...(shown.withheld ? { withheld: shown.withheld } : {})
          } satisfies DnsReport
        })

      // The MDN HTTP Observatory's grade, as GET /v1/security/headers reports it (and fails).
      const securityHeaders = (input: string) => grader.grade(input).pipe(Effect.mapError(ToolFailure.fromApiError))

      const dnsTool = defineTool({
        name: "dns_lookup",
        title: "DNS lookup",
        description:
          "Look up DNS records of one name through the service's recursive resolvers. Use it for a specific record type (A, AAAA, CNAME, MX, NS, TXT, SOA, CAA, SRV, PTR, DNSKEY, DS, HTTPS, SVCB and more; any letter case; default A). Takes well under a second. Returns each record with its TTL (`answers[].value` in zone-file form, `answers[].data` structured), `rcode` (NXDOMAIN: the name does not exist) and `authenticated_data` (the resolver validated DNSSEC).",
        input: DnsLookupArgs,
        output: DnsReport,
        run: (args) => dnsLookup(args.domain, (args.type?.trim().toUpperCase() ?? "A") as RecordTypeName),
        summary: dnsText
      })

      const whoisTool = defineTool({
        name: "whois_lookup",
        title: "Registration data (RDAP/WHOIS)",
        description:
          "Registration data of a registered domain via RDAP (the successor of WHOIS). Use it for who registered a domain, when it was created and when it expires. Takes 1-3 s (registry, then the registrar's RDAP server). Returns `registrar`, `created`/`expires`/`updated` (ISO dates), `days_until_expiry`, `status` (EPP codes such as clientTransferProhibited), `nameservers`, `dnssec.delegation_signed` and `abuse_contact`.",
        input: WhoisLookupArgs,
        output: WhoisReport,
        run: (args) => rdap.lookup(args.domain),
        summary: whoisText
      })

      const sslTool = defineTool({
        name: "ssl_certificate",
        title: "TLS certificate check",
        description:
          "Connect to domain:port (default 443) with TLS and check the certificate it serves. Use it to see whether a site's certificate is trusted and when it expires. Takes about a second plus a CT lookup. Returns `valid` (trusted chain, matching hostname, within dates), `chain_valid`/`chain_error`, `hostname_match`, `days_left`, `certificate` (subject, issuer, SANs, key, signature), negotiated `protocol`/`cipher`, `embedded_sct` and `ct_history` (certificates logged for the domain).",
        input: SslCertificateArgs,
        output: CertReport,
        run: (args) => certs.inspect(args.domain.replace(/\.$/, "").toLowerCase(), args.port ?? 443),
        summary: certText
      })

      const headersTool = defineTool({
        name: "security_headers",
        title: "Security headers grade",
        description:
          "Grade a site's HTTP security the way the MDN HTTP Observatory does (same ten tests, result names, score and A+..F grade): fetches / over http and https, follows redirects, sends a CORS preflight. A bare domain is scanned as the Observatory scans a host. Use it to audit a site's browser-side hardening. Takes one to a few seconds. Returns `grade`, `score` (100 plus modifiers; bonuses only from 90), `tests` (content-security-policy, cookies, cross-origin-resource-sharing, redirection, referrer-policy, strict-transport-security, subresource-integrity, x-content-type-options, x-frame-options, cross-origin-resource-policy: each `pass`, `result`, `score_modifier`, `recommendation`) and unscored `extras` (Permissions-Policy, COOP, COEP, security.txt).",
        input: SecurityHeadersInputs.json,
        output: SecurityHeadersReport,
        run: (args) => securityHeaders(args.url),
        summary: headersText
      })

      const intelligenceTool = defineTool({
        name: "domain_intelligence",
        title: "Domain overview (DNS, TLS, headers)",
        description:
          "One combined report on a domain: its main DNS records (A, AAAA, MX, NS, TXT, CAA), its TLS certificate and its security headers, gathered concurrently. Use it first for a quick overall assessment, then the specific tools for detail. Takes a few seconds. `summary` holds the headline answers (resolves, certificate_valid, certificate_days_left, headers_grade); a part that failed is `{error}` while the others are still reported.",
        input: DomainIntelligenceArgs,
        output: DomainIntelligenceReport,
        run: (args) =>
          Effect.gen(function*() {
            const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(args.domain.trim())
            const target = parseTarget(hasScheme ? args.domain : `https://${args.domain.trim()}`)
            if ("_tag" in target) return yield* ToolFailure.fromApiError(target)
            const host = target.host
            const port = target.url.protocol === "https:" ? target.port : 443
            const types: ReadonlyArray<RecordTypeName> = ["A", "AAAA", "MX", "NS", "TXT", "CAA"]
            const settle = <A>(eff: Effect.Effect<A, ToolFailure>) =>
              Effect.either(eff).pipe(Effect.map((e) => (e._tag === "Right" ? { ok: true as const, value: e.right } : { ok: false as const, error: e.left.message })))
            const [dnsResults, ssl, headers] = yield* Effect.all([
              Effect.forEach(types, (t) => settle(dnsLookup(host, t)), { concurrency: "unbounded" }),
              settle(certs.inspect(host, port)),
              settle(securityHeaders(hasScheme ? args.domain.trim() : host))
            ], { concurrency: 3 })
            const dnsOk = dnsResults.filter((r) => r.ok)
            if (dnsOk.length === 0 && !ssl.ok && !headers.ok) {
              return yield* new ToolFailure({ message: `nothing about ${host} could be gathered: DNS: ${(dnsResults[0] as { error: string }).error}; TLS: ${ssl.error}; headers: ${headers.error}` })
            }
            const records: Record<string, ReadonlyArray<{ value: string; ttl: number }> | { error: string }> = {}
            types.forEach((t, i) => {
              const r = dnsResults[i]
              records[t] = r.ok ? r.value.answers.map((a) => ({ value: a.value, ttl: a.ttl })) : { error: r.error }
            })
            const checkedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
            return {
              domain: host,
              checked_at: checkedAt,
              dns: { records, rcode: dnsOk[0]?.ok ? dnsOk[0].value.rcode : null },
              ssl: ssl.ok ? ssl.value : { error: ssl.error },
              security_headers: headers.ok ? headers.value : { error: headers.error },
              summary: {
                resolves: dnsOk.some((r) => r.ok && (r.value.type === "A" || r.value.type === "AAAA") && r.value.answers.length > 0),
                certificate_valid: ssl.ok ? ssl.value.valid : null,
                certificate_days_left: ssl.ok ? ssl.value.days_left : null,
                headers_grade: headers.ok ? headers.value.grade : null,
                headers_score: headers.ok ? headers.value.score : null
              }
            }
          }),
        summary: (r) =>
          [
            `Domain intelligence for ${r.domain}`,
            "",
            ...Object.entries(r.dns.records).map(([t, v]) =>
              "error" in v ? `DNS ${t}: error (${v.error})` : `DNS ${t}: ${v.length ? v.map((a) => a.value).join(", ") : "none"}`
            ),
            "",
            "error" in r.ssl ? `TLS certificate: could not be checked (${r.ssl.error})` : certText(r.ssl),
            "",
            "error" in r.security_headers ? `Security headers: could not be fetched (${r.security_headers.error})` : headersText(r.security_headers)
          ].join("\n")
      })

      const analyses = yield* makeAnalysisTools
      const monitorStatus = yield* makeMonitorStatusTool
      const lookalikes = yield* makeLookalikeTool
      const list: ReadonlyArray<ToolDefinition> = [dnsTool, whoisTool, sslTool, headersTool, intelligenceTool, ...analyses, lookalikes, monitorStatus]
      const byName = new Map(list.map((t) => [t.name, t]))
      return { list, get: (name: string) => byName.get(name) }
    })
  )
}
