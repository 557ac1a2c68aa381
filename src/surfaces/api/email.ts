/** `GET /v1/security/email` (DECISIONS.md "Email Security"): developer plan, category `security`, metered. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
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
  .add(
    HttpApiEndpoint.get("emailSecurity", "/v1/security/email")
      .setUrlParams(EmailSecurityParams)
      .addSuccess(EmailSecurityReport)
      .addError(NotFoundWire)
      .addError(UpstreamUnavailableWire)
      .annotate(PlanLabel, "developer")
  )
  .middleware(Auth)
{}
