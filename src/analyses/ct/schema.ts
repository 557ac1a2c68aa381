/** The CT Logs report (docs/operations/ct-logs.md, "Report"): the one contract of the REST answer and the MCP tool. */
import { Schema } from "effect"

const N = Schema.NullOr

export const CtCertificate = Schema.Struct({
  id: Schema.Number,
  ids: Schema.Array(Schema.Number),
  issuer: Schema.String,
  issuer_ca_id: N(Schema.Number),
  common_name: N(Schema.String),
  names: Schema.Array(Schema.String),
  serial_number: N(Schema.String),
  not_before: N(Schema.String),
  not_after: N(Schema.String),
  timestamp: Schema.String
})

export const CtLogsReport = Schema.Struct({
  domain: Schema.String,
  certificates: Schema.Array(CtCertificate),
  scts: Schema.Array(CtCertificate).annotations({ description: "Deprecated alias of certificates" }),
  hasSCTs: Schema.Boolean,
  count: Schema.Number,
  total: Schema.Number,
  truncated: Schema.Boolean,
  source: Schema.String,
  note: Schema.String,
  cache: Schema.Struct({ outcome: Schema.Literal("hit", "miss", "stale"), fetched_at: Schema.String, age_seconds: Schema.Number }),
  pagination: Schema.Struct({ offset: Schema.Number, limit: Schema.Number, next_offset: N(Schema.Number) }),
  since: N(Schema.String),
  embedded_sct: N(Schema.Struct({ count: Schema.Number, chrome_compliant: Schema.Boolean, note: Schema.String, certificate_id: Schema.Number }))
})
