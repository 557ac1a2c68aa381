import { group } from "../http/group"
import { Effect } from "effect"
import { Api } from "../Api"
import { ContentFreshness } from "./ContentFreshness"

export const FreshnessLive = group(Api, "freshness", (handlers) =>
  handlers.handle("contentFreshness", ({ urlParams }) =>
    Effect.flatMap(ContentFreshness, (f) => f.analyze(urlParams.domain)))
)
