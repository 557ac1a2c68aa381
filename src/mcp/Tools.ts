/**
 * The five MCP tools. Each has one Schema that both decodes its arguments and, through
 * `JSONSchema.make`, gives the `inputSchema` tools/list publishes, so the two cannot drift.
 * A tool that fails on its target yields ToolFailure (→ `isError: true`).
 */
import { Clock, Context, Duration, Effect, JSONSchema, Layer, Schema } from "effect"
import { AppConfig } from "../Config"
import { DnsResolver } from "../dns/DnsResolver"
import { parseTarget } from "../probe/guard"
import { CertInspector, type CertReport } from "./CertInspector"
import { recordTypes, renderRecord, reverseName, wireTypeName, withholdPrivate, type RecordTypeName, type RenderedRecord } from "./dnsRecords"
import { ToolFailure } from "./errors"
import { gradeHeaders, type HeadersReport } from "./headers"
import { Outbound } from "./Outbound"
import { Rdap } from "./Rdap"
import type { WhoisReport } from "./rdapData"

// ---------------------------------------------------------------------------------------------
// Argument schemas

const hostnamePattern =
  /^(?=.{1,254}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/

const DomainName = Schema.String.pipe(
  Schema.pattern(hostnamePattern, { message: () => "must be a domain name such as example.com" })
).annotations({ description: "Domain name, e.g. example.com" })

/** A URL or bare host the target guard can parse (http/https only). */
const TargetUrl = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(2048),
  Schema.filter((s) => {
    const p = parseTarget(s)
    return "_tag" in p ? p.message : true
  }, { jsonSchema: {} })
)

export const DnsLookupArgs = Schema.Struct({
  domain: DomainName.annotations({ description: "Name to query, e.g. example.com or _dmarc.example.com; an IPv4 address with type PTR is turned into its in-addr.arpa name" }),
  type: Schema.optional(Schema.Literal(...recordTypes).annotations({ description: "Record type (upper case). Default A." }))
})

export const WhoisLookupArgs = Schema.Struct({
  domain: DomainName.annotations({ description: "Domain to look up, e.g. example.com (sub-domains are reduced to the registered domain)" })
})

export const SslCertificateArgs = Schema.Struct({
  domain: DomainName.annotations({ description: "Host name (or IPv4 address) to connect to and verify, e.g. example.com" }),
  port: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 65535)).annotations({ title: "port", description: "TCP port. Default 443." }))
})

export const SecurityHeadersArgs = Schema.Struct({
  url: TargetUrl.annotations({ title: "url", description: "URL or bare domain to fetch, e.g. https://example.com/ or example.com (https:// is assumed for a bare domain)" })
})

export const DomainIntelligenceArgs = Schema.Struct({
  domain: TargetUrl.annotations({ title: "domain", description: "Domain (example.com), or an https URL whose host and port are analysed (https://example.com:8443/)" })
})

// ---------------------------------------------------------------------------------------------
// Tool outputs

export interface ToolOutput {
  /** Human-readable summary, shown first. */
  readonly text: string
  /** The structured report, serialised as the second content block. */
  readonly report: unknown
}

export interface ToolDefinition {
  readonly name: string
  readonly description: string
  readonly inputSchema: unknown
  readonly decode: (args: unknown) => Effect.Effect<unknown, import("effect").ParseResult.ParseError>
  readonly run: (args: any) => Effect.Effect<ToolOutput, ToolFailure>
}

/** The JSON Schema of an argument Struct, as MCP wants it (a plain object schema). */
export const inputSchemaOf = (schema: Schema.Schema.Any): Record<string, unknown> => {
  const js = JSONSchema.make(schema as Schema.Schema<unknown, unknown, never>) as unknown as Record<string, unknown>
  const { $schema: _ignored, ...rest } = js
  return rest
}

const define = <A, I>(
  name: string,
  description: string,
  schema: Schema.Schema<A, I, never>,
  run: (args: A) => Effect.Effect<ToolOutput, ToolFailure>
): ToolDefinition => ({
  name,
  description,
  inputSchema: inputSchemaOf(schema),
  decode: Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "error" }),
  run: run as (args: any) => Effect.Effect<ToolOutput, ToolFailure>
})

// ---------------------------------------------------------------------------------------------
// Reports and their readable text

export interface DnsReport {
  readonly domain: string
  readonly query_name: string
  readonly type: string
  readonly rcode: string
  readonly authenticated_data: boolean
  readonly resolver: string
  readonly answers: ReadonlyArray<RenderedRecord>
  readonly authority: ReadonlyArray<RenderedRecord>
  /** Answers left out as non-public (dnsRecords.withholdPrivate); absent when none were. */
  readonly withheld?: string
}

const dnsText = (r: DnsReport): string => {
  const head = `DNS ${r.type} ${r.query_name}: ${r.rcode}${r.authenticated_data ? " (DNSSEC validated by the resolver)" : ""}, ${r.answers.length} answer(s) from ${r.resolver}`
  const lines = r.answers.map((a) => `  ${a.name} ${a.ttl} ${a.class} ${a.type} ${a.value}`)
  if (r.withheld) lines.push(`  ${r.withheld}`)
  if (r.answers.length === 0 && r.rcode === "NXDOMAIN") lines.push("  the name does not exist")
  else if (r.answers.length === 0) lines.push(`  no ${r.type} records at this name`)
  return [head, ...lines].join("\n")
}

