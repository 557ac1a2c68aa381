import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { TargetForbiddenWire, UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { FreshnessReport } from "../../analyses/freshness/schema"

export { CacheHeaders, FreshnessReport } from "../../analyses/freshness/schema"


export const DomainParam = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)).annotations({
  description: "Bare domain (https is tried first, then http) or a full http(s) URL"
})

export class FreshnessApi extends HttpApiGroup.make("freshness")
  .add(
    HttpApiEndpoint.get("contentFreshness", "/v1/domain/content-freshness")
      .setUrlParams(Schema.Struct({ domain: DomainParam }))
      .addSuccess(FreshnessReport)
      .addError(TargetForbiddenWire)
      .addError(UpstreamUnavailableWire)
      .annotate(PlanLabel, "developer")
  )
  .middleware(Auth)
{}
