/**
 * Throughput of a metered operation (GET /v1/alerts/rules with an enterprise key: bearer check,
 * quota, the rule read, request log) in one run (needs Debian's `wrk` and `postgresql`):
 *   1. one instance on SQLite (the default);
 *   2. one instance on PostgreSQL;
 *   3. two instances on the same PostgreSQL database, `wrk` spread over both (one wrk per
 *      instance, half the connections each; requests/s summed, p99 the worse of the two).
 * PostgreSQL is a throwaway cluster on loopback (test/support/postgres.ts) with durable
 * settings (fsync, synchronous_commit on). Afterwards the request log and the quota count are
 * checked against what wrk reported.
 * Run: bun bench/pg/throughput.ts [seconds] [connections]
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startPostgres } from "../../test/support/postgres"

const seconds = Number(process.argv[2] ?? 10)
const connections = Number(process.argv[3] ?? 64)
if (spawnSync("wrk", ["--version"]).error) throw new Error("install Debian's wrk first")
const root = join(import.meta.dir, "../..")

interface WrkResult {
  readonly rps: number
  readonly requests: number
  readonly p99ms: number
  readonly non2xx: number
}

const toMs = (v: string, unit: string) => Number(v) * (unit === "us" ? 0.001 : unit === "s" ? 1000 : 1)

const wrk = async (url: string, key: string, c: number): Promise<WrkResult> => {
  const p = spawn("wrk", [`-c${c}`, "-t1", `-d${seconds}s`, "--latency", "-H", `Authorization: Bearer ${key}`, url])
  let out = ""
  p.stdout.on("data", (d) => (out += d))
  await new Promise((r) => p.on("exit", r))
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out)
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    p99ms: p99 ? toMs(p99[1], p99[2]) : NaN,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
  }
}

const cli = (env: Record<string, string>, args: Array<string>) =>
  spawnSync(process.execPath, ["src/main.ts", ...args], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" })

const serve = async (env: Record<string, string>, port: number): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ["src/main.ts", "serve"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", LOG_ACCESS: "false" },
    stdio: ["ignore", "ignore", "pipe"]
  })
  // Warnings and errors only (LOG_LEVEL=warn): shown after the run.
  child.stderr!.on("data", (d) => (warnings += d))
  for (let i = 0; i < 200; i++) {
    if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) return child
    await Bun.sleep(100)
  }
  throw new Error(`instance on ${port} did not come up`)
}

let warnings = ""

const stop = (children: ReadonlyArray<ChildProcess>) =>
  Promise.all(children.map((c) => new Promise((r) => { c.once("exit", r); c.kill("SIGTERM") })))

const run = async (name: string, env: Record<string, string>, ports: ReadonlyArray<number>) => {
  const key = cli(env, ["keys", "create", "--org", `bench-${ports.join("-")}`, "--plan", "enterprise"]).stdout.trim().split("\n").pop()!
  const children = await Promise.all(ports.map((p) => serve(env, p)))
  // warm-up: JIT, pools, the key memo
  await Promise.all(ports.map((p) => wrkShort(`http://127.0.0.1:${p}/v1/alerts/rules`, key)))
  const results = await Promise.all(ports.map((p) => wrk(`http://127.0.0.1:${p}/v1/alerts/rules`, key, Math.max(1, Math.floor(connections / ports.length)))))
  await stop(children)
  return { name, key, results }
}

const wrkShort = async (url: string, key: string) => {
  const p = spawn("wrk", ["-c8", "-t1", "-d2s", "-H", `Authorization: Bearer ${key}`, url])
  await new Promise((r) => p.on("exit", r))
}

const pg = await startPostgres({ settings: { fsync: "on", synchronous_commit: "on", full_page_writes: "on" } })
const dir = mkdtempSync(join(tmpdir(), "di-bench-pg-"))
try {
  const pgUrl = await pg.createDatabase("bench")
  const sqlite = { DATABASE_URL: `sqlite:${join(dir, "bench.db")}` }
  const postgres = { DATABASE_URL: pgUrl, DATABASE_POOL_MAX: "10" }
  cli(sqlite, ["migrate"])
  cli(postgres, ["migrate"])
  const rows = [
    await run("1 instance, SQLite", sqlite, [18601]),
    await run("1 instance, PostgreSQL", postgres, [18611]),
    await run("2 instances, PostgreSQL", postgres, [18621, 18622])
  ]
  console.log(`GET /v1/alerts/rules (metered), wrk --latency -t1 -c${connections} (split over the instances) -d${seconds}s, loopback, ${navigator.hardwareConcurrency} cores`)
  console.log("| set-up | requests/s | p99 (ms) | non-2xx |\n|---|---|---|---|")
  for (const r of rows) {
    const rps = r.results.reduce((a, x) => a + x.rps, 0)
    const p99 = Math.max(...r.results.map((x) => x.p99ms))
    const bad = r.results.reduce((a, x) => a + x.non2xx, 0)
    console.log(`| ${r.name} | ${Math.round(rps)} | ${p99.toFixed(1)} | ${bad} |`)
  }
  // Every answered request is in the PostgreSQL log and counted once against the quota.
  const db = "bench"
  for (const r of rows.slice(1)) {
    const org = `bench-${r.name.startsWith("1") ? "18611" : "18621-18622"}`
    const logged = Number(pg.psql(db, `SELECT COUNT(*) FROM request_log l JOIN organizations o ON o.id = l.org_id WHERE o.name = '${org}'`).trim())
    const used = Number(pg.psql(db, `SELECT used FROM quota_usage q JOIN organizations o ON o.id = q.org_id WHERE o.name = '${org}'`).trim())
    console.log(`${r.name}: logged ${logged}, quota used ${used} (wrk completed ${r.results.reduce((a, x) => a + x.requests, 0)} plus warm-up)`)
  }
  if (warnings.trim() !== "") console.log(`instance warnings:\n${warnings.trim().slice(-3000)}`)
} finally {
  await pg.stop()
  rmSync(dir, { recursive: true, force: true })
}