const whoisText = (w: WhoisReport): string =>
  [
    `Registration data (RDAP) for ${w.domain}`,
    `  Registrar: ${w.registrar?.name ?? "unknown"}${w.registrar?.iana_id ? ` (IANA ID ${w.registrar.iana_id})` : ""}`,
    `  Created: ${w.created ?? "unknown"}`,
    `  Expires: ${w.expires ?? "unknown"}${w.days_until_expiry !== null ? ` (${w.days_until_expiry} days)` : ""}`,
    `  Updated: ${w.updated ?? "unknown"}`,
    `  Status: ${w.status.length ? w.status.join(", ") : "none given"}`,
    `  Name servers: ${w.nameservers.length ? w.nameservers.join(", ") : "none given"}`,
    `  DNSSEC: ${w.dnssec.delegation_signed === null ? "unknown" : w.dnssec.delegation_signed ? `signed (${w.dnssec.ds_records.length} DS record(s))` : "unsigned"}`,
    `  Abuse contact: ${[w.abuse_contact?.email, w.abuse_contact?.phone].filter(Boolean).join(", ") || "none given"}`,
    ...(w.sources.registrar_error ? [`  Note: the registrar's RDAP server could not be read (${w.sources.registrar_error})`] : [])
  ].join("\n")

const certText = (c: CertReport): string =>
  [
    `TLS certificate of ${c.domain}:${c.port}: ${c.valid ? "VALID" : "INVALID"}`,
    `  Chain: ${c.chain_valid ? "trusted" : `not trusted (${c.chain_error})`}`,
    `  Hostname: ${c.hostname_match ? "matches" : `does not match (${c.hostname_error})`}`,
    `  Validity: ${c.certificate.not_before} → ${c.certificate.not_after} (${c.expired ? "EXPIRED" : c.not_yet_valid ? "not yet valid" : `${c.days_left} days left`})`,
    `  Subject: ${c.certificate.subject}`,
    `  Issuer: ${c.certificate.issuer}`,
    `  SANs: ${c.certificate.sans.join(", ") || "none"}`,
    `  Key: ${c.certificate.key.type}${c.certificate.key.size ? ` ${c.certificate.key.size} bits` : ""}${c.certificate.key.curve ? ` (${c.certificate.key.curve})` : ""}; signature ${c.certificate.signature_algorithm}`,
    `  Connection: ${c.protocol ?? "?"}, ${c.cipher ?? "?"}`,
    `  Embedded SCTs: ${c.embedded_sct.count}${c.embedded_sct.chrome_compliant ? " (meets Chrome's CT policy)" : " (below Chrome's CT policy)"}`,
    `  CT history: ${c.ct_history.available ? `${c.ct_history.count} logged certificate(s)${c.ct_history.issuers.length ? ` from ${c.ct_history.issuers.join("; ")}` : ""}` : c.ct_history.note}`
  ].join("\n")

const headersText = (h: HeadersReport): string =>
  [
    `Security headers of ${h.final_url} (HTTP ${h.status_code}): grade ${h.grade}, score ${h.score}/100`,
    ...h.headers.map((v) => `  ${v.header}: ${v.status.toUpperCase()}${v.deduction ? ` (-${v.deduction})` : ""}${v.findings.length ? ` — ${v.findings.join("; ")}` : ""}`)
  ].join("\n")

// ---------------------------------------------------------------------------------------------
// The tools

