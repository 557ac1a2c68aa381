/** `GET /v1/security/email`: developer plan, category `security`, metered. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { EmailSecurityReport } from "../../analyses/mail/schema"
import { Auth } from "../../product/auth/Auth"
import { NotFoundWire, UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { DomainParam } from "../../kernel/domainParam"
import { operationInputs, Param } from "./inputs"

/** `GET /v1/security/email`; the MCP tool `email_security` takes `domain` and `dkim_selectors`. */
export const EmailSecurityInputs = operationInputs({
  domain: Param.text(DomainParam, { description: "The mail domain, e.g. example.com" }),
  dkim_selectors: Param.list({
    item: Schema.String.pipe(Schema.maxLength(200)),
    maxItems: 20,
    tooMany: "at most 20 selectors",
    optional: true,
    description: "DKIM selectors checked besides the built-in common ones, at most 20 (a comma list in a query string)"
  }),
  starttls: Param.bool({ default: false, description: "true: connect to each MX on SMTP_PORT and test STARTTLS" })
})

export class EmailApi extends HttpApiGroup.make("email")
  .annotate(PlanLabel, "developer")
  .add(
    HttpApiEndpoint.get("emailSecurity", "/v1/security/email")
      .annotate(OpenApi.Summary, "Email security of a domain: MX, SPF, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI, DANE, STARTTLS")
      .annotate(OpenApi.Description, "Every mail-authentication and transport-security record of the domain, looked up in parallel and graded (A-F) like Zone Hygiene, with findings and the records to publish. SPF is evaluated per RFC 7208 (lookup and void-lookup limits), DMARC with the organizational-domain fallback, DANE only when DNSSEC-validated by the service. `starttls=true` also connects to each MX on SMTP_PORT. A target's broken DNS is a finding; 502 `upstream_unavailable` only when the service's own resolvers do not answer; 404 when the domain does not exist.")
      .setUrlParams(EmailSecurityInputs.query)
      .addSuccess(EmailSecurityReport)
      .addError(NotFoundWire)
      .addError(UpstreamUnavailableWire)
  )
  .middleware(Auth)
{}
