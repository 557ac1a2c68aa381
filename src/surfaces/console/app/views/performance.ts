/** Performance: p50/p95/p99, average and error rate, with timelines (GET /v1/analytics/performance). */
import { get } from "../api"
import { palette, timeChart } from "../charts"
import { fmt, h, replace, stat } from "../dom"
import type { View } from "./types"

interface Performance {
  readonly total_requests: number
  readonly avg_response_time: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly error_rate: number
  readonly percentile_relative_error: number
  readonly timeline_bucket_seconds: number
  readonly timeline: ReadonlyArray<{ timestamp: string; requests: number; avg_ms: number; p95_ms: number; error_rate: number }>
}

export const performanceView: View = async (root, ctx) => {
  const p = await get<Performance>(`/v1/analytics/performance?period=${ctx.period}`)
  const times = p.timeline.map((t) => t.timestamp)
  const flat = (v: number) => p.timeline.map(() => v)
  // A bucket with no request has no latency: a gap, not a zero.
  const measured = (f: (t: Performance["timeline"][number]) => number) => p.timeline.map((t) => (t.requests > 0 ? f(t) : null))
  const bucket = p.timeline_bucket_seconds >= 86400 ? `${p.timeline_bucket_seconds / 86400} d` : `${p.timeline_bucket_seconds / 3600} h`
  replace(
    root,
    h("h2", {}, "Performance"),
    h(
      "div",
      { class: "stats" },
      stat("p50", fmt.ms(p.p50)),
      stat("p95", fmt.ms(p.p95)),
      stat("p99", fmt.ms(p.p99)),
      stat("Average", fmt.ms(p.avg_response_time)),
      stat("Error rate", fmt.pct(p.error_rate), `${fmt.num(p.total_requests)} requests`)
    ),
    h("p", { class: "muted" }, `Percentiles within ±${fmt.pct(p.percentile_relative_error * 100)}; one point per ${bucket}.`),
    h(
      "div",
      { class: "grid-2" },
      timeChart({
        title: "Latency (ms)",
        times,
        yLabel: "ms",
        series: [
          { label: "avg", values: measured((t) => t.avg_ms), color: palette.blue, unit: " ms" },
          { label: "p95", values: measured((t) => t.p95_ms), color: palette.orange, unit: " ms" },
          { label: "p50 (period)", values: flat(p.p50), color: palette.green, dash: [4, 4], unit: " ms" },
          { label: "p99 (period)", values: flat(p.p99), color: palette.purple, dash: [4, 4], unit: " ms" }
        ]
      }),
      timeChart({
        title: "Error rate (%)",
        times,
        yLabel: "%",
        series: [{ label: "error rate", values: measured((t) => t.error_rate), color: palette.red, unit: " %" }]
      })
    ),
    timeChart({
      title: "Requests per bucket",
      times,
      kind: "bars",
      height: 160,
      series: [{ label: "requests", values: p.timeline.map((t) => t.requests), color: palette.grey }]
    })
  )
}
