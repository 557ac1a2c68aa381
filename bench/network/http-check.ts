/**
 * HTTP Uptime Check against a local origin, next to curl on the same URL in the same run.
 * Run: bun bench/network/http-check.ts [iterations]
 * Reports median and p95 wall time per check: the service's (client → service → origin → back)
 * and curl's (one process per request, as monitoring scripts use it).
 */
import { startService } from "../../test/support/service"

const n = Number(process.argv[2] ?? 200)
const origin = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("x".repeat(2048)) })
const target = `http://127.0.0.1:${origin.port}/`
const svc = await startService()
const { key } = await svc.newKey()

const stats = (xs: Array<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return { median: s[Math.floor(s.length / 2)], p95: s[Math.floor(s.length * 0.95)] }
}

const service: Array<number> = []
const reported: Array<number> = []
for (let i = 0; i < n; i++) {
  const t0 = performance.now()
  const res = await svc.call(`/v1/network/http-check?url=${encodeURIComponent(target)}&method=GET`, { key })
  const body = (await res.json()) as any
  service.push(performance.now() - t0)
  reported.push(body.timings.total_ms)
}
const curl: Array<number> = []
for (let i = 0; i < n; i++) {
  const t0 = performance.now()
  // async: the origin lives in this process and must keep serving
  await Bun.spawn(["curl", "-s", "-o", "/dev/null", target]).exited
  curl.push(performance.now() - t0)
}
const fmt = (o: { median: number; p95: number }) => `median ${o.median.toFixed(2)} ms, p95 ${o.p95.toFixed(2)} ms`
console.log(`iterations: ${n}`)
console.log(`service round trip (http-check GET): ${fmt(stats(service))}`)
console.log(`  of which the check itself (timings.total_ms): ${fmt(stats(reported))}`)
console.log(`curl process per request:            ${fmt(stats(curl))}`)
await svc.stop()
origin.stop(true)
