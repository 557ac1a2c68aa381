/** Overview: plan and quota, requests per day and per category (GET /v1/analytics/usage, /v1/account). */
import { get } from "../api"
import { palette, timeChart } from "../charts"
import { bar, fmt, h, replace, stat, table } from "../dom"
import type { View } from "./types"

interface Usage {
  readonly start: string
  readonly end: string
  readonly total_requests: number
  readonly by_category: Record<string, number>
  readonly daily_breakdown: ReadonlyArray<{ date: string; count: number }>
  readonly quota: { limit: number; used: number; remaining: number; percentage_used: number }
}

/** The billing period ends at the start of the next calendar month in UTC (docs/conventions.md, "Quota"). */
const nextMonthUtc = () => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString()
}

export const overviewView: View = async (root, ctx) => {
  const usage = await get<Usage>(`/v1/analytics/usage?period=${ctx.period}`)
  const account = ctx.account
  const quota = account?.quota ?? { ...usage.quota, resets_at: nextMonthUtc() }
  const fraction = quota.limit > 0 ? quota.used / quota.limit : 0
  const tone = fraction >= 0.9 ? "danger" : fraction >= 0.75 ? "warn" : ""
  const categories = Object.entries(usage.by_category).sort((a, b) => b[1] - a[1])
  const top = categories[0]?.[1] ?? 0
  replace(
    root,
    h("h2", {}, "Overview"),
    h(
      "div",
      { class: "stats" },
      stat("Plan", account ? account.plan : "–", account ? account.org : "account endpoint unavailable"),
      stat(
        "Quota this month",
        `${fmt.num(quota.used)} / ${fmt.num(quota.limit)}`,
        h("span", {}, bar(fraction, `${fmt.pct(quota.percentage_used)} of the monthly quota used`, tone), ` ${fmt.pct(quota.percentage_used)} used`)
      ),
      stat("Remaining", fmt.num(quota.remaining), `resets ${fmt.date(quota.resets_at)}`),
      stat("Requests in period", fmt.num(usage.total_requests), `${fmt.date(usage.start)} → ${fmt.date(usage.end)}`)
    ),
    account
      ? h("p", { class: "muted" }, `Signed in with key ${account.key.id}${account.key.name ? ` (${account.key.name})` : ""}`, account.key.expires_at ? `, expires ${fmt.date(account.key.expires_at)}` : ", no expiry", ".")
      : null,
    h(
      "div",
      { class: "grid-2" },
      timeChart({
        title: "Requests per day",
        times: usage.daily_breakdown.map((d) => `${d.date}T00:00:00Z`),
        series: [{ label: "requests", values: usage.daily_breakdown.map((d) => d.count), color: palette.blue }],
        kind: "bars",
        yLabel: "requests"
      }),
      h(
        "section",
        { class: "card" },
        h("h3", {}, "Requests per category"),
        categories.length === 0
          ? h("p", { class: "empty" }, "No requests in this period yet.")
          : table(
              ["Category", "Requests", ""],
              categories.map(([name, count]) => [name, fmt.num(count), bar(top > 0 ? count / top : 0, `${name}: ${count} requests`)])
            )
      )
    )
  )
}
