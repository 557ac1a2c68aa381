/**
 * The 30-day uptime report at 20,000 monitors: a SQLite store holding, per monitor, 30 days of
 * daily rollups (1,440 one-minute runs a day, a duration sketch each) and a few incidents — the
 * 600,000 rollup rows that stand for 864 million runs — then GET /v1/monitors/{id}/uptime?period=30d
 * for random monitors through the HTTP API, sequentially and CONCURRENCY at a time. Printed:
 * latency p50/p95/p99 and requests per second. Rows are written straight into the store (the
 * report only reads them); the monitors belong to organizations created through the service.
 *
 *   bun bench/monitors/uptime.ts                     # MONITORS=20000 REQUESTS=2000 CONCURRENCY=16
 */
import { Database } from "bun:sqlite"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Sketch from "../../src/product/metering/sketch"
import { startService } from "../../test/support/service"

const MONITORS = Number(process.env.MONITORS ?? 20_000)
const REQUESTS = Number(process.env.REQUESTS ?? 2_000)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16)
const DAYS = 30
const DAY = 86_400_000
const PER_ORG = 5_000

const pct = (xs: ReadonlyArray<number>, q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.max(0, Math.ceil(q * s.length) - 1)]
}
const r1 = (x: number) => Math.round(x * 10) / 10

const dir = mkdtempSync(join(tmpdir(), "di-bench-uptime-"))
const file = join(dir, "store.db")
const svc = await startService({ databaseUrl: `sqlite:${file}`, alertEvalIntervalMs: 3_600_000 })
try {
  const orgs = await Promise.all(Array.from({ length: Math.ceil(MONITORS / PER_ORG) }, () => svc.newKey("enterprise")))
  // A handful of day sketches (1,440 runs each, durations around 20-200 ms), shared by the rows.
  let seed = 7
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const days = Array.from({ length: 16 }, (_, v) => Sketch.encode(Sketch.fromValues(Array.from({ length: 1440 }, () => 20 + v * 10 + rand() * 60 * (rand() < 0.05 ? 5 : 1)))))
  const t0 = Date.now()
  const today = Math.floor(Date.now() / DAY) * DAY
  const db = new Database(file)
  db.run("PRAGMA busy_timeout = 10000")
  const monitor = db.prepare(`INSERT INTO monitors (id, org_id, name, kind, target, interval_seconds, conditions, channels, enabled,
    failures_before_alert, cooldown_minutes, created_at, updated_at, next_run_at, consecutive_failures)
    VALUES (?, ?, ?, 'http_check', ?, 60, '{"status_not_ok":true,"error":true}', '[]', 0, 1, 15, ?, ?, ?, 0)`)
  const rollup = db.prepare("INSERT INTO monitor_rollups (monitor_id, day, runs, ok_runs, sketch) VALUES (?, ?, 1440, ?, ?)")
  const incident = db.prepare("INSERT INTO monitor_incidents (id, monitor_id, started_at, ended_at) VALUES (?, ?, ?, ?)")
  const ids: Array<{ id: string; key: string }> = []
  db.transaction(() => {
    for (let i = 0; i < MONITORS; i++) {
      const id = `mon_bench${String(i).padStart(8, "0")}`
      const org = orgs[Math.floor(i / PER_ORG)]
      ids.push({ id, key: org.key })
      monitor.run(id, org.orgId, `m${i}`, `http://127.0.0.1:9/m${i}`, t0, t0, t0)
      for (let d = 0; d < DAYS; d++) rollup.run(id, today - d * DAY, 1440 - ((i + d) % 7 === 0 ? 3 : 0), days[(i + d) % days.length])
      for (let k = 0; k < 3; k++) {
        const at = today - (k * 9 + (i % 5)) * DAY + 3_600_000
        incident.run(`inc_bench_${i}_${k}`, id, at, at + 180_000)
      }
    }
  })()
  db.close()
  const loadS = (Date.now() - t0) / 1000
  console.error(`stored ${MONITORS} monitors × ${DAYS} days of rollups in ${loadS.toFixed(1)} s; measuring`)

  const one = async () => {
    const m = ids[Math.floor(Math.random() * ids.length)]
    const s = performance.now()
    const r = await svc.call(`/v1/monitors/${m.id}/uptime?period=30d`, { key: m.key })
    const body = (await r.json()) as any
    if (r.status !== 200 || body.runs !== DAYS * 1440 || body.incidents.length < 1) throw new Error(`unexpected ${r.status} ${JSON.stringify(body)}`)
    return performance.now() - s
  }
  for (let i = 0; i < 50; i++) await one() // warm-up
  const sequential: Array<number> = []
  for (let i = 0; i < Math.min(REQUESTS, 1000); i++) sequential.push(await one())
  const concurrent: Array<number> = []
  const c0 = performance.now()
  let left = REQUESTS
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (left-- > 0) concurrent.push(await one())
  }))
  const wallS = (performance.now() - c0) / 1000
  console.log(JSON.stringify({
    monitors: MONITORS,
    rollup_rows: MONITORS * DAYS,
    runs_represented: MONITORS * DAYS * 1440,
    sequential_ms: { n: sequential.length, p50: r1(pct(sequential, 0.5)), p95: r1(pct(sequential, 0.95)), p99: r1(pct(sequential, 0.99)) },
    concurrent_ms: { n: concurrent.length, concurrency: CONCURRENCY, p50: r1(pct(concurrent, 0.5)), p95: r1(pct(concurrent, 0.95)), p99: r1(pct(concurrent, 0.99)) },
    requests_per_second: Math.round(concurrent.length / wallS),
    load_seconds: r1(loadS)
  }, null, 2))
} finally {
  await svc.stop()
  rmSync(dir, { recursive: true, force: true })
}
