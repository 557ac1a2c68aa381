/** `GET /v1/security/headers`: the MDN HTTP Observatory's grade, computed here (DECISIONS.md "HTTP security grade"). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { SecurityHeadersReport } from "../../analyses/observatory/schema"
import { Auth } from "../../product/auth/Auth"
import { TargetForbiddenWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"

export const SecurityHeadersParams = Schema.Struct({
  url: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)).annotations({
    description: "URL or bare host name; a bare name is scanned as the Observatory scans a host (http://host/ and https://host/)"
  })
})

export class SecurityHeadersApi extends HttpApiGroup.make("securityHeaders")
  .annotate(PlanLabel, "free")
  .add(
    HttpApiEndpoint.get("securityHeaders", "/v1/security/headers")
      .setUrlParams(SecurityHeadersParams)
      .addSuccess(SecurityHeadersReport)
      .addError(TargetForbiddenWire)
  )
  .middleware(Auth)
{}
