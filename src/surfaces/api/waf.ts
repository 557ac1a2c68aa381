import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { TargetForbiddenWire } from "../../kernel/errors"
import { PageParam } from "../../kernel/domainParam"
import { operationInputs, Param } from "./inputs"
import { PlanLabel } from "../../platform/http/Operation"
import { WafReport } from "../../analyses/waf/schema"

export { ProviderOut, WafReport } from "../../analyses/waf/schema"

export const ActiveProbeParam = Schema.transform(
  Schema.String.pipe(Schema.filter((s) => /^(true|false|1|0|yes|no)$/i.test(s.trim()), { message: () => "active_probe must be true or false" })),
  Schema.Boolean,
  { strict: true, decode: (s) => /^(true|1|yes)$/i.test(s.trim()), encode: (b) => (b ? "true" : "false") }
)

/** `GET /v1/domain/waf`; the MCP tool `waf_detection` takes `domain` only (passive). */
export const WafDetectionInputs = operationInputs({
  domain: Param.text(PageParam, { description: "Bare domain (https is tried first, then http) or a full http(s) URL" }),
  active_probe: Param.bool({ default: false, description: "true runs the active probe (needs proven ownership: an audit token, or the _domain-intel-verify TXT record); false is passive only" }, ActiveProbeParam)
})

export class WafApi extends HttpApiGroup.make("waf")
  .annotate(PlanLabel, "developer")
  .annotate(OpenApi.Description, "WAF and CDN detection")
  .add(
    HttpApiEndpoint.get("wafDetection", "/v1/domain/waf")
      .annotate(OpenApi.Summary, "Detect a web application firewall or CDN in front of a site")
      .annotate(OpenApi.Description, "Passive detection from headers, cookies, body and status. With `active_probe=true` and proven ownership (an audit token as the Bearer credential, or the `_domain-intel-verify` TXT record), five benign canary requests show what the WAF blocks; they go only to the verified host.")
      .setUrlParams(WafDetectionInputs.query)
      .addSuccess(WafReport)
      .addError(TargetForbiddenWire)
  )
  .middleware(Auth)
{}
