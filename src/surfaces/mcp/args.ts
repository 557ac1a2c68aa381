/**
 * Argument Schemas of the lookups that have no REST operation of their own (`dns_lookup`,
 * `whois_lookup`, `ssl_certificate`, `domain_intelligence`): each decodes `tools/call` arguments
 * and, through `JSONSchema.make`, is the `inputSchema` tools/list publishes. The tools that mirror
 * a REST operation take that operation's inputs (src/surfaces/api/*: `…Inputs.json`).
 */
import { Schema } from "effect"
import { parseTarget } from "../../adapters/probe/guard"
import { recordTypes } from "../../analyses/dns/dnsRecords"

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

export const DomainIntelligenceArgs = Schema.Struct({
  domain: TargetUrl.annotations({ title: "domain", description: "Domain (example.com), or an https URL whose host and port are analysed (https://example.com:8443/)" })
})
