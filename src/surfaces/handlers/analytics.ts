import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../api/Api"
import { Caller } from "../../kernel/Caller"
import { asJson } from "../../platform/http/asJson"
import { Analytics } from "../../product/analytics/Analytics"
import { UsageReport } from "../api/analytics"

/** The usage report skips the success encoder (src/platform/http/asJson.ts; test/analytics/http.test.ts). */
const usageJson = asJson(UsageReport)

export const AnalyticsLive = HttpApiBuilder.group(Api, "analytics", (handlers) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics
    return handlers
      .handle("performanceMetrics", ({ urlParams }) =>
        Effect.flatMap(Caller, ({ org }) => analytics.performance(org, urlParams.period ?? "current")))
      .handle("usageSummary", ({ urlParams }) =>
        Effect.flatMap(Caller, ({ org }) => Effect.map(analytics.usage(org, urlParams.period ?? "current"), usageJson)))
      .handle("cacheStatistics", ({ urlParams }) =>
        Effect.flatMap(Caller, ({ org }) => analytics.cache(org, urlParams.period ?? "current")))
  })
)
