import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../api/Api"
import { Caller } from "../../kernel/Caller"
import { Analytics } from "../../product/analytics/Analytics"

export const AnalyticsLive = HttpApiBuilder.group(Api, "analytics", (handlers) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics
    return handlers
      .handle("performanceMetrics", ({ urlParams }) =>
        Effect.flatMap(Caller, ({ org }) => analytics.performance(org, urlParams.period ?? "current")))
      .handle("usageSummary", ({ urlParams }) =>
        Effect.flatMap(Caller, ({ org }) => analytics.usage(org, urlParams.period ?? "current")))
      .handle("cacheStatistics", ({ urlParams }) =>
        Effect.flatMap(Caller, ({ org }) => analytics.cache(org, urlParams.period ?? "current")))
  })
)
