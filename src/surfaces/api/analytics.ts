import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Auth } from "../../product/auth/Auth"
import { PlanLabel } from "../../platform/http/Operation"

export const PeriodParams = Schema.Struct({
  period: Schema.optional(Schema.Literal("7d", "30d", "current").annotations({
    description: "7d or 30d: rolling window ending now (minute resolution); current (default): the calendar month in UTC"
  }))
})

const WindowFields = {
  period: Schema.Literal("7d", "30d", "current"),
  start: Schema.String.annotations({ description: "ISO 8601 start of the window (inclusive)" }),
  end: Schema.String.annotations({ description: "ISO 8601 end of the window (exclusive): the end of the current minute" })
}

export const UsageReport = Schema.Struct({
  ...WindowFields,
  total_requests: Schema.Number,
  by_category: Schema.Record({ key: Schema.String, value: Schema.Number }),
  daily_breakdown: Schema.Array(Schema.Struct({ date: Schema.String, count: Schema.Number })),
  quota: Schema.Struct({
    limit: Schema.Number,
    used: Schema.Number,
    remaining: Schema.Number,
    percentage_used: Schema.Number
  })
})

export const PerformanceReport = Schema.Struct({
  ...WindowFields,
  total_requests: Schema.Number,
  avg_response_time: Schema.Number,
  p50: Schema.Number,
  p95: Schema.Number,
  p99: Schema.Number,
  error_rate: Schema.Number,
  percentile_relative_error: Schema.Number,
  timeline_bucket_seconds: Schema.Number,
  timeline: Schema.Array(Schema.Struct({
    timestamp: Schema.String,
    requests: Schema.Number,
    avg_ms: Schema.Number,
    p95_ms: Schema.Number,
    error_rate: Schema.Number
  }))
})

export const CacheReport = Schema.Struct({
  ...WindowFields,
  hit_rate: Schema.Number,
  hits: Schema.Number,
  misses: Schema.Number,
  by_endpoint: Schema.Array(Schema.Struct({
    endpoint: Schema.String,
    operation: Schema.String,
    hits: Schema.Number,
    misses: Schema.Number,
    hit_rate: Schema.Number
  })),
  savings: Schema.Struct({
    requests_saved: Schema.Number,
    cost_saved_cents: Schema.Number,
    latency_saved_ms: Schema.Number
  })
})

export class AnalyticsApi extends HttpApiGroup.make("analytics")
  .annotate(PlanLabel, "developer")
  .annotate(OpenApi.Description, "Your organization's usage, performance and cache statistics")
  .add(
    HttpApiEndpoint.get("performanceMetrics", "/v1/analytics/performance")
      .annotate(OpenApi.Summary, "Latency percentiles, error rate and a timeline of your requests")
      .annotate(OpenApi.Description, "Average, p50/p95/p99 latency and error rate of the organization's requests over `period`, with a timeline.")
      .setUrlParams(PeriodParams)
      .addSuccess(PerformanceReport)
  )
  .add(
    HttpApiEndpoint.get("usageSummary", "/v1/analytics/usage")
      .annotate(OpenApi.Summary, "Requests by category and day, and the monthly quota")
      .annotate(OpenApi.Description, "Counts of the organization's requests over `period`, by category and by day, and the quota of the current month.")
      .setUrlParams(PeriodParams)
      .addSuccess(UsageReport)
      .annotate(PlanLabel, "free")
  )
  .add(
    HttpApiEndpoint.get("cacheStatistics", "/v1/analytics/cache")
      .annotate(OpenApi.Summary, "Cache hit rate by endpoint and what it saved")
      .annotate(OpenApi.Description, "Hits and misses of the cached operations over `period`, by endpoint, and the requests and latency the cache saved.")
      .setUrlParams(PeriodParams)
      .addSuccess(CacheReport)
  )
  .middleware(Auth)
{}
