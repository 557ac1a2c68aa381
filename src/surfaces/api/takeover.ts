/** `GET /v1/security/takeover`: developer plan, category `security`, metered. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { TakeoverReport } from "../../analyses/takeover/schema"
import { DomainParam } from "../../kernel/domainParam"
import { NotFoundWire, UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { Auth } from "../../product/auth/Auth"
import { operationInputs, Param } from "./inputs"

/** `GET /v1/security/takeover` and the MCP tool `subdomain_takeover`. */
export const TakeoverInputs = operationInputs({
  domain: Param.text(DomainParam, { description: "The domain whose names are checked, e.g. example.com" }),
  names: Param.list({
    item: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(253)),
    maxItems: 100,
    tooMany: "at most 100 names",
    optional: true,
    description: "Extra names to check, each at or below the domain, at most 100 (a comma list in a query string)"
  })
})

export class TakeoverApi extends HttpApiGroup.make("takeover")
  .annotate(PlanLabel, "developer")
  .add(
    HttpApiEndpoint.get("subdomainTakeover", "/v1/security/takeover")
      .annotate(OpenApi.Summary, "Subdomain takeover and dangling DNS under a domain, graded by confidence")
      .annotate(
        OpenApi.Description,
        "Checks the domain, the names CT logs hold for it, the names of a zone transfer its name servers allow, a built-in list of common labels and `names` (at most 2,000 in all) for dangling DNS: a CNAME to a hosting service's unclaimed resource (the service's \"no such resource\" answer over HTTP, or NXDOMAIN where that means free: `cname_unclaimed`), a CNAME, delegation, MX host or SPF include under a registered domain that does not exist (`cname_dangling`, `ns_dangling`, `mx_dangling`, `spf_dangling`), or a delegation whose every name server refuses the zone (`ns_dangling`). Each candidate has its CNAME `chain`, `provider`, `evidence` and `confidence` (confirmed, potential, unlikely). A name whose lookups fail or time out is listed in `limitations`, never a candidate. 404 when the domain does not exist; 502 when the service's own resolvers cannot answer."
      )
      .setUrlParams(TakeoverInputs.query)
      .addSuccess(TakeoverReport)
      .addError(NotFoundWire)
      .addError(UpstreamUnavailableWire)
  )
  .middleware(Auth)
{}
