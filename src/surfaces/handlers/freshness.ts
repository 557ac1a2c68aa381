import { group } from "../../platform/http/group"
import { Effect } from "effect"
import { Api } from "../api/Api"
import { ContentFreshness } from "../../analyses/freshness/ContentFreshness"

export const FreshnessLive = group(Api, "freshness", (handlers) =>
  handlers.handle("contentFreshness", ({ urlParams }) =>
    Effect.flatMap(ContentFreshness, (f) => f.analyze(urlParams.domain)))
)
