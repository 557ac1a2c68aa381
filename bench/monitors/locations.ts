/**
 * Monitors from several locations: three instances, each its own location (INSTANCE_LOCATION a,
 * b, c), on one PostgreSQL database; MONITORS http_check monitors at 60 s listed in all three
 * (3 × MONITORS due runs a minute) against a loopback target (a bare Bun.serve in a child
 * process). Each instance is its own `serve` process, as a location's instance runs on a machine
 * of its own (in one process, three instances would share one event loop).
 *   - monitors are created paused through the API (with `locations: ["a","b","c"]`), then
 *     enabled in one statement with first runs spread over one interval, as the API does;
 *   - one interval of warm-up, then MINUTES of measurement;
 *   - printed per location: due runs and the share made, scheduling lag (start − due), the gap
 *     between two runs of a monitor (p50/p99/max); runs made twice in one location (runs the
 *     request log counted beyond the results stored: must be 0); the monitors' combined states
 *     at the end; the CPU seconds of the three instances and of the PostgreSQL cluster over the
 *     window, and the machine's load average (the figures mean little on a machine that is busy
 *     with other work).
 *
 * With ANY=1 the same three instances run 3 × MONITORS monitors with no locations instead (the
 * same runs a minute, each made once anywhere): the baseline, measured the same way on the same
 * machine, for what the locations cost.
 *
 *   bun bench/monitors/locations.ts                 # MONITORS=5000 MINUTES=3
 *   ANY=1 bun bench/monitors/locations.ts           # the baseline: 15,000 any-location monitors
 */
import { spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { startPostgres } from "../../test/support/postgres"
import { createKey, type Instance, startInstance } from "../../test/multi/support"

const MONITORS = Number(process.env.MONITORS ?? 5_000)
const MINUTES = Number(process.env.MINUTES ?? 3)
const LOCATIONS = ["a", "b", "c"]
const ANY = process.env.ANY === "1"
/** Monitors created; with locations each is run in all three. */
const CREATED = ANY ? MONITORS * LOCATIONS.length : MONITORS
const INTERVAL_S = 60
const PER_ORG = 5_000

const r1 = (x: number) => Math.round(x * 10) / 10

const target = spawn(process.execPath, ["bench/analytics/bare.ts"], { env: { ...process.env, BARE_BODY_B64: Buffer.from("ok").toString("base64"), BARE_CONTENT_TYPE: "text/plain" } })
const targetPort = await new Promise<number>((resolve) => target.stdout.once("data", (d) => resolve(Number(String(d).trim()))))

const pg = await startPostgres()
const databaseUrl = await pg.createDatabase()
const database = databaseUrl.slice(databaseUrl.lastIndexOf("/") + 1)
const key = createKey(databaseUrl, "bench", "enterprise") // also applies the migrations
const services: Array<Instance> = await Promise.all(LOCATIONS.map((location) =>
  startInstance(databaseUrl, { INSTANCE_LOCATION: location, DATABASE_POOL_MAX: "10", ALERT_EVAL_INTERVAL_MS: "3600000" })))
const svc = services[0]

/** utime + stime (+ reaped children's) of a process, in seconds (USER_HZ 100). */
const procCpu = (pid: number, children: boolean) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return { ppid: Number(f[1]), s: (Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)) / 100 }
  } catch {
    return undefined
  }
}
/** CPU seconds of the whole PostgreSQL cluster (it serves only this bench). */
const postgresCpu = () => {
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

const rows = (query: string) => pg.psql(database, query).trim().split("\n").filter((l) => l !== "").map((l) => l.split("|"))

try {
  // Every location is known once its instance has beaten (a monitor may name only those).
  for (let i = 0; i < 100 && Number(rows("SELECT COUNT(*) FROM locations")[0][0]) < LOCATIONS.length; i++) await Bun.sleep(100)
  const t0 = Date.now()
  const orgs = Math.ceil(CREATED / PER_ORG)
  await Promise.all(Array.from({ length: orgs }, async (_, o) => {
    const orgKey = o === 0 ? key : createKey(databaseUrl, `bench-${o}`, "enterprise")
    for (let i = o * PER_ORG; i < Math.min(CREATED, (o + 1) * PER_ORG); i++) {
      const r = await svc.call("/v1/monitors", {
        method: "POST",
        key: orgKey,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: `m${i}`, kind: "http_check", target: `http://127.0.0.1:${targetPort}/m${i}`, interval_seconds: INTERVAL_S, enabled: false, locations: ANY ? [] : LOCATIONS })
      })
      if (r.status !== 201) throw new Error(`create: ${r.status} ${await r.text()}`)
    }
  }))
  const createS = (Date.now() - t0) / 1000
  const start = Date.now()
  // Enabled with first runs spread over one interval; every share of a monitor on its cadence.
  pg.psql(database, `UPDATE monitors SET enabled = 1, next_run_at = ${start} + CAST(FLOOR(random() * 60000) AS BIGINT) WHERE name LIKE 'm%'`)
  pg.psql(database, "UPDATE monitor_shares SET enabled = 1, next_run_at = m.next_run_at FROM monitors m WHERE m.id = monitor_shares.monitor_id")
  console.error(`created ${CREATED} monitors in ${createS.toFixed(1)} s, ${ANY ? "with no locations" : `each in ${LOCATIONS.length} locations`}; warming up one interval`)
  await Bun.sleep(INTERVAL_S * 1000)

  console.error(`measuring ${MINUTES} min`)
  const serviceCpu = () => services.reduce((n, s) => n + (procCpu(s.child.pid!, false)?.s ?? 0), 0)
  const pgCpu0 = postgresCpu()
  const cpu0 = serviceCpu()
  const from = Date.now()
  await Bun.sleep(MINUTES * 60_000)
  const to = Date.now()
  const cpuS = serviceCpu() - cpu0
  const pgCpuS = postgresCpu() - pgCpu0
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number)
  // A graceful stop: runs in flight finish, the writers store what they hold, the request logs flush.
  await Promise.all(services.map((s) => s.stop()))
  services.length = 0
  const end = to - 5_000
  // Figures per location, computed in the database (millions of rows stay there): due runs from
  // each monitor's phase over [from, end), those made, scheduling lag, gaps between a monitor's runs.
  const groups = ANY ? [{ location: "any", filter: "TRUE", monitors: CREATED }] : LOCATIONS.map((l) => ({ location: l, filter: `location = '${l}'`, monitors: MONITORS }))
  const perLocation = groups.map(({ location, filter, monitors }) => {
    const here = `${filter} AND started_at >= ${from - 60_000} AND started_at < ${to}`
    const [[phases, due]] = rows(`WITH p AS (SELECT monitor_id, MIN(scheduled_for % 60000) AS p FROM monitor_results WHERE ${here} GROUP BY monitor_id),
      f AS (SELECT p, (CAST(CEIL((${from} - p) / 60000.0) AS BIGINT) * 60000 + p) AS first FROM p)
      SELECT COUNT(*), COALESCE(SUM(CASE WHEN first >= ${end} THEN 0 ELSE (${end} - 1 - first) / 60000 + 1 END), 0) FROM f`)
    const [[made, lag50, lag99, lagMax]] = rows(`SELECT COUNT(*),
        percentile_disc(0.5) WITHIN GROUP (ORDER BY started_at - scheduled_for),
        percentile_disc(0.99) WITHIN GROUP (ORDER BY started_at - scheduled_for), MAX(started_at - scheduled_for)
      FROM monitor_results WHERE ${here} AND scheduled_for >= ${from} AND scheduled_for < ${end}`)
    const [[gap50, gap99, gapMax]] = rows(`SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY g), percentile_disc(0.99) WITHIN GROUP (ORDER BY g), MAX(g)
      FROM (SELECT started_at, started_at - LAG(started_at) OVER (PARTITION BY monitor_id ORDER BY started_at) AS g FROM monitor_results WHERE ${here}) x
      WHERE g IS NOT NULL AND started_at >= ${from}`)
    const [[inMinutes]] = rows(`SELECT COUNT(*) FROM monitor_results WHERE ${filter} AND started_at >= ${from} AND started_at < ${to}`)
    const dueRuns = Number(due) + (monitors - Number(phases)) * MINUTES // monitors with no run at all here
    return {
      location,
      runs_per_minute: r1(Number(inMinutes) / ((to - from) / 60_000)),
      due_runs: dueRuns,
      due_runs_happened: Number(made),
      due_runs_happened_pct: r1((1000 * Number(made)) / dueRuns) / 10,
      scheduling_lag_ms: { p50: Number(lag50), p99: Number(lag99), max: Number(lagMax) },
      gap_between_runs_s: { p50: r1(Number(gap50) / 1000), p99: r1(Number(gap99) / 1000), max: r1(Number(gapMax) / 1000) }
    }
  })
  // A due run made twice in one location shows as a run the request log counted and the
  // results do not hold (the second result of a due time and location is refused by the store).
  const made = Number(rows("SELECT COUNT(*) FROM request_log WHERE operation = 'monitorRun' AND status = 200")[0][0])
  const stored = Number(rows("SELECT COUNT(*) FROM monitor_results")[0][0])
  const states = Object.fromEntries(rows("SELECT COALESCE(state, 'none'), COUNT(*) FROM monitors WHERE name LIKE 'm%' GROUP BY 1"))
  console.log(JSON.stringify({
    monitors: CREATED,
    monitor_locations: ANY ? 0 : LOCATIONS.length,
    instances: LOCATIONS.length,
    interval_s: INTERVAL_S,
    measured_minutes: r1((to - from) / 60_000),
    per_location: perLocation,
    runs_made: made,
    results_stored: stored,
    made_twice_in_a_location: made - stored,
    combined_states: states,
    service_cpu_seconds: r1(cpuS),
    postgres_cpu_seconds: r1(pgCpuS),
    runs_per_cpu_second_with_postgres: r1(perLocation.reduce((n, l) => n + l.runs_per_minute, 0) * ((to - from) / 60_000) / (cpuS + pgCpuS)),
    load_average: load,
    create_seconds: r1(createS)
  }, null, 2))
} finally {
  for (const s of services) await s.stop()
  target.kill()
  await pg.stop()
}
