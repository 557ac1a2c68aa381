/** `GET /v1/security/headers`: the MDN HTTP Observatory's grade, computed here. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { SecurityHeadersReport } from "../../analyses/observatory/schema"
import { Auth } from "../../product/auth/Auth"
import { TargetForbiddenWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { operationInputs, Param } from "./inputs"
import { UrlParam } from "./params"

/** `GET /v1/security/headers` and the MCP tool `security_headers`. */
export const SecurityHeadersInputs = operationInputs({
  url: Param.text(UrlParam, {
    description: "URL or bare host name; a bare name is scanned as the Observatory scans a host (http://host/ and https://host/)"
  })
})

export class SecurityHeadersApi extends HttpApiGroup.make("securityHeaders")
  .annotate(PlanLabel, "free")
  .add(
    HttpApiEndpoint.get("securityHeaders", "/v1/security/headers")
      .setUrlParams(SecurityHeadersInputs.query)
      .addSuccess(SecurityHeadersReport)
      .addError(TargetForbiddenWire)
  )
  .middleware(Auth)
{}
