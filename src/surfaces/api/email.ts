/** `GET /v1/security/email` (DECISIONS.md "Email Security"): developer plan, category `security`, metered. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { EmailSecurityReport } from "../../analyses/mail/schema"
import { Auth } from "../../product/auth/Auth"
import { NotFoundWire, UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"

export const EmailSecurityParams = Schema.Struct({
  domain: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(300)).annotations({ description: "The mail domain, e.g. example.com" }),
  dkim_selectors: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)).annotations({
    description: "Comma list of DKIM selectors checked besides the built-in common ones (at most 20)"
  })),
  starttls: Schema.optional(Schema.BooleanFromString.annotations({ description: "true: connect to each MX on SMTP_PORT and test STARTTLS (default false)" }))
})

export class EmailApi extends HttpApiGroup.make("email")
  .annotate(PlanLabel, "developer")
  .add(
    HttpApiEndpoint.get("emailSecurity", "/v1/security/email")
      .annotate(OpenApi.Summary, "Email security of a domain: MX, SPF, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI, DANE, STARTTLS")
      .annotate(OpenApi.Description, "Every mail-authentication and transport-security record of the domain, looked up in parallel and graded (A-F) like Zone Hygiene, with findings and the records to publish. SPF is evaluated per RFC 7208 (lookup and void-lookup limits), DMARC with the organizational-domain fallback, DANE only when DNSSEC-validated by the service. `starttls=true` also connects to each MX on SMTP_PORT. A target's broken DNS is a finding; 502 `upstream_unavailable` only when the service's own resolvers do not answer; 404 when the domain does not exist.")
      .setUrlParams(EmailSecurityParams)
      .addSuccess(EmailSecurityReport)
      .addError(NotFoundWire)
      .addError(UpstreamUnavailableWire)
  )
  .middleware(Auth)
{}
