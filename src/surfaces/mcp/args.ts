/**
 * Argument Schemas of the ten MCP tools: each decodes `tools/call` arguments and, through
 * `JSONSchema.make`, is the `inputSchema` tools/list publishes. Ranges and defaults are those of
 * the REST operation of the same name (SPEC.md "Parameter rules").
 */
import { Schema } from "effect"
import { parseTarget } from "../../adapters/probe/guard"
import { recordTypes } from "../../analyses/dns/dnsRecords"
import { DomainParam } from "../../kernel/domainParam"

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

const knownTypes = new Set<string>(recordTypes)

/**
 * A record type name in any letter case (`mx` is MX). The published schema lists the names in
 * upper case (what a model should send); the server also takes other cases.
 */
export const RecordTypeArg = Schema.String.pipe(
  Schema.filter((s) => knownTypes.has(s.trim().toUpperCase()) || `unknown record type "${s}"; use one of ${recordTypes.join(", ")}`, {
    jsonSchema: { enum: recordTypes }
  })
).annotations({ description: "Record type (case-insensitive). Default A." })

export const DnsLookupArgs = Schema.Struct({
  domain: DomainName.annotations({ description: "Name to query, e.g. example.com or _dmarc.example.com; an IPv4 address with type PTR is turned into its in-addr.arpa name" }),
  type: Schema.optional(RecordTypeArg)
})

export const WhoisLookupArgs = Schema.Struct({
  domain: DomainName.annotations({ description: "Domain to look up, e.g. example.com (sub-domains are reduced to the registered domain)" })
})

export const SslCertificateArgs = Schema.Struct({
  domain: DomainName.annotations({ description: "Host name (or IPv4 address) to connect to and verify, e.g. example.com" }),
  port: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 65535)).annotations({ title: "port", description: "TCP port. Default 443." }))
})

export const TlsScanArgs = Schema.Struct({
  host: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(300)).annotations({ description: "Host name or IP address to scan, e.g. example.com (no scheme, port or path)" }),
  port: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 65535)).annotations({ title: "port", description: "TCP port. Default 443." }))
})

export const SecurityHeadersArgs = Schema.Struct({
  url: TargetUrl.annotations({ title: "url", description: "URL or bare domain to fetch, e.g. https://example.com/ or example.com (https:// is assumed for a bare domain)" })
})

export const DomainIntelligenceArgs = Schema.Struct({
  domain: TargetUrl.annotations({ title: "domain", description: "Domain (example.com), or an https URL whose host and port are analysed (https://example.com:8443/)" })
})

const Int = (min: number, max: number) => Schema.Number.pipe(Schema.int(), Schema.between(min, max))
const AnyDomain = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048))

export const HttpCheckArgs = Schema.Struct({
  url: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)).annotations({
    description: "Full http(s) URL, bare host name or IP address; http:// is prepended when no scheme is given"
  }),
  method: Schema.optional(Schema.Literal("HEAD", "GET", "head", "get").annotations({ description: "HEAD (default: status and headers only) or GET (also downloads and measures the body)" })),
  follow_redirects: Schema.optional(Schema.Boolean.annotations({ description: "Follow redirects (default true); false reports the first redirect response itself" })),
  max_redirects: Schema.optional(Int(0, 10).annotations({ description: "0-10, default 5" })),
  timeout: Schema.optional(Int(1000, 30000).annotations({ description: "Milliseconds for the whole check including redirects, 1000-30000, default 10000" }))
})

export const WafDetectionArgs = Schema.Struct({
  domain: AnyDomain.annotations({ description: "Bare domain (example.com) or a full http(s) URL" })
})

export const ContentFreshnessArgs = Schema.Struct({
  domain: AnyDomain.annotations({ description: "Bare domain (https is tried first, then http) or a full http(s) URL of the page to analyse" })
})

export const ZoneHygieneArgs = Schema.Struct({
  domain: DomainParam.annotations({ description: "Zone apex, e.g. example.com" })
})

export const EmailSecurityArgs = Schema.Struct({
  domain: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(300)).annotations({ description: "The mail domain, e.g. example.com" }),
  dkim_selectors: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(200))).pipe(Schema.maxItems(20)).annotations({
    description: "DKIM selectors to check besides the built-in common ones (at most 20)"
  }))
})

export const CtLogsArgs = Schema.Struct({
  domain: DomainParam.annotations({ description: "Domain whose certificates to list, e.g. example.com" }),
  limit: Schema.optional(Int(1, 100).annotations({ description: "Certificates per page, 1-100, default 20" })),
  offset: Schema.optional(Int(0, 1_000_000).annotations({ description: "Skip the first N certificates; use pagination.next_offset of the previous page" })),
  since: Schema.optional(Schema.String.annotations({ description: "ISO 8601 date or timestamp: only certificates logged at or after it" }))
})
