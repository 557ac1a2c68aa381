import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { Plan } from "../../kernel/plans"
import { PlanLabel } from "../../platform/http/Operation"

const Iso = Schema.String.annotations({ description: "ISO 8601 time (UTC)", examples: ["2026-12-01T00:00:00.000Z"] })

/** GET /v1/account (docs/operations/account.md). */
export const AccountReport = Schema.Struct({
  org: Schema.String.annotations({ description: "the organization's name" }),
  plan: Plan,
  quota: Schema.Struct({
    limit: Schema.Number.annotations({ description: "requests allowed in the current calendar month (UTC)" }),
    used: Schema.Number.annotations({ description: "requests counted so far this month, this one included" }),
    remaining: Schema.Number,
    percentage_used: Schema.Number.annotations({ description: "used / limit × 100, two decimals" }),
    resets_at: Iso.annotations({ description: "start of the next calendar month (UTC), when the count starts again" })
  }),
  key: Schema.Struct({
    id: Schema.String.annotations({ description: "the public id inside the key (di_<id>_<secret>)" }),
    name: Schema.NullOr(Schema.String),
    created_at: Iso,
    expires_at: Schema.NullOr(Iso)
  })
}).annotations({ identifier: "AccountReport" })

export class AccountApi extends HttpApiGroup.make("account")
  .annotate(PlanLabel, "free")
  .annotate(OpenApi.Description, "The calling key's organization, plan and quota")
  .add(
    HttpApiEndpoint.get("account", "/v1/account")
      .annotate(OpenApi.Summary, "The calling key's organization, plan and quota")
      .addSuccess(AccountReport)
      .annotate(OpenApi.Summary, "The calling key's organization, plan and quota")
      .annotate(
        OpenApi.Description,
        "Who the key belongs to, the plan, this month's quota use and when it resets, and the key's own id, name and expiry. Counts as one request (category `account`)."
      )
  )
  .middleware(Auth)
{}
