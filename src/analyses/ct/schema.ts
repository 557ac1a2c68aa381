/** The CT Logs report (docs/operations/ct-logs.md): the one contract of the REST answer and the MCP tool. */
import { Schema } from "effect"
import { CT_SOURCE_NAMES } from "../../platform/Config"

const N = Schema.NullOr
const SourceName = Schema.Literal(...CT_SOURCE_NAMES)

export const CtCertificate = Schema.Struct({
  id: Schema.Number.annotations({ description: "crt.sh's certificate ID; for a certificate only Cert Spotter listed, Cert Spotter's issuance ID" }),
  ids: Schema.Array(Schema.Number).annotations({ description: "every crt.sh ID merged into this entry (precertificate and certificate); empty when crt.sh did not list it" }),
  issuer: Schema.String,
  issuer_ca_id: N(Schema.Number),
  common_name: N(Schema.String),
  names: Schema.Array(Schema.String),
  serial_number: N(Schema.String),
  not_before: N(Schema.String),
  not_after: N(Schema.String),
  timestamp: Schema.String.annotations({ description: "when the certificate was first logged (crt.sh); its not_before when only Cert Spotter listed it" }),
  sha256: N(Schema.String).annotations({ description: "SHA-256 of the certificate (of the precertificate when only that is known), from Cert Spotter" }),
  certspotter_id: N(Schema.String).annotations({ description: "Cert Spotter's issuance ID, when Cert Spotter listed the certificate" }),
  sources: Schema.Array(SourceName).annotations({ description: "the sources that listed the certificate" })
})

export const CtSourceStatus = Schema.Struct({
  name: SourceName,
  status: Schema.Literal("ok", "error", "skipped").annotations({
    description: "ok: it answered for this result; error: it was asked and failed (within CT_BUDGET_MS); skipped: it was not asked, as it had rate-limited the service until a time not yet reached"
  }),
  certificates: Schema.Number.annotations({ description: "certificates of the result this source listed (for a failed source, those kept from its previous answer)" }),
  detail: N(Schema.String).annotations({ description: "why it failed or was skipped; null when ok" }),
  fetched_at: Schema.String.annotations({ description: "when this source's certificates in the result were fetched" })
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
  sources: Schema.Array(CtSourceStatus),
  note: Schema.String,
  limitations: Schema.Array(Schema.String),
  cache: Schema.Struct({ outcome: Schema.Literal("hit", "miss", "stale"), fetched_at: Schema.String, age_seconds: Schema.Number }),
  pagination: Schema.Struct({ offset: Schema.Number, limit: Schema.Number, next_offset: N(Schema.Number) }),
  since: N(Schema.String),
  embedded_sct: N(Schema.Struct({ count: Schema.Number, chrome_compliant: Schema.Boolean, note: Schema.String, certificate_id: Schema.Number }))
})
