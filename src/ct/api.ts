import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../auth/Auth"
import { UpstreamUnavailableWire } from "../domain/errors"
import { DomainParam } from "../kernel/domainParam"
import { PlanLabel } from "../http/Operation"
import { IntParam } from "../openapi/params"

const N = Schema.NullOr

export const CtLogsParams = Schema.Struct({
  domain: DomainParam,
  offset: Schema.optional(IntParam({ min: 0, max: 1_000_000, default: 0, description: "skip the first N certificates" })),
  limit: Schema.optional(IntParam({ min: 1, max: 100, default: 20, description: "certificates per page" })),
  since: Schema.optional(Schema.String.annotations({ description: "ISO 8601; only entries logged at or after it" }))
})

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

export class CtApi extends HttpApiGroup.make("ct")
  .add(
    HttpApiEndpoint.get("ctLogs", "/v1/domain/ct-logs")
      .setUrlParams(CtLogsParams)
      .addSuccess(CtLogsReport)
      .addError(UpstreamUnavailableWire)
      .annotate(PlanLabel, "developer")
  )
  .middleware(Auth)
{}