const TOOL_TIMEOUT = Duration.seconds(30)

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
      const outbound = yield* Outbound

      const dnsLookup = (domain: string, type: RecordTypeName) =>
        Effect.gen(function*() {
          const bare = domain.replace(/\.$/, "").toLowerCase()
          const queryName = type === "PTR" ? reverseName(bare) ?? bare : bare
          const ans = yield* dns.query({ name: queryName, type: wireTypeName(type) }).pipe(
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

      const securityHeaders = (input: string) =>
        Effect.gen(function*() {
          // A bare domain is fetched over https (where the headers matter).
          const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(input.trim()) ? input.trim() : `https://${input.trim()}`
          const res = yield* outbound.fetch({ url, timeoutMs: 15_000, maxBodyBytes: 64 * 1024, maxRedirects: 5 }).pipe(
            Effect.mapError((e) => new ToolFailure({ message: e.message }))
          )
          return gradeHeaders({ url, finalUrl: res.finalUrl, statusCode: res.status, headers: res.headers })
        })

      const dnsTool = define(
        "dns_lookup",
        "Look up DNS records of a domain through the service's recursive resolvers. Any record type: A, AAAA, CNAME, MX, NS, TXT, SOA, CAA, SRV, PTR, DNSKEY, DS, HTTPS, SVCB and more. Returns every record with its TTL, the response code (NXDOMAIN when the name does not exist) and whether the resolver validated DNSSEC.",
        DnsLookupArgs,
        (args) => dnsLookup(args.domain, args.type ?? "A").pipe(Effect.map((r) => ({ text: dnsText(r), report: r })))
      )

      const whoisTool = define(
        "whois_lookup",
        "Registration data of a domain via RDAP (the successor of WHOIS): registrar, creation, expiry and last-update dates, status codes, name servers, DNSSEC delegation and the registrar's abuse contact. Follows the registry's referral to the registrar's RDAP server.",
        WhoisLookupArgs,
        (args) => rdap.lookup(args.domain).pipe(Effect.map((r) => ({ text: whoisText(r), report: r })))
      )

      const sslTool = define(
        "ssl_certificate",
        "Connect to domain:port (default 443) with TLS and check its certificate: chain trusted or not, hostname match, validity dates and days left, issuer, subject alternative names, key type and size, signature algorithm, negotiated protocol and cipher, embedded SCT count, and the domain's certificate transparency history.",
        SslCertificateArgs,
        (args) => certs.inspect(args.domain.replace(/\.$/, "").toLowerCase(), args.port ?? 443).pipe(Effect.map((r) => ({ text: certText(r), report: r })))
      )

      const headersTool = define(
        "security_headers",
        "Fetch a URL (following redirects) and grade its six security headers: Strict-Transport-Security, Content-Security-Policy, X-Content-Type-Options, X-Frame-Options, Referrer-Policy and Permissions-Policy. Each is judged on its value (a short HSTS max-age or 'unsafe-inline' scripts count as weak), with a score out of 100, a grade from A+ to F and a fix for each problem.",
        SecurityHeadersArgs,
        (args) => securityHeaders(args.url).pipe(Effect.map((r) => ({ text: headersText(r), report: r })))
      )

      const intelligenceTool = define(
        "domain_intelligence",
        "One combined report on a domain: its main DNS records (A, AAAA, MX, NS, TXT, CAA), its TLS certificate and its security headers, gathered concurrently. Use it for a quick overall assessment; use the other tools for detail.",
        DomainIntelligenceArgs,
        (args) =>
          Effect.gen(function*() {
            const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(args.domain.trim())
            const target = parseTarget(hasScheme ? args.domain : `https://${args.domain.trim()}`)
            if ("_tag" in target) return yield* new ToolFailure({ message: target.message })
            const host = target.host
            const port = target.url.protocol === "https:" ? target.port : 443
            const pageUrl = target.url.protocol === "https:" ? target.url.toString() : `https://${host}/`
            const types: ReadonlyArray<RecordTypeName> = ["A", "AAAA", "MX", "NS", "TXT", "CAA"]
            const settle = <A>(eff: Effect.Effect<A, ToolFailure>) =>
              Effect.either(eff).pipe(Effect.map((e) => (e._tag === "Right" ? { ok: true as const, value: e.right } : { ok: false as const, error: e.left.message })))
            const [dnsResults, ssl, headers] = yield* Effect.all([
              Effect.forEach(types, (t) => settle(dnsLookup(host, t)), { concurrency: "unbounded" }),
              settle(certs.inspect(host, port)),
              settle(securityHeaders(pageUrl))
            ], { concurrency: 3 })
            const dnsOk = dnsResults.filter((r) => r.ok)
            if (dnsOk.length === 0 && !ssl.ok && !headers.ok) {
              return yield* new ToolFailure({ message: `nothing about ${host} could be gathered: DNS: ${(dnsResults[0] as { error: string }).error}; TLS: ${ssl.error}; headers: ${headers.error}` })
            }
            const records: Record<string, unknown> = {}
            types.forEach((t, i) => {
              const r = dnsResults[i]
              records[t] = r.ok ? r.value.answers.map((a) => ({ value: a.value, ttl: a.ttl })) : { error: r.error }
            })
            const checkedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
            const report = {
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
            const text = [
              `Domain intelligence for ${host}`,
              "",
              ...types.map((t, i) => {
                const r = dnsResults[i]
                return r.ok ? `DNS ${t}: ${r.value.answers.length ? r.value.answers.map((a) => a.value).join(", ") : r.value.rcode === "NXDOMAIN" ? "NXDOMAIN" : "none"}` : `DNS ${t}: error (${r.error})`
              }),
              "",
              ssl.ok ? certText(ssl.value) : `TLS certificate: could not be checked (${ssl.error})`,
              "",
              headers.ok ? headersText(headers.value) : `Security headers: could not be fetched (${headers.error})`
            ].join("\n")
            return { text, report }
          })
      )

      const list = [dnsTool, whoisTool, sslTool, headersTool, intelligenceTool].map((t) => ({
        ...t,
        run: (args: unknown) =>
          t.run(args).pipe(
            Effect.timeoutFail({ duration: TOOL_TIMEOUT, onTimeout: () => new ToolFailure({ message: `${t.name} did not finish within ${Duration.toSeconds(TOOL_TIMEOUT)} s` }) })
          )
      }))
      const byName = new Map(list.map((t) => [t.name, t]))
      return { list, get: (name: string) => byName.get(name) }
    })
  )
}
