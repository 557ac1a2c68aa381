/** Cache: hit rate, savings and the per-endpoint table in the API's order (GET /v1/analytics/cache). */
import { get } from "../api"
import { bar, fmt, h, replace, stat, table } from "../dom"
import type { View } from "./types"

interface CacheReport {
  readonly hit_rate: number
  readonly hits: number
  readonly misses: number
  readonly by_endpoint: ReadonlyArray<{ endpoint: string; operation: string; hits: number; misses: number; hit_rate: number }>
  readonly savings: { requests_saved: number; cost_saved_cents: number; latency_saved_ms: number }
}

export const cacheView: View = async (root, ctx) => {
  const c = await get<CacheReport>(`/v1/analytics/cache?period=${ctx.period}`)
  replace(
    root,
    h("h2", {}, "Cache"),
    h(
      "div",
      { class: "stats" },
      stat("Hit rate", fmt.pct(c.hit_rate), bar(c.hit_rate / 100, `hit rate ${fmt.pct(c.hit_rate)}`, "good")),
      stat("Hits / misses", `${fmt.num(c.hits)} / ${fmt.num(c.misses)}`),
      stat("Requests saved", fmt.num(c.savings.requests_saved)),
      stat("Cost saved", `$${(c.savings.cost_saved_cents / 100).toFixed(2)}`),
      stat("Latency saved", fmt.ms(c.savings.latency_saved_ms))
    ),
    h(
      "section",
      { class: "card" },
      h("h3", {}, "Per endpoint"),
      h("p", { class: "muted" }, "In the API's order: lowest hit rate first, the biggest opportunity on top."),
      c.by_endpoint.length === 0
        ? h("p", { class: "empty" }, "No cacheable requests in this period yet.")
        : table(
            ["Endpoint", "Hits", "Misses", "Hit rate", ""],
            c.by_endpoint.map((e) => [
              h("span", { title: e.operation }, e.endpoint),
              fmt.num(e.hits),
              fmt.num(e.misses),
              fmt.pct(e.hit_rate),
              bar(e.hit_rate / 100, `${e.endpoint} hit rate ${fmt.pct(e.hit_rate)}`, "good")
            ])
          )
    )
  )
}
