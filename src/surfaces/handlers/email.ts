import { Effect } from "effect"
import { EmailSecurity } from "../../analyses/mail/EmailSecurity"
import { Api } from "../api/Api"
import { normalizeDomain } from "../../kernel/domainParam"
import { InvalidRequest } from "../../kernel/errors"
import { HttpApiBuilder } from "@effect/platform"

/** The `dkim_selectors` comma list (the core validates each selector). */
export const selectorList = (raw: string | undefined): ReadonlyArray<string> =>
  (raw ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")

export const EmailLive = HttpApiBuilder.group(Api, "email", (handlers) =>
  handlers.handle("emailSecurity", ({ urlParams }) =>
    Effect.gen(function*() {
      const domain = normalizeDomain(urlParams.domain)
      if (domain instanceof InvalidRequest) return yield* domain
      const selectors = selectorList(urlParams.dkim_selectors)
      if (selectors.length > 20) return yield* new InvalidRequest({ message: "dkim_selectors: at most 20 selectors" })
      const svc = yield* EmailSecurity
      return yield* svc.check({ domain, dkimSelectors: selectors, starttls: urlParams.starttls ?? false })
    })
  )
)
