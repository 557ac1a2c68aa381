import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Api } from "../Api"
import { CurrentOrg } from "../auth/Auth"
import { Analytics } from "./Analytics"

export const AnalyticsLive = HttpApiBuilder.group(Api, "analytics", (handlers) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics
    return handlers
      .handle("performanceMetrics", ({ urlParams }) =>
        Effect.flatMap(CurrentOrg, (org) => analytics.performance(org, urlParams.period ?? "current")))
      .handle("usageSummary", ({ urlParams }) =>
        Effect.flatMap(CurrentOrg, (org) => analytics.usage(org, urlParams.period ?? "current")))
      .handle("cacheStatistics", ({ urlParams }) =>
        Effect.flatMap(CurrentOrg, (org) => analytics.cache(org, urlParams.period ?? "current")))
  })
).pipe(Layer.provide(Analytics.Default))
