/**
 * Throughput of an authenticated, metered cheap operation under 100 concurrent connections on
 * loopback, next to a bare Bun.serve answering the same bytes, in the same run; p50/p99 latency;
 * afterwards the usage report's total must equal the requests sent.
 *
 *   bun bench/analytics/throughput.ts                       # GET /v1/alerts/rules, 10 s each
 *   PATH_UNDER_TEST=/v1/analytics/usage DURATION_S=10 bun bench/analytics/throughput.ts
 *
 * The service runs as its own process (`bun src/main.ts serve`, file-backed SQLite), the bare
 * server as another; this process only generates load.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const CONCURRENCY = Number(process.env.CONCURRENCY ?? 100)
const DURATION_S = Number(process.env.DURATION_S ?? 10)
const WARMUP_S = 2
const PATH = process.env.PATH_UNDER_TEST ?? "/v1/alerts/rules"
const bun = process.execPath
const root = join(import.meta.dir, "../..")
const dir = mkdtempSync(join(tmpdir(), "di-tput-"))
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, "db.sqlite")}`, HOST: "127.0.0.1", LOG_LEVEL: "warn" }

const freePort = () => {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") })
  const p = s.port
  s.stop(true)
  return p
}

const waitUp = async (url: string) => {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).status < 500) return
    } catch {}
    await Bun.sleep(50)
  }
  throw new Error(`${url} did not come up`)
}

const load = async (url: string, headers: Record<string, string>, seconds: number) => {
  const latencies: Array<number> = []
  let sent = 0
  let ok = 0
  const end = performance.now() + seconds * 1000
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now()
      sent++
      const r = await fetch(url, { headers })
      await r.arrayBuffer()
      if (r.status === 200) ok++
      latencies.push(performance.now() - t)
    }
  }
  const t0 = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const elapsed = (performance.now() - t0) / 1000
  latencies.sort((a, b) => a - b)
  const q = (p: number) => latencies[Math.floor(p * (latencies.length - 1))]
  return { sent, ok, rps: sent / elapsed, p50: q(0.5), p99: q(0.99) }
}

// 1. a key, then the service
const created = spawnSync(bun, ["src/main.ts", "keys", "create", "--org", "bench", "--plan", "enterprise"], { cwd: root, env })
const key = created.stdout.toString().trim().split("\n").at(-1)!
if (!key.startsWith("di_")) throw new Error(`no key: ${created.stdout}${created.stderr}`)
const port = freePort()
const service = spawn(bun, ["src/main.ts", "serve"], { cwd: root, env: { ...env, PORT: String(port) }, stdio: ["ignore", "ignore", "inherit"] })
const base = `http://127.0.0.1:${port}`
await waitUp(`${base}/healthz`)
const auth = { authorization: `Bearer ${key}` }

// 2. the exact bytes of the operation's answer, served bare
const sample = await fetch(base + PATH, { headers: auth })
const bytes = Buffer.from(await sample.arrayBuffer())
if (sample.status !== 200) throw new Error(`${PATH} answered ${sample.status}: ${bytes}`)
let sentToService = 1
const bare = spawn(bun, [join(import.meta.dir, "bare.ts")], {
  env: { ...process.env, PORT: "0", BARE_BODY_B64: bytes.toString("base64"), BARE_CONTENT_TYPE: sample.headers.get("content-type") ?? "" },
  stdio: ["ignore", "pipe", "inherit"]
})
const barePort = Number(await new Promise<string>((resolve) => bare.stdout!.once("data", (d) => resolve(String(d).trim()))))
const bareUrl = `http://127.0.0.1:${barePort}${PATH}`

try {
  await load(bareUrl, auth, WARMUP_S)
  const b = await load(bareUrl, auth, DURATION_S)
  const w = await load(base + PATH, auth, WARMUP_S)
  const s = await load(base + PATH, auth, DURATION_S)
  sentToService += w.sent + s.sent

  const usage = await (await fetch(`${base}/v1/analytics/usage?period=current`, { headers: auth })).json() as any
  console.log(`operation: GET ${PATH} (${bytes.length} bytes), ${CONCURRENCY} connections, ${DURATION_S} s each, loopback`)
  console.log(`| server | requests/s | p50 ms | p99 ms | non-200 |`)
  console.log(`|---|---|---|---|---|`)
  console.log(`| bare Bun.serve, same bytes | ${b.rps.toFixed(0)} | ${b.p50.toFixed(2)} | ${b.p99.toFixed(2)} | ${b.sent - b.ok} |`)
  console.log(`| domain-intel (auth + quota + request log) | ${s.rps.toFixed(0)} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.sent - s.ok + w.sent - w.ok} |`)
  console.log(`ratio service/bare: ${(s.rps / b.rps).toFixed(2)}`)
  console.log(`requests sent to the service: ${sentToService}; usage report total_requests: ${usage.total_requests} → ${usage.total_requests === sentToService ? "equal" : "MISMATCH"}`)
  if (usage.total_requests !== sentToService) process.exitCode = 1
} finally {
  bare.kill()
  service.kill("SIGTERM")
  await new Promise((r) => service.once("exit", r))
  rmSync(dir, { recursive: true, force: true })
}
