/**
 * Zone Hygiene with every DNS answer delayed by 50 ms: the whole report's wall time against
 * its slowest check in the same run, and against zonemaster-cli on the same zones.
 *
 * Run inside a private network namespace (only loopback exists, nothing can leave):
 *   unshare -n sh -c 'ip link set lo up && ./node_modules/.bin/bun bench/dns/zone-hygiene.ts'
 * The lab's servers listen on a high port; 50 ms proxies listen on port 53 of the same
 * addresses, so the service (DNS_AUTH_PORT=53) and zonemaster-cli both see delayed answers.
 */
import { Option } from "effect"
import { spawn } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { parseResolverList } from "../../src/platform/Config"
import { startCrtSh } from "../../test/ct/crtsh"
import { startLab } from "../../test/dns/lab"
import { startService } from "../../test/support/service"
import { startDelayProxy } from "./delayProxy"

const DELAY = Number(process.env.DELAY_MS ?? 50)
const RUNS = Number(process.env.RUNS ?? 5)
const ZONES = (process.env.ZONES ?? "clean.lab,axfr.lab,exposed.lab,drift.lab,open.lab").split(",")
const n = 77
const lab = await startLab({ n, port: 5353 })
const hosts = [1, 2, 3, 4, 53].map((h) => `127.53.${n}.${h}`)
const proxies = await Promise.all(hosts.map((h) => startDelayProxy({ host: h, port: 53 }, { host: h, port: lab.port }, DELAY)))
const crt = startCrtSh()
const svc = await startService({
  dnsResolvers: parseResolverList(`127.53.${n}.53:53`),
  dnsAuthPort: 53,
  dnsTimeoutMs: 2000,
  dnssecTrustAnchors: Option.some(lab.anchorsFile),
  allowPrivateTargets: true,
  ctAggregatorUrl: crt.url
})
const key = (await svc.newKey("developer")).key

const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`zone hygiene, every DNS answer delayed ${DELAY} ms, ${RUNS} runs per zone (median)`)
console.log("(check times run from the audit start; NS-dependent checks include the enumeration)")
console.log("zone            report_ms  slowest_check        slowest_ms  enumeration_ms  client_ms  grade")
const rows: Array<Record<string, unknown>> = []
for (const zone of ZONES) {
  const totals: Array<number> = []
  const slowest: Array<number> = []
  const enums: Array<number> = []
  const clients: Array<number> = []
  let slowestName = ""
  let grade = ""
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    const res = await svc.call(`/v1/dns/zone-hygiene?domain=${zone}`, { key })
    const body: any = await res.json()
    clients.push(performance.now() - t0)
    const t = body.timings_ms as Record<string, number>
    const checks = Object.entries(t).filter(([k]) => k !== "total" && k !== "enumeration")
    const [name, ms] = checks.sort((a, b) => b[1] - a[1])[0]
    totals.push(t.total)
    slowest.push(ms)
    enums.push(t.enumeration)
    slowestName = name
    grade = body.hygiene_grade
  }
  const row = { zone, report_ms: median(totals), slowest_check: slowestName, slowest_ms: median(slowest), enumeration_ms: median(enums), client_ms: Math.round(median(clients)), grade }
  rows.push(row)
  console.log(`${zone.padEnd(15)} ${String(row.report_ms).padStart(9)}  ${slowestName.padEnd(20)} ${String(row.slowest_ms).padStart(10)}  ${String(row.enumeration_ms).padStart(14)}  ${String(row.client_ms).padStart(9)}  ${grade}`)
}

const zm = ["/usr/bin/zonemaster-cli", "/usr/local/bin/zonemaster-cli"].find(existsSync)
if (zm) {
  const hints = join(lab.dir, "hints.zone")
  writeFileSync(hints, `. 3600000 IN NS a.root-servers.net.\na.root-servers.net. 3600000 IN A 127.53.${n}.1\n`)
  console.log(`\nzonemaster-cli (same zones, same delayed servers, --hints to the lab root, IPv4 only)`)
  for (const zone of ZONES) {
    const t0 = performance.now()
    // Asynchronous: the delaying proxies live in this process and must keep answering.
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const p = spawn(zm, ["--hints", hints, "--no-ipv6", "--level", "WARNING", "--raw", "--no-progress", zone])
      let stdout = ""
      let stderr = ""
      p.stdout.on("data", (d) => (stdout += d))
      p.stderr.on("data", (d) => (stderr += d))
      p.on("close", (status) => resolve({ status, stdout, stderr }))
    })
    const ms = Math.round(performance.now() - t0)
    const lines = r.stdout.split("\n").filter((l) => /WARNING|ERROR|CRITICAL/.test(l))
    console.log(`${zone.padEnd(15)} ${String(ms).padStart(9)} ms  exit ${r.status}  ${lines.length} warning+ messages`)
    if (process.env.VERBOSE) console.log(r.stdout, r.stderr)
  }
} else {
  console.log("\nzonemaster-cli not installed: comparison skipped")
}

await svc.stop()
await crt.stop()
for (const p of proxies) await p.close()
await lab.stop()
process.exit(0)
