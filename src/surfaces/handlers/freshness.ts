import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../api/Api"
import { ContentFreshness } from "../../analyses/freshness/ContentFreshness"

export const FreshnessLive = HttpApiBuilder.group(Api, "freshness", (handlers) =>
  handlers.handle("contentFreshness", ({ urlParams }) =>
    Effect.flatMap(ContentFreshness, (f) => f.analyze(urlParams.domain)))
)
