/**
 * The Zone Hygiene report: the one contract of `GET /v1/dns/zone-hygiene`, the MCP tool
 * `zone_hygiene` and the reports that embed it (the domain audit). docs/operations/zone-hygiene.md.
 */
import { Schema } from "effect"

const Severity = Schema.Literal("critical", "high", "medium", "low", "info")
const N = Schema.NullOr

/** The zone's CAA set (RFC 8659: the closest one climbing from the name), or null when it could not be read. */
const CaaDetail = Schema.Struct({
  found_at: N(Schema.String).annotations({ description: "the name the CAA set was found at; null when no name up the tree has one" }),
  records: Schema.Array(Schema.Struct({ flags: Schema.Number, tag: Schema.String, value: Schema.String })),
  issue: Schema.Array(Schema.String).annotations({ description: "CA domains allowed to issue (issue tags)" }),
  issuewild: Schema.Array(Schema.String).annotations({ description: "CA domains allowed to issue wildcard certificates (issuewild tags)" })
}).annotations({ identifier: "ZoneCaa" })

/** What DNSSEC validation of the zone found, or null when it could not be determined. */
const DnssecDetail = Schema.Struct({
  status: Schema.Literal("secure", "insecure", "bogus", "indeterminate"),
  reason: N(Schema.String),
  signed: Schema.Boolean,
  ds_present: Schema.Boolean,
  algorithms: Schema.Array(Schema.Number).annotations({ description: "DNSKEY algorithm numbers (IANA)" }),
  denial: N(Schema.Literal("nsec", "nsec3")),
  nsec3: N(Schema.Struct({ algorithm: Schema.Number, iterations: Schema.Number, salt: Schema.String, opt_out: Schema.Boolean })),
  nsec3_compliant: N(Schema.Boolean).annotations({ description: "RFC 9276: 0 extra iterations and an empty salt" }),
  chain: Schema.Array(Schema.Struct({ zone: Schema.String, status: Schema.String, detail: Schema.String })),
  verified_rrsets: Schema.Array(Schema.String),
  earliest_expiration: N(Schema.String).annotations({ description: "ISO 8601: the earliest RRSIG expiration seen" })
}).annotations({ identifier: "ZoneDnssec" })

export const ZoneHygieneReport = Schema.Struct({
  domain: Schema.String,
  nameservers: Schema.Array(Schema.String),
  nameserver_addresses: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }),
  soa_consistency: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    description: "One entry per authoritative nameserver (\"name (ip)\") and per configured recursive resolver (\"resolver ip:port\") with serial, primary_ns, rname, refresh, retry, expire, minimum, error; plus unique_serials"
  }),
  soa_field_validation: Schema.Array(Schema.Struct({
    field: Schema.String,
    value: N(Schema.Number),
    recommended_min: N(Schema.Number),
    recommended_max: N(Schema.Number),
    status: Schema.Literal("ok", "too_low", "too_high", "unknown")
  })),
  soa_drift_detected: Schema.Boolean,
  wildcard_detected: Schema.Boolean,
  wildcard_ips: Schema.Array(Schema.String),
  exposed_subdomains: Schema.Array(Schema.Struct({
    name: Schema.String,
    ips: Schema.Array(Schema.String),
    record_type: Schema.String,
    cname_target: N(Schema.String)
  })),
  exposed_count: Schema.Number,
  open_resolver_check: Schema.Array(Schema.Struct({
    nameserver: Schema.String,
    ip: Schema.String,
    is_open_resolver: Schema.Boolean,
    status: Schema.String
  })),
  open_resolvers_detected: Schema.Number,
  zone_transfer: Schema.Array(Schema.Struct({
    nameserver: Schema.String,
    ip: Schema.String,
    allowed: Schema.Boolean,
    records: Schema.Number,
    status: Schema.String
  })),
  caa: N(CaaDetail),
  dnssec: N(DnssecDetail),
  checks: Schema.Array(Schema.Struct({
    check: Schema.String,
    passed: Schema.Boolean,
    severity_max: N(Severity),
    finding_count: Schema.Number,
    status: Schema.String
  })),
  composite: Schema.Struct({
    dnssec_status: Schema.Literal("secure", "insecure", "bogus", "indeterminate"),
    dnssec_reason: N(Schema.String),
    has_caa: Schema.Boolean,
    caa_unauthorized_ct_issuers: Schema.Array(Schema.String),
    zone_transfer_vulnerable: Schema.Boolean,
    nsec3_compliant: N(Schema.Boolean)
  }),
  hygiene_score: Schema.Number,
  hygiene_grade: Schema.Literal("A", "B", "C", "D", "F"),
  findings: Schema.Array(Schema.Struct({
    check: Schema.String,
    severity: Severity,
    message: Schema.String,
    recommendation: N(Schema.String)
  })),
  recommendations: Schema.Array(Schema.String),
  limitations: Schema.Array(Schema.String),
  timings_ms: Schema.Record({ key: Schema.String, value: Schema.Number }).annotations({
    description: "Wall time of the nameserver enumeration, of each check, and of the whole audit"
  })
})
export type ZoneHygieneReport = typeof ZoneHygieneReport.Type
