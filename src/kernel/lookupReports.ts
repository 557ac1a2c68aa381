/**
 * Output Schemas of the five original MCP tools (the five analyses added later reuse their REST
 * report Schemas). Each Schema is the one contract of its tool's result: the tool encodes its
 * report through it (→ `structuredContent` and the JSON text block) and `JSONSchema.make` of it
 * is the `outputSchema` tools/list publishes. The report types are derived from them.
 */
import { Schema } from "effect"

const N = <S extends Schema.Schema.Any>(s: S) => Schema.NullOr(s)

export const RenderedRecord = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  ttl: Schema.Number,
  class: Schema.String,
  value: Schema.String.annotations({ description: "Presentation format, as in a zone file" }),
  data: Schema.Unknown.annotations({ description: "Structured RDATA" })
})

export const DnsReport = Schema.Struct({
  domain: Schema.String,
  query_name: Schema.String.annotations({ description: "The name queried (the in-addr.arpa/ip6.arpa name for PTR of an address)" }),
  type: Schema.String,
  rcode: Schema.String.annotations({ description: "NOERROR, NXDOMAIN (the name does not exist), SERVFAIL, …" }),
  authenticated_data: Schema.Boolean.annotations({ description: "The resolver validated the answer with DNSSEC (AD flag)" }),
  resolver: Schema.String,
  answers: Schema.Array(RenderedRecord),
  authority: Schema.Array(RenderedRecord),
  withheld: Schema.optional(Schema.String.annotations({
    description: "How many answers in private or special-purpose ranges were left out (absent when none were)"
  }))
})
export type DnsReport = typeof DnsReport.Type

const DsRecord = Schema.Struct({ key_tag: Schema.Number, algorithm: Schema.Number, digest_type: Schema.Number, digest: Schema.String })

export const WhoisReport = Schema.Struct({
  domain: Schema.String,
  registrar: N(Schema.Struct({ name: N(Schema.String), iana_id: N(Schema.String), url: N(Schema.String) })),
  created: N(Schema.String),
  expires: N(Schema.String),
  updated: N(Schema.String),
  days_until_expiry: N(Schema.Number),
  status: Schema.Array(Schema.String),
  nameservers: Schema.Array(Schema.String),
  dnssec: Schema.Struct({ delegation_signed: N(Schema.Boolean), ds_records: Schema.Array(DsRecord) }),
  abuse_contact: N(Schema.Struct({ email: N(Schema.String), phone: N(Schema.String), name: N(Schema.String) })),
  sources: Schema.Struct({
    bootstrap: Schema.Literal("fetched", "cached", "bundled"),
    registry_url: Schema.String,
    registrar_url: N(Schema.String),
    registrar_error: N(Schema.String)
  })
})

export const CertFacts = Schema.Struct({
  subject: Schema.String,
  issuer: Schema.String,
  serial_number: Schema.String,
  not_before: Schema.String,
  not_after: Schema.String,
  sans: Schema.Array(Schema.String),
  key: Schema.Struct({ type: Schema.String, size: N(Schema.Number), curve: N(Schema.String) }),
  signature_algorithm: Schema.String,
  embedded_sct_count: Schema.Number,
  self_signed: Schema.Boolean,
  fingerprint_sha256: Schema.String
})

export const CertReport = Schema.Struct({
  domain: Schema.String,
  port: Schema.Number,
  address: Schema.String,
  valid: Schema.Boolean.annotations({ description: "Chain trusted, hostname matches and the certificate is within its validity dates" }),
  chain_valid: Schema.Boolean,
  chain_error: N(Schema.String),
  hostname_match: Schema.Boolean,
  hostname_error: N(Schema.String),
  expired: Schema.Boolean,
  not_yet_valid: Schema.Boolean,
  days_left: Schema.Number,
  certificate: CertFacts,
  chain: Schema.Array(Schema.Struct({ subject: Schema.String, issuer: Schema.String, not_after: Schema.String })),
  protocol: N(Schema.String),
  cipher: N(Schema.String),
  embedded_sct: Schema.Struct({ count: Schema.Number, chrome_compliant: Schema.Boolean }),
  ct_history: Schema.Struct({
    available: Schema.Boolean,
    count: Schema.Number,
    issuers: Schema.Array(Schema.String),
    latest: Schema.Array(Schema.Struct({ id: Schema.String, issuer: Schema.String, timestamp: Schema.String })),
    note: N(Schema.String)
  })
})

/** A part of a composite report that failed: why. */
export const Failed = Schema.Struct({ error: Schema.String })
