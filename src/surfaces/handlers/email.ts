import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { EmailSecurity } from "../../analyses/mail/EmailSecurity"
import { Api } from "../api/Api"
import { EmailSecurityInputs } from "../api/email"

/**
 * Email security from its decoded inputs (the domain already normalised, at most 20 selectors):
 * what the REST operation and the MCP tool `email_security` both run.
 */
export const emailSecurity = (inputs: typeof EmailSecurityInputs.json.Type) =>
  Effect.flatMap(EmailSecurity, (svc) =>
    svc.check({
      domain: inputs.domain,
      dkimSelectors: inputs.dkim_selectors ?? [],
      starttls: inputs.starttls ?? EmailSecurityInputs.defaults.starttls
    }))

export const EmailLive = HttpApiBuilder.group(Api, "email", (handlers) =>
  handlers.handle("emailSecurity", ({ urlParams }) => emailSecurity(urlParams))
)
