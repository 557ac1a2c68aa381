/**
 * The domain audit against its underlying operations called one after another, with every DNS
 * answer, HTTP answer, TLS flight and SMTP reply of the world delayed DELAY_MS (default 50 ms:
 * a proxy in front of each server). The world is the tests' (test/analyses/audit/world/), in a
 * network namespace of its own, its servers in a process of their own; the service runs here,
 * the same layers `serve` runs, and is asked over HTTP.
 *
 *   ./node_modules/.bin/bun bench/audit/run.ts            (as root: RUNS=9, DELAY_MS=50)
 *
 * Each round asks, in alternating order, GET /v1/domain/audit?domain=full.lab and the six
 * operations the audit calls, one after another: security headers, TLS scan, email security,
 * zone hygiene (the audit's four sections' own reports), subdomain takeover and blocklist.
 * Two warm-up rounds are left out. Printed: the median of each, the sums, the ratios.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { Option } from "effect"
import { startService } from "../../test/support/service"

const RUNS = Number(process.env.RUNS ?? 9)
const WARMUP = 2
const DELAY = Number(process.env.DELAY_MS ?? 50)

if (process.env.AUDIT_BENCH_INSIDE !== "1") {
  const r = spawnSync("unshare", ["--net", "--", process.execPath, import.meta.path], { env: { ...process.env, AUDIT_BENCH_INSIDE: "1" }, stdio: "inherit" })
  process.exit(r.status ?? 1)
}

const dir = mkdtempSync(join(tmpdir(), "di-audit-bench-"))
const world = spawn(process.execPath, [join(import.meta.dir, "world.ts")], { env: { ...process.env, AUDIT_WORLD_DIR: dir, DELAY_MS: String(DELAY) }, stdio: ["pipe", "pipe", "inherit"] })
const files = await new Promise<{ anchors: string; ca: string; crt: string }>((resolve, reject) => {
  createInterface({ input: world.stdout! }).on("line", (l) => { if (l.startsWith("{")) resolve(JSON.parse(l)) })
  world.once("exit", (c) => reject(new Error(`world exited ${c}`)))
})

// The world's start has set up the namespace's loopback (lo up, the IPv6 addresses).
const { parseResolverList } = await import("../../src/platform/Config")
const service = await startService({
  dnsResolvers: parseResolverList("127.60.0.53:53"),
  dnsAuthPort: 53,
  dnsTimeoutMs: 1500,
  dnssecTrustAnchors: Option.some(files.anchors),
  extraCaCerts: Option.some(files.ca),
  allowPrivateTargets: true,
  smtpPort: 25,
  ctAggregatorUrl: files.crt,
  ctBudgetMs: 2000,
  dnsblIpZones: ["ip.dnsbl.lab"],
  dnsblDomainZones: ["dom.dnsbl.lab"],
  zoneAuditCacheTtlS: 0
})
const { key } = await service.newKey("enterprise")

const OPS = [
  ["security headers", "/v1/security/headers?url=full.lab"],
  ["TLS scan", "/v1/security/tls?host=full.lab"],
  ["email security", "/v1/security/email?domain=full.lab"],
  ["zone hygiene", "/v1/dns/zone-hygiene?domain=full.lab"],
  ["subdomain takeover", "/v1/security/takeover?domain=full.lab"],
  ["blocklist", "/v1/security/blocklist?target=full.lab"]
] as const
const AUDIT = "/v1/domain/audit?domain=full.lab"

const timed = async (path: string) => {
  const t = performance.now()
  const res = await service.call(path, { key })
  const body = (await res.json()) as any
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`)
  return { ms: performance.now() - t, body }
}

const samples: Record<string, Array<number>> = { audit: [], ...Object.fromEntries(OPS.map(([n]) => [n, []])) }
const sections: Record<string, Array<number>> = { web: [], mail: [], dns: [], exposure: [] }
for (let round = 0; round < WARMUP + RUNS; round++) {
  const audit = async () => {
    const { ms, body } = await timed(AUDIT)
    if (body.grade !== "A" || body.limitations.length > 0) throw new Error(`the audit of full.lab is not clean: ${JSON.stringify(body.limitations)}`)
    if (round >= WARMUP) {
      samples.audit.push(ms)
      for (const s of Object.keys(sections)) sections[s].push(body.timings_ms[s])
    }
  }
  const ops = async () => {
    for (const [name, path] of OPS) {
      const { ms } = await timed(path)
      if (round >= WARMUP) samples[name].push(ms)
    }
  }
  if (round % 2 === 0) await audit().then(ops)
  else await ops().then(audit)
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
/** Per round: the sum of the listed operations (so the median of sums, not a sum of medians). */
const sumOf = (names: ReadonlyArray<string>) => samples.audit.map((_, i) => names.reduce((s, n) => s + samples[n][i], 0))
const four = sumOf(OPS.slice(0, 4).map(([n]) => n))
const six = sumOf(OPS.map(([n]) => n))
const slowest = samples.audit.map((_, i) => Math.max(...OPS.map(([n]) => samples[n][i])))
const ms = (x: number) => `${Math.round(x)} ms`
console.log(`DELAY_MS=${DELAY}, ${RUNS} rounds (median)`)
for (const [n] of OPS) console.log(`  ${n.padEnd(20)} ${ms(median(samples[n]))}`)
console.log(`  four sections' reports, one after another: ${ms(median(four))}`)
console.log(`  all six, one after another:                ${ms(median(six))}`)
console.log(`  the slowest single operation:              ${ms(median(slowest))}`)
console.log(`  the audit:                                 ${ms(median(samples.audit))} (sections: ${Object.entries(sections).map(([s, v]) => `${s} ${ms(median(v))}`).join(", ")})`)
console.log(`  ratio audit / four: ${(median(samples.audit.map((a, i) => a / four[i]))).toFixed(2)}; audit / six: ${(median(samples.audit.map((a, i) => a / six[i]))).toFixed(2)}`)

await service.stop()
world.stdin!.end()
await new Promise((r) => world.once("exit", r))
rmSync(dir, { recursive: true, force: true })
process.exit(0)
