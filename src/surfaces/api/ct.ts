import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { operationInputs, Param } from "./inputs"
import { DomainParam } from "../../kernel/domainParam"
import { CtLogsReport } from "../../analyses/ct/schema"

export { CtCertificate, CtLogsReport } from "../../analyses/ct/schema"

/** `GET /v1/domain/ct-logs` and the MCP tool `ct_logs`. */
export const CtLogsInputs = operationInputs({
  domain: Param.text(DomainParam, { description: "the domain; its subdomains are included" }),
  offset: Param.int({ min: 0, max: 1_000_000, default: 0, description: "skip the first N certificates (the previous page's pagination.next_offset)" }),
  limit: Param.int({ min: 1, max: 100, default: 20, description: "certificates per page" }),
  since: Param.text(Schema.String, { optional: true, description: "ISO 8601 date or timestamp; only entries logged at or after it" })
})

export class CtApi extends HttpApiGroup.make("ct")
  .annotate(PlanLabel, "developer")
  .annotate(OpenApi.Description, "Certificate Transparency")
  .add(
    HttpApiEndpoint.get("ctLogs", "/v1/domain/ct-logs")
      .annotate(OpenApi.Summary, "Certificates logged in Certificate Transparency for a domain")
      .annotate(OpenApi.Description, "Certificates for the domain and its subdomains from the aggregators of CT_SOURCES (crt.sh and Cert Spotter, asked at once), one entry per certificate, newest first, paginated with `offset`/`limit`, cached for CT_CACHE_TTL_S. One source failing is a 200 with the failure in `sources` and `limitations`; every source failing is 502.")
      .setUrlParams(CtLogsInputs.query)
      .addSuccess(CtLogsReport)
      .addError(UpstreamUnavailableWire)
  )
  .middleware(Auth)
{}
