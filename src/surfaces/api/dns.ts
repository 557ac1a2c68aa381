import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Auth } from "../../product/auth/Auth"
import { RateLimitedWire, UpstreamUnavailableWire, NotFoundWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { DomainParam } from "../../kernel/domainParam"
import { ZoneHygieneReport } from "../../analyses/zone/schema"
import { operationInputs, Param } from "./inputs"

export { ZoneHygieneReport }

/** `GET /v1/dns/zone-hygiene` and the MCP tool `zone_hygiene`. */
export const ZoneHygieneInputs = operationInputs({
  domain: Param.text(DomainParam, { description: "Zone apex, e.g. example.com (a host name; http(s)://example.com/ is accepted as example.com)" })
})

export class DnsApi extends HttpApiGroup.make("dns")
  .annotate(PlanLabel, "developer")
  .annotate(OpenApi.Description, "DNS zone audits")
  .add(
    HttpApiEndpoint.get("zoneHygiene", "/v1/dns/zone-hygiene")
      .annotate(OpenApi.Summary, "Audit a DNS zone: nameservers, SOA, open resolvers, AXFR, CAA, DNSSEC")
      .annotate(OpenApi.Description, "Queries the zone's authoritative nameservers directly and through the service's resolvers, and grades the zone (A-F) with findings and recommendations. When the service's own resolvers do not answer, the answer is 502 `upstream_unavailable`, not a grade.")
      .setUrlParams(ZoneHygieneInputs.query)
      .addSuccess(ZoneHygieneReport)
      .addError(NotFoundWire)
      .addError(UpstreamUnavailableWire)
      .addError(RateLimitedWire)
  )
  .middleware(Auth)
{}
