/**
 * Report latency over a growing request log: 1M then 10M logged requests of one organization
 * over the last 30 days, written through the real batch writer (raw rows + rollups, one
 * transaction per batch) into a file-backed SQLite store. Each report is timed 30 times per
 * period after one warm-up call.
 *
 *   bun bench/analytics/reports.ts            # 1M and 10M
 *   SIZES=200000 bun bench/analytics/reports.ts
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Analytics } from "../../src/product/analytics/Analytics"
import type { Period } from "../../src/product/analytics/analyze"
import type { Organization } from "../../src/product/accounts/Keys"
import { AppConfig } from "../../src/platform/Config"
import { Quota } from "../../src/product/metering/Quota"
import { RequestLog, type RequestRecord } from "../../src/product/metering/RequestLog"
import { writeBatch } from "../../src/product/metering/writeBatch"
import { SqlLive } from "../../src/platform/store/Sql"

const sizes = (process.env.SIZES ?? "1000000,10000000").split(",").map(Number)
const dir = mkdtempSync(join(tmpdir(), "di-bench-"))
const file = join(dir, "bench.db")
const config = AppConfig.make({ databaseUrl: `sqlite:${file}` })
const layer = Analytics.Default.pipe(
  Layer.provideMerge(Layer.mergeAll(RequestLog.Default, Quota.Default)),
  Layer.provideMerge(SqlLive.pipe(Layer.provide(config))),
  Layer.provideMerge(config),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)
const runtime = ManagedRuntime.make(layer)
const org: Organization = { id: "org_bench", name: "bench", plan: "enterprise" }
const endpoints = [
  ["dnsLookup", "dns", "/v1/dns/zone-hygiene"],
  ["ctLogs", "domain", "/v1/domain/ct-logs"],
  ["waf", "domain", "/v1/domain/waf"],
  ["freshness", "domain", "/v1/domain/content-freshness"],
  ["httpCheck", "network", "/v1/network/http-check"],
  ["usageSummary", "analytics", "/v1/analytics/usage"],
  ["performanceMetrics", "analytics", "/v1/analytics/performance"],
  ["listAlertRules", "alerts", "/v1/alerts/rules"],
  ["mcp", "advanced", "/v1/advanced/mcp"]
] as const

let seed = 12345
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}

const now = Date.now()
const span = 30 * 86_400_000
let written = 0

const time = async (label: string, f: () => Promise<unknown>) => {
  await f() // warm-up (fills caches, e.g. the quota counter's first load)
  const xs: Array<number> = []
  for (let i = 0; i < 30; i++) {
    const t = performance.now()
    await f()
    xs.push(performance.now() - t)
  }
  xs.sort((a, b) => a - b)
  return { label, median: xs[15], p95: xs[28], max: xs[29] }
}

const periods: ReadonlyArray<Period> = ["current", "7d", "30d"]
console.log(`| logged requests | report | period | median ms | p95 ms | max ms |`)
console.log(`|---|---|---|---|---|---|`)
for (const size of sizes) {
  // Spread every size over the same 30 days: later sizes fill the gaps of earlier ones.
  seed = 12345 + size
  const before = written
  const t0 = performance.now()
  const target = size
  await runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const batchSize = 5_000
    let i0 = 0
    const count = target - before
    while (i0 < count) {
      const n = Math.min(batchSize, count - i0)
      const batch: Array<RequestRecord> = new Array(n)
      for (let i = 0; i < n; i++) {
        const [operation, category, path] = endpoints[Math.floor(rand() * endpoints.length)]
        const c = rand()
        batch[i] = {
          orgId: rand() < 0.9 ? org.id : `org_other_${Math.floor(rand() * 5)}`,
          operation, category, method: "GET", path,
          status: rand() < 0.04 ? 500 : rand() < 0.05 ? 404 : 200,
          latencyMs: Math.exp(2 + 1.3 * Math.sqrt(-2 * Math.log(Math.max(rand(), 1e-12))) * Math.cos(2 * Math.PI * rand())),
          cache: c < 0.5 ? "hit" : c < 0.8 ? "miss" : null,
          ts: Math.floor(now - span + ((i0 + i) / count) * span)
        }
      }
      yield* writeBatch(sql, batch)
      i0 += n
      if ((before + i0) % 1_000_000 === 0) {
        console.error(`  ${(before + i0).toLocaleString()} rows written, ${((performance.now() - t0) / 1000).toFixed(1)} s`)
      }
    }
  }))
  written = target
  const writeS = (performance.now() - t0) / 1000
  const counts = await runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const raw = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM request_log`
    const hours = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM rollup_hour`
    const minutes = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM rollup_minute`
    return { raw: raw[0].n, hours: hours[0].n, minutes: minutes[0].n }
  }))
  console.error(`  ${size.toLocaleString()}: wrote ${(size - before).toLocaleString()} in ${writeS.toFixed(1)} s ` +
    `(${Math.round((size - before) / writeS).toLocaleString()} rows/s); raw ${counts.raw}, hour rollups ${counts.hours}, ` +
    `minute rollups ${counts.minutes}, db ${(statSync(file).size / 1e6).toFixed(0)} MB`)
  const a = await runtime.runPromise(Analytics)
  for (const period of periods) {
    for (const [name, f] of [
      ["usage", () => runtime.runPromise(a.usage(org, period))],
      ["performance", () => runtime.runPromise(a.performance(org, period))],
      ["cache", () => runtime.runPromise(a.cache(org, period))]
    ] as const) {
      const r = await time(name, f)
      console.log(`| ${size.toLocaleString()} | ${name} | ${period} | ${r.median.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.max.toFixed(2)} |`)
    }
  }
}
await runtime.dispose()
rmSync(dir, { recursive: true, force: true })
