/**
 * http_check monitors at a 60 s interval against a loopback target (a bare Bun.serve in a child
 * process), on one instance with SQLite or two instances sharing one PostgreSQL database:
 *   - monitors are created through the API (5,000 per enterprise organization, the plan's limit),
 *     paused, then enabled in one statement with first runs spread over one interval as the
 *     API does (creating 20,000 while the first ones already run would take much longer);
 *   - one interval of warm-up (first runs are spread over it), then MINUTES of measurement;
 *   - printed: runs per minute against due runs, the share of due runs that happened, scheduling
 *     lag (start − due), the gap between two runs of a monitor (p50/p99/max), results stored twice
 *     for one due time (must be 0), the service's CPU seconds and runs per CPU-second, and the
 *     latency of an authenticated API read (GET /v1/monitors/{id}) at RATE per second meanwhile.
 *
 *   bun bench/monitors/run.ts                                   # MONITORS=20000 MINUTES=2 RATE=20
 *   DATABASE=postgres INSTANCES=2 bun bench/monitors/run.ts     # two instances, one PostgreSQL
 *
 * On PostgreSQL it also prints the CPU seconds of the PostgreSQL cluster over the window (all its
 * processes, from /proc; the cluster serves only this bench) and runs per CPU-second of the
 * service and the database together,
 * and, with PG_STATEMENTS=1 (pg_stat_statements loaded into the bench cluster), the statements
 * the service sent during the window: their count per run and the most frequent ones.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type PostgresCluster, startPostgres } from "../../test/support/postgres"
import { startService, type TestService } from "../../test/support/service"

const MONITORS = Number(process.env.MONITORS ?? 20_000)
const MINUTES = Number(process.env.MINUTES ?? 2)
const RATE = Number(process.env.RATE ?? 20)
const INSTANCES = Number(process.env.INSTANCES ?? 1)
const POSTGRES = process.env.DATABASE === "postgres"
const PG_STATEMENTS = POSTGRES && process.env.PG_STATEMENTS === "1"
const INTERVAL_S = 60
const PER_ORG = 5_000

const pct = (xs: ReadonlyArray<number>, q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s[Math.max(0, Math.ceil(q * s.length) - 1)]
}
const r1 = (x: number) => Math.round(x * 10) / 10

const target = spawn(process.execPath, ["bench/analytics/bare.ts"], { env: { ...process.env, BARE_BODY_B64: Buffer.from("ok").toString("base64"), BARE_CONTENT_TYPE: "text/plain" } })
const targetPort = await new Promise<number>((resolve) => target.stdout.once("data", (d) => resolve(Number(String(d).trim()))))

const dir = mkdtempSync(join(tmpdir(), "di-bench-monitors-"))
let pg: PostgresCluster | undefined
const databaseUrl = POSTGRES
  ? await (pg = await startPostgres(PG_STATEMENTS ? { settings: { shared_preload_libraries: "pg_stat_statements" } } : {})).createDatabase()
  : `sqlite:${join(dir, "store.db")}`
const database = databaseUrl.slice(databaseUrl.lastIndexOf("/") + 1)
if (PG_STATEMENTS) pg!.psql(database, "CREATE EXTENSION pg_stat_statements")
const services: Array<TestService> = []
for (let i = 0; i < INSTANCES; i++) {
  services.push(await startService({ databaseUrl, monitorMinIntervalS: INTERVAL_S, alertEvalIntervalMs: 3_600_000 }))
}
const svc = services[0]

/** Steady-rate reads for `ms`; latencies in ms. */
const probeLatency = async (key: string, path: string, ms: number) => {
  const lat: Array<number> = []
  if (RATE <= 0) return null
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

/** utime + stime (+ the waited-for children's cutime + cstime) of a process, in seconds (USER_HZ 100). */
const procCpu = (pid: number, children: boolean) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return { ppid: Number(f[1]), s: (Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)) / 100 }
  } catch {
    return undefined // gone meanwhile
  }
}
/**
 * CPU seconds of the whole PostgreSQL cluster (it serves only this bench): the postmaster with
 * the children it has reaped (connections closed by the pool), and every live child (backends,
 * writers, autovacuum).
 */
const postgresCpu = () => {
  if (!pg) return 0
  // The checkpointer lives as long as the server; its parent is the postmaster.
  const checkpointer = Number(pg.psql(database, "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'").trim())
  const postmaster = procCpu(checkpointer, false)!.ppid
  let total = procCpu(postmaster, true)?.s ?? 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const p = procCpu(Number(entry), false)
    if (p?.ppid === postmaster) total += p.s
  }
  return total
}

/** `?` placeholders as PostgreSQL writes them ($1, $2, …). */
const q = (s: string) => (POSTGRES ? s.replace(/\?/g, (() => { let i = 0; return () => `$${++i}` })()) : s)

