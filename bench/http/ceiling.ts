/**
 * The cost of the request pipeline, in one run under `wrk` (Debian's): every metered operation
 * against the framework's own ceiling, a minimal HttpApi endpoint served the same way.
 *   1. bare Bun.serve answering fixed bytes;
 *   2. a minimal Effect HttpApi (one endpoint, no middleware) on BunHttpServer;
 *   3. domain-intel GET /healthz (the pipeline, no auth);
 *   4. domain-intel, one metered operation of each kind (auth, quota, request log):
 *      usage, alert rules, a CT page answered from cache, alert history, the cache and performance
 *      reports, the account and the monitor list.
 * Every server runs in its own process. The figure is each row's throughput ratio to row 2
 * (README › Benchmarks states the floor); beside it, the server's CPU time per request (from
 * /proc), whose ratio holds still on a machine shared with other work.
 * Run: bun bench/http/ceiling.ts [seconds] [rounds] [row-filter-regex]
 * With several rounds the rows are measured in turn, round after round, and the median is shown.
 * A first round, not counted, warms every row the same way (JIT tiers, caches): the figures are
 * steady-state throughput, as a server sees it after its first seconds.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { readFileSync } from "node:fs"
import { makeRows, startCrtSh } from "../../test/ct/crtsh"
import { startServe, waitUntilUp } from "../../test/support/process"

const seconds = Number(process.argv[2] ?? 5)
const rounds = Number(process.argv[3] ?? 1)
/** Optional: measure only the rows whose name matches (the two references always run). */
const only = process.argv[4] === undefined ? undefined : new RegExp(process.argv[4])
if (spawnSync("wrk", ["--version"]).error) throw new Error("install Debian's wrk first")

/** CPU seconds (user + system) a process has used so far. */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100 // clock ticks of 1/100 s
}

/** Requests per second under wrk, and the server's CPU time per request (robust on a busy machine). */
const wrk = async (pid: number, url: string, headers: Array<string> = []) => {
  const args = ["-c100", "-t2", `-d${seconds}s`, ...headers.flatMap((h) => ["-H", h]), url]
  const cpu0 = cpuSeconds(pid)
  const p = spawn("wrk", args)
  let out = ""
  p.stdout.on("data", (d) => (out += d))
  await new Promise((r) => p.on("exit", r))
  const cpu = cpuSeconds(pid) - cpu0
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0)
  if (non2xx > 0) throw new Error(`${url}: ${non2xx} answers were not 2xx`)
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0)
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0), cpuUs: (cpu * 1e6) / Math.max(1, total) }
}

// 1. bare and 2. minimal HttpApi, each in its own process like the service
const bare = spawn(process.execPath, ["-e", `Bun.serve({ port: 18501, hostname: "127.0.0.1", fetch: () => new Response('{"status":"ok"}', { headers: { "content-type": "application/json" } }) })`])
const minimal = spawn(process.execPath, [join(import.meta.dir, "minimal.ts")], { env: { ...process.env, PORT: "18502" } })
for (const port of [18501, 18502]) {
  if (!(await waitUntilUp(`http://127.0.0.1:${port}/${port === 18502 ? "x" : ""}`))) throw new Error(`reference ${port} did not start`)
}

// 3-4. the service as `serve` runs it, with a loopback CT aggregator
const crt = startCrtSh()
crt.set("bench.example", { kind: "rows", rows: makeRows("bench.example", 20) })
const dir = mkdtempSync(join(tmpdir(), "di-ceiling-"))
const root = join(import.meta.dir, "../..")
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, "db")}`, HOST: "127.0.0.1", CT_AGGREGATOR_URL: crt.url, LOG_LEVEL: "info" }
const key = spawnSync(process.execPath, ["src/main.ts", "keys", "create", "--org", "bench", "--plan", "enterprise"], { cwd: root, env, encoding: "utf8" })
  .stdout.trim().split("\n").pop()!
const service = await startServe(process.execPath, ["src/main.ts", "serve"], { cwd: root, env: { ...env, PORT: "0" } })
const base = `http://127.0.0.1:${service.port}`
if (!(await waitUntilUp(`${base}/healthz`))) throw new Error("service did not start")
const auth = [`Authorization: Bearer ${key}`]
// Warm: the key memo, the quota counter, the CT cache.
const ct = `${base}/v1/domain/ct-logs?domain=bench.example&limit=5`
for (const u of [`${base}/v1/analytics/usage`, `${base}/v1/alerts/rules`, ct]) {
  const r = await fetch(u, { headers: { authorization: `Bearer ${key}` } })
  if (!r.ok) throw new Error(`${u}: ${r.status} ${await r.text()}`)
}
const cached = (await (await fetch(ct, { headers: { authorization: `Bearer ${key}` } })).json()) as { cache: { outcome: string } }
if (cached.cache.outcome !== "hit") throw new Error(`CT page not served from cache: ${cached.cache.outcome}`)

const sp = service.child.pid!
type Figure = { rps: number; cpuUs: number }
const rows: Array<[string, () => Promise<Figure>]> = [
  ["bare Bun.serve", () => wrk(bare.pid!, "http://127.0.0.1:18501/")],
  ["minimal Effect HttpApi endpoint (the reference)", () => wrk(minimal.pid!, "http://127.0.0.1:18502/x")],
  ["domain-intel GET /healthz (pipeline, no auth)", () => wrk(sp, `${base}/healthz`)],
  ["domain-intel GET /v1/analytics/usage (metered)", () => wrk(sp, `${base}/v1/analytics/usage`, auth)],
  ["domain-intel GET /v1/alerts/rules (metered)", () => wrk(sp, `${base}/v1/alerts/rules`, auth)],
  ["domain-intel GET /v1/domain/ct-logs, cached page (metered)", () => wrk(sp, ct, auth)],
  ["domain-intel GET /v1/alerts/history (metered)", () => wrk(sp, `${base}/v1/alerts/history`, auth)],
  ["domain-intel GET /v1/analytics/cache (metered)", () => wrk(sp, `${base}/v1/analytics/cache`, auth)],
  ["domain-intel GET /v1/analytics/performance (metered)", () => wrk(sp, `${base}/v1/analytics/performance`, auth)],
  ["domain-intel GET /v1/account (metered)", () => wrk(sp, `${base}/v1/account`, auth)],
  ["domain-intel GET /v1/monitors (metered)", () => wrk(sp, `${base}/v1/monitors`, auth)]
]
if (only !== undefined) rows.splice(0, rows.length, ...rows.filter(([name], i) => i < 2 || only.test(name)))
const results = rows.map(() => [] as Array<Figure>)
for (let r = -1; r < rounds; r++) {
  for (let i = 0; i < rows.length; i++) {
    const figure = await rows[i][1]()
    if (r >= 0) results[i].push(figure) // round -1 warms up
  }
}
const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const rps = results.map((r) => median(r.map((f) => f.rps)))
const cpu = results.map((r) => median(r.map((f) => f.cpuUs)))
console.log(`wrk -c100 -t2 -d${seconds}s, loopback, one warm-up round then ${rounds} round(s), medians`)
console.log("| server | requests/s | × minimal HttpApi | server CPU µs/request | × minimal HttpApi (by CPU) |\n|---|---|---|---|---|")
rows.forEach(([name], i) =>
  console.log(`| ${name} | ${Math.round(rps[i])} | ${(rps[i] / rps[1]).toFixed(2)} | ${cpu[i].toFixed(1)} | ${(cpu[1] / cpu[i]).toFixed(2)} |`)
)
bare.kill()
minimal.kill()
service.child.kill("SIGTERM")
await service.exited
await crt.stop()
