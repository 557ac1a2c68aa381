/**
 * Two or more checkouts of the service side by side in one run under `wrk` (Debian's), for a
 * change to the shared request path: each checkout's `serve` in its own process on its own
 * SQLite file, every row measured in turn, round after round, against the minimal HttpApi
 * endpoint (bench/http/minimal.ts). Throughput swings with the load of a shared machine; the
 * server CPU time per request (from /proc) and the ratios within one run hold much steadier.
 *
 *   AB_ROOTS=base=/path/to/checkout-a,new=/path/to/checkout-b \
 *     ./node_modules/.bin/bun bench/http/ab.ts [seconds=3] [rounds=3] [paths=/healthz,/v1/alerts/history,...]
 *
 * Each checkout needs its node_modules. A first round, not counted, warms every row.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeRows, startCrtSh } from "../../test/ct/crtsh"
import { startServe, waitUntilUp } from "../../test/support/process"

const seconds = Number(process.argv[2] ?? 3)
const rounds = Number(process.argv[3] ?? 3)
const paths = (process.argv[4] ?? "/healthz,/v1/alerts/history,/v1/analytics/cache").split(",")
const roots: Record<string, string> = Object.fromEntries(
  (process.env.AB_ROOTS ?? `this=${join(import.meta.dir, "../..")}`).split(",").map((x) => x.split("=") as [string, string])
)
if (spawnSync("wrk", ["--version"]).error) throw new Error("install Debian's wrk first")

const cpuSeconds = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
  return (Number(f[11]) + Number(f[12])) / 100
}
const wrk = async (pid: number, url: string, headers: Array<string> = []) => {
  const cpu0 = cpuSeconds(pid)
  const p = spawn("wrk", ["-c100", "-t2", `-d${seconds}s`, ...headers.flatMap((h) => ["-H", h]), url])
  let out = ""
  p.stdout.on("data", (d) => (out += d))
  await new Promise((r) => p.on("exit", r))
  const cpu = cpuSeconds(pid) - cpu0
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0)
  if (non2xx > 0) throw new Error(`${url}: ${non2xx} answers were not 2xx`)
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0)
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0), cpuUs: (cpu * 1e6) / Math.max(1, total) }
}

const minimal = spawn(process.execPath, [join(import.meta.dir, "minimal.ts")], { env: { ...process.env, PORT: "18512" } })
if (!(await waitUntilUp("http://127.0.0.1:18512/x"))) throw new Error("the minimal endpoint did not start")
const crt = startCrtSh()
crt.set("bench.example", { kind: "rows", rows: makeRows("bench.example", 20) })
const services: Array<{ name: string; pid: number; base: string; key: string; stop: () => Promise<void> }> = []
for (const [name, root] of Object.entries(roots)) {
  const dir = mkdtempSync(join(tmpdir(), `di-ab-${name}-`))
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, "db")}`, HOST: "127.0.0.1", CT_AGGREGATOR_URL: crt.url, LOG_LEVEL: "info" }
  const key = spawnSync(process.execPath, ["src/main.ts", "keys", "create", "--org", "bench", "--plan", "enterprise"], { cwd: root, env, encoding: "utf8" })
    .stdout.trim().split("\n").pop()!
  const s = await startServe(process.execPath, ["src/main.ts", "serve"], { cwd: root, env: { ...env, PORT: "0" } })
  const base = `http://127.0.0.1:${s.port}`
  if (!(await waitUntilUp(`${base}/healthz`))) throw new Error(`${name} did not start`)
  for (const p of paths) {
    const r = await fetch(base + p, { headers: { authorization: `Bearer ${key}` } })
    if (!r.ok) throw new Error(`${name} ${p}: ${r.status}`)
  }
  services.push({ name, pid: s.child.pid!, base, key, stop: async () => { s.child.kill("SIGTERM"); await s.exited } })
}

type Figure = { rps: number; cpuUs: number }
const rows: Array<[string, () => Promise<Figure>]> = [["minimal Effect HttpApi endpoint", () => wrk(minimal.pid!, "http://127.0.0.1:18512/x")]]
for (const p of paths) {
  for (const s of services) rows.push([`${s.name} ${p}`, () => wrk(s.pid, s.base + p, p === "/healthz" ? [] : [`Authorization: Bearer ${s.key}`])])
}
const results = rows.map(() => [] as Array<Figure>)
for (let r = -1; r < rounds; r++) {
  for (let i = 0; i < rows.length; i++) {
    const figure = await rows[i][1]()
    if (r >= 0) results[i].push(figure)
  }
}
const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const rps = results.map((r) => median(r.map((f) => f.rps)))
const cpu = results.map((r) => median(r.map((f) => f.cpuUs)))
console.log(`wrk -c100 -t2 -d${seconds}s, one warm-up round then ${rounds} round(s), medians; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`)
console.log("| row | requests/s | × minimal | server CPU µs/request | × minimal (by CPU) | CPU µs per round |\n|---|---|---|---|---|---|")
rows.forEach(([name], i) =>
  console.log(`| ${name} | ${Math.round(rps[i])} | ${(rps[i] / rps[0]).toFixed(2)} | ${cpu[i].toFixed(1)} | ${(cpu[0] / cpu[i]).toFixed(2)} | ${results[i].map((f) => Math.round(f.cpuUs)).join(" ")} |`)
)
minimal.kill()
for (const s of services) await s.stop()
await crt.stop()
