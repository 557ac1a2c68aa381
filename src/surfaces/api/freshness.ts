import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Auth } from "../../product/auth/Auth"
import { TargetForbiddenWire, UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { FreshnessReport } from "../../analyses/freshness/schema"
import { PageParam } from "../../kernel/domainParam"
import { operationInputs, Param } from "./inputs"

export { CacheHeaders, FreshnessReport } from "../../analyses/freshness/schema"

/** `GET /v1/domain/content-freshness` and the MCP tool `content_freshness`. */
export const ContentFreshnessInputs = operationInputs({
  domain: Param.text(PageParam, { description: "Bare domain (https is tried first, then http) or a full http(s) URL of the page" })
})

export class FreshnessApi extends HttpApiGroup.make("freshness")
  .annotate(PlanLabel, "developer")
  .annotate(OpenApi.Description, "Content freshness")
  .add(
    HttpApiEndpoint.get("contentFreshness", "/v1/domain/content-freshness")
      .annotate(OpenApi.Summary, "How fresh a site's content is")
      .annotate(OpenApi.Description, "Fetches the page (a bare domain: https first, then http), extracts its publication and modification dates (meta tags, JSON-LD, time elements, the URL, visible text, Last-Modified), analyses its cache headers, cross-checks the dates and grades the freshness.")
      .setUrlParams(ContentFreshnessInputs.query)
      .addSuccess(FreshnessReport)
      .addError(TargetForbiddenWire)
      .addError(UpstreamUnavailableWire)
  )
  .middleware(Auth)
{}
