/** `GET /v1/security/tls`: developer plan, category `security`. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { TlsReport } from "../../analyses/tls/schema"
import { Auth } from "../../product/auth/Auth"
import { TargetForbiddenWire, UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { operationInputs, Param } from "./inputs"

/** `GET /v1/security/tls` and the MCP tool `tls_scan`. */
export const TlsScanInputs = operationInputs({
  host: Param.text(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(300)), {
    description: "Host name or IP address to scan (no scheme, port or path); the target guard applies to it and every address it resolves to"
  }),
  port: Param.int({ min: 1, max: 65535, default: 443, description: "TCP port of the TLS service" })
})

export class TlsApi extends HttpApiGroup.make("tls")
  .annotate(PlanLabel, "developer")
  .add(
    HttpApiEndpoint.get("tlsScan", "/v1/security/tls")
      .setUrlParams(TlsScanInputs.query)
      .addSuccess(TlsReport)
      .addError(TargetForbiddenWire)
      .addError(UpstreamUnavailableWire)
  )
  .middleware(Auth)
{}
