import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { IntParam } from "./params"
import { DomainParam } from "../../kernel/domainParam"
import { CtLogsReport } from "../../analyses/ct/schema"

export { CtCertificate, CtLogsReport } from "../../analyses/ct/schema"

export const CtLogsParams = Schema.Struct({
  domain: DomainParam,
  offset: Schema.optional(IntParam({ min: 0, max: 1_000_000, default: 0, description: "skip the first N certificates" })),
  limit: Schema.optional(IntParam({ min: 1, max: 100, default: 20, description: "certificates per page" })),
  since: Schema.optional(Schema.String.annotations({ description: "ISO 8601; only entries logged at or after it" }))
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
