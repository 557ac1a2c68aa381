import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
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
  .annotate(PlanLabel, "developer")
  .annotate(OpenApi.Description, "Content freshness")
  .add(
    HttpApiEndpoint.get("contentFreshness", "/v1/domain/content-freshness")
      .annotate(OpenApi.Summary, "How fresh a site's content is")
      .annotate(OpenApi.Description, "Reads the home page, feeds and sitemaps and reports the newest dated content with the evidence for each date.")
      .setUrlParams(Schema.Struct({ domain: DomainParam }))
      .addSuccess(FreshnessReport)
      .addError(TargetForbiddenWire)
      .addError(UpstreamUnavailableWire)
  )
  .middleware(Auth)
{}
