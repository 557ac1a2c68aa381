/**
 * CT Logs: server time of a cached page against the first, uncached query (dominated by the
 * aggregator). Server time is the request log's latency (receipt to response, auth and quota
 * included). The local aggregator holds 2,000 certificates (4,000 rows) and answers after
 * AGG_DELAY_MS (default 800 ms, a fast day for crt.sh).
 *   ./node_modules/.bin/bun bench/dns/ct-logs.ts
 */
import { makeRows, startCrtSh } from "../../test/ct/crtsh"
import { startService } from "../../test/support/service"

const AGG_DELAY = Number(process.env.AGG_DELAY_MS ?? 800)
const PAGES = Number(process.env.PAGES ?? 200)
const crt = startCrtSh({ delayMs: AGG_DELAY })
crt.set("bench.example", { kind: "rows", rows: makeRows("bench.example", 2000) })
const svc = await startService({ ctAggregatorUrl: crt.url })
const key = (await svc.newKey("developer")).key

const t0 = performance.now()
const first = await svc.call("/v1/domain/ct-logs?domain=bench.example&limit=100", { key })
await first.json()
const firstClient = performance.now() - t0
const pct = (xs: Array<number>, p: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))]
await svc.flushLog()
const missRow = await svc.sql<{ latency_ms: number }>("SELECT latency_ms FROM request_log WHERE cache = 'miss'")
console.log(`aggregator delay ${AGG_DELAY} ms, 2000 certificates (4000 rows)`)
console.log(`first (uncached) query, limit 100: server ${missRow[0].latency_ms.toFixed(1)} ms, client ${firstClient.toFixed(1)} ms`)
for (const limit of [20, 100]) {
  const clients: Array<number> = []
  const before = (await svc.sql<{ n: number }>("SELECT max(id) AS n FROM request_log"))[0].n
  for (let i = 0; i < PAGES; i++) {
    const offset = (i * limit) % 2000
    const s = performance.now()
    const r = await svc.call(`/v1/domain/ct-logs?domain=bench.example&limit=${limit}&offset=${offset}`, { key })
    await r.json()
    clients.push(performance.now() - s)
  }
  await svc.flushLog()
  const hits = (await svc.sql<{ latency_ms: number }>("SELECT latency_ms FROM request_log WHERE cache = 'hit' AND id > ?", [before])).map((r) => r.latency_ms).sort((a, b) => a - b)
  clients.sort((a, b) => a - b)
  console.log(`cached pages of ${limit} (${hits.length}): server p50 ${pct(hits, 0.5).toFixed(3)} ms, p95 ${pct(hits, 0.95).toFixed(3)} ms; client p50 ${pct(clients, 0.5).toFixed(3)} ms`)
}
console.log(`aggregator queries: ${crt.queries.get("bench.example")}`)
await svc.stop()
await crt.stop()
process.exit(0)
