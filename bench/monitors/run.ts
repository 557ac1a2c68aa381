/**
 * 1,000 http_check monitors at a 60 s interval on one instance against a loopback target, in one
 * run:
 *   phase A — no monitors: the service's own request latency (GET /v1/monitors/{id}, an
 *             authenticated, metered HttpApi read) at a steady RATE per second;
 *   phase B — 1,000 monitors created, one interval of warm-up (first runs are spread over it),
 *             then MINUTES of measurement: runs per minute, scheduling lag (start − due) p50/p99,
 *             and the same request latency while the monitors run.
 * The target is a bare Bun.serve in a child process; the store a SQLite file.
 *
 *   bun bench/monitors/run.ts                      # MONITORS=1000 MINUTES=2 RATE=20
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startService } from "../../test/support/service"

const MONITORS = Number(process.env.MONITORS ?? 1000)
const MINUTES = Number(process.env.MINUTES ?? 2)
const RATE = Number(process.env.RATE ?? 20)
const INTERVAL_S = 60

const pct = (xs: ReadonlyArray<number>, q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s[Math.max(0, Math.ceil(q * s.length) - 1)]
}
const r1 = (x: number) => Math.round(x * 10) / 10

// the loopback target: fixed bytes from a separate process
const target = spawn(process.execPath, ["bench/analytics/bare.ts"], { env: { ...process.env, BARE_BODY_B64: Buffer.from("ok").toString("base64"), BARE_CONTENT_TYPE: "text/plain" } })
const targetPort = await new Promise<number>((resolve) => target.stdout.once("data", (d) => resolve(Number(String(d).trim()))))

const dir = mkdtempSync(join(tmpdir(), "di-bench-monitors-"))
const svc = await startService({
  databaseUrl: `sqlite:${join(dir, "store.db")}`,
  monitorMinIntervalS: INTERVAL_S,
  alertEvalIntervalMs: 3_600_000
})

/** Steady-rate sequential-ish reads for `ms`; latencies in ms. */
const probeLatency = async (key: string, path: string, ms: number) => {
  const lat: Array<number> = []
  const end = Date.now() + ms
  const gap = 1000 / RATE
  let next = Date.now()
  const inflight: Array<Promise<void>> = []
  while (Date.now() < end) {
    const t0 = performance.now()
    inflight.push(svc.call(path, { key }).then(async (r) => {
      await r.arrayBuffer()
      if (r.status !== 200) throw new Error(`status ${r.status}`)
      lat.push(performance.now() - t0)
    }))
    next += gap
    await Bun.sleep(Math.max(0, next - Date.now()))
  }
  await Promise.all(inflight)
  return { n: lat.length, p50: r1(pct(lat, 0.5)), p95: r1(pct(lat, 0.95)), p99: r1(pct(lat, 0.99)) }
}

try {
  const reader = await svc.newKey("enterprise")
  const own = await svc.call("/v1/monitors", {
    method: "POST",
    key: reader.key,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "read me", kind: "http_check", target: `http://127.0.0.1:${targetPort}/`, interval_seconds: 86_400, enabled: false })
  })
  const readPath = `/v1/monitors/${((await own.json()) as any).monitor.id}`

  const measureMs = MINUTES * 60_000
  console.error(`phase A: no monitors, ${MINUTES} min at ${RATE} req/s`)
  const before = await probeLatency(reader.key, readPath, measureMs)

  const owner = await svc.newKey("enterprise")
  const t0 = Date.now()
  for (let i = 0; i < MONITORS; i++) {
    const r = await svc.call("/v1/monitors", {
      method: "POST",
      key: owner.key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: `m${i}`, kind: "http_check", target: `http://127.0.0.1:${targetPort}/m${i}`, interval_seconds: INTERVAL_S })
    })
    if (r.status !== 201) throw new Error(`create ${i}: ${r.status} ${await r.text()}`)
  }
  const createS = (Date.now() - t0) / 1000
  console.error(`created ${MONITORS} monitors in ${createS.toFixed(1)} s; warming up one interval`)
  await Bun.sleep(INTERVAL_S * 1000)

  console.error(`phase B: ${MONITORS} monitors, ${MINUTES} min at ${RATE} req/s`)
  const from = Date.now()
  const during = await probeLatency(reader.key, readPath, measureMs)
  const to = Date.now()
  const runs = await svc.sql<{ started_at: number; scheduled_for: number; ok: number }>(
    "SELECT started_at, scheduled_for, ok FROM monitor_results WHERE started_at >= ? AND started_at < ?", [from, to])
  const lag = runs.map((r) => r.started_at - r.scheduled_for)
  const minutes = (to - from) / 60_000
  const result = {
    monitors: MONITORS,
    interval_s: INTERVAL_S,
    measured_minutes: r1(minutes),
    runs_per_minute: r1(runs.length / minutes),
    expected_runs_per_minute: r1((MONITORS * 60) / INTERVAL_S),
    ok_runs: runs.filter((r) => r.ok === 1).length,
    scheduling_lag_ms: { p50: r1(pct(lag, 0.5)), p99: r1(pct(lag, 0.99)), max: r1(Math.max(...lag)) },
    request_latency_ms_without_monitors: before,
    request_latency_ms_with_monitors: during,
    create_seconds: r1(createS)
  }
  console.log(JSON.stringify(result, null, 2))
} finally {
  await svc.stop()
  target.kill()
  rmSync(dir, { recursive: true, force: true })
}