const create = async (key: string, body: unknown) => {
  const r = await svc.call("/v1/monitors", { method: "POST", key, headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  if (r.status !== 201) throw new Error(`create: ${r.status} ${await r.text()}`)
  return ((await r.json()) as any).monitor.id as string
}

try {
  const reader = await svc.newKey("enterprise")
  const readPath = `/v1/monitors/${await create(reader.key, { name: "read me", kind: "http_check", target: `http://127.0.0.1:${targetPort}/`, interval_seconds: 86_400, enabled: false })}`
  const t0 = Date.now()
  const orgs = Math.ceil(MONITORS / PER_ORG)
  await Promise.all(Array.from({ length: orgs }, async (_, o) => {
    const { key } = await svc.newKey("enterprise")
    for (let i = o * PER_ORG; i < Math.min(MONITORS, (o + 1) * PER_ORG); i++) {
      await create(key, { name: `m${i}`, kind: "http_check", target: `http://127.0.0.1:${targetPort}/m${i}`, interval_seconds: INTERVAL_S, enabled: false })
    }
  }))
  const createS = (Date.now() - t0) / 1000
  const start = Date.now()
  await svc.sql(POSTGRES
    ? "UPDATE monitors SET enabled = 1, next_run_at = $1 + CAST(FLOOR(random() * 60000) AS BIGINT) WHERE name LIKE 'm%'"
    : "UPDATE monitors SET enabled = 1, next_run_at = ? + ABS(RANDOM()) % 60000 WHERE name LIKE 'm%'", [start])
  console.error(`created ${MONITORS} monitors in ${createS.toFixed(1)} s on ${INSTANCES} instance(s), ${POSTGRES ? "PostgreSQL" : "SQLite"}; warming up one interval`)
  await Bun.sleep(INTERVAL_S * 1000)

  console.error(`measuring ${MINUTES} min`)
  if (PG_STATEMENTS) pg!.psql(database, "SELECT pg_stat_statements_reset()")
  const pgCpu0 = postgresCpu()
  const cpu0 = process.cpuUsage()
  const from = Date.now()
  const latency = await probeLatency(reader.key, readPath, MINUTES * 60_000)
  if (latency === null) await Bun.sleep(MINUTES * 60_000)
  const to = Date.now()
  const cpu = process.cpuUsage(cpu0)
  const pgCpuS = postgresCpu() - pgCpu0
  const statements = PG_STATEMENTS
    ? pg!.psql(database, `SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) FROM pg_stat_statements
        WHERE query NOT LIKE '%pg_stat%' ORDER BY calls DESC`).trim().split("\n").map((l) => l.split("|"))
    : []
  await Bun.sleep(2_000) // runs started in the window are stored
  const runs = await svc.sql<{ monitor_id: string; started_at: number; scheduled_for: number }>(
    q("SELECT monitor_id, started_at, scheduled_for FROM monitor_results WHERE started_at >= ? AND started_at < ? ORDER BY monitor_id, started_at"), [from - 60_000, to])
  const twice = await svc.sql<{ n: number }>("SELECT COUNT(*) AS n FROM (SELECT monitor_id, scheduled_for FROM monitor_results GROUP BY monitor_id, scheduled_for HAVING COUNT(*) > 1) d")
  const runners = await svc.sql<{ runner: string; n: number }>(q("SELECT runner, COUNT(*) AS n FROM monitor_results WHERE started_at >= ? AND started_at < ? GROUP BY runner"), [from, to])
  // Due runs in [from, to - 5 s) from each monitor's phase, and those that happened.
  const phase = new Map<string, number>()
  const gaps: Array<number> = []
  let prev: { id: string; at: number } | null = null
  for (const r of runs) {
    const at = Number(r.started_at)
    phase.set(r.monitor_id, Number(r.scheduled_for) % (INTERVAL_S * 1000))
    if (prev && prev.id === r.monitor_id && at >= from) gaps.push(at - prev.at)
    prev = { id: r.monitor_id, at }
  }
  const end = to - 5_000
  let due = 0
  const dueOf = (p: number) => {
    const first = Math.ceil((from - p) / 60_000) * 60_000 + p
    return first >= end ? 0 : Math.floor((end - 1 - first) / 60_000) + 1
  }
  for (const p of phase.values()) due += dueOf(p)
  due += (MONITORS - phase.size) * MINUTES // monitors with no run at all
  const inWindow = runs.filter((r) => Number(r.scheduled_for) >= from && Number(r.scheduled_for) < end)
  const lag = inWindow.map((r) => Number(r.started_at) - Number(r.scheduled_for))
  const minutes = (to - from) / 60_000
  const measuredRuns = runs.filter((r) => Number(r.started_at) >= from).length
  const cpuS = (cpu.user + cpu.system) / 1e6
  console.log(JSON.stringify({
    monitors: MONITORS,
    instances: INSTANCES,
    database: POSTGRES ? "postgres" : "sqlite",
    interval_s: INTERVAL_S,
    measured_minutes: r1(minutes),
    runs_per_minute: r1(measuredRuns / minutes),
    due_runs: due,
    due_runs_happened: inWindow.length,
    due_runs_happened_pct: r1((1000 * inWindow.length) / due) / 10,
    scheduling_lag_ms: { p50: r1(pct(lag, 0.5)), p99: r1(pct(lag, 0.99)), max: r1(Math.max(...lag)) },
    gap_between_runs_s: { p50: r1(pct(gaps, 0.5) / 1000), p99: r1(pct(gaps, 0.99) / 1000), max: r1(Math.max(...gaps) / 1000) },
    stored_twice: Number(twice[0].n),
    runs_per_runner: runners.map((r) => Number(r.n)),
    service_cpu_seconds: r1(cpuS),
    service_cpu_user_system_seconds: [r1(cpu.user / 1e6), r1(cpu.system / 1e6)],
    runs_per_cpu_second: r1(measuredRuns / cpuS),
    ...(POSTGRES ? { postgres_cpu_seconds: r1(pgCpuS), runs_per_cpu_second_with_postgres: r1(measuredRuns / (cpuS + pgCpuS)) } : {}),
    ...(PG_STATEMENTS
      ? {
        statements_per_run: r1(statements.reduce((n, [calls]) => n + Number(calls), 0) / measuredRuns),
        top_statements: statements.slice(0, 15).map(([calls, text]) => `${calls} ${text}`)
      }
      : {}),
    api_read_latency_ms: latency,
    create_seconds: r1(createS)
  }, null, 2))
} finally {
  for (const s of services) await s.stop()
  target.kill()
  await pg?.stop()
  rmSync(dir, { recursive: true, force: true })
}
