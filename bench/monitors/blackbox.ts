/**
 * The reference for monitor runs per CPU-second: Debian's prometheus-blackbox-exporter probing
 * the same loopback target (a bare Bun.serve in a child process) with its `http_2xx` module
 * (GET, 2xx expected, one new connection per probe, as a monitor run), driven through its
 * `/probe?target=…&module=http_2xx` endpoint by CONCURRENCY loops for SECONDS. Its CPU seconds
 * are read from /proc/<pid>/stat (utime + stime), so only the exporter's own work is counted.
 * Then, for the same comparison one level down, the service's own probe (the http_check a
 * monitor run makes: target guard, new connection, GET, report) driven the same way in this
 * process for SECONDS at CONCURRENCY, its CPU from process.cpuUsage() — without what a monitor
 * run adds (verdict, result row, run state, rollup, request log), which bench/monitors/run.ts counts.
 *
 * With PACE=<probes per second> both are driven at that steady rate instead (PACE=333 is the
 * rate of 20,000 one-minute monitors, the load bench/monitors/run.ts measures).
 *
 *   apt-get install -y prometheus-blackbox-exporter
 *   bun bench/monitors/blackbox.ts                  # DURATION_S=30 CONCURRENCY=32
 *   PACE=333 bun bench/monitors/blackbox.ts
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { httpCheck } from "../../src/analyses/network/HttpCheck"
import { startService } from "../../test/support/service"

const SECONDS = Number(process.env.DURATION_S ?? 30)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32)
const BIN = process.env.BLACKBOX_BIN ?? "/usr/bin/prometheus-blackbox-exporter"
const PACE = Number(process.env.PACE ?? 0)
const CLK_TCK = 100 // USER_HZ on Linux

/** Runs `one` CONCURRENCY at a time until `until`, or PACE times a second when PACE is set. */
const drive = async (until: number, one: () => Promise<boolean>) => {
  let ok = 0
  let failed = 0
  const count = (good: boolean) => (good ? ok++ : failed++)
  if (PACE > 0) {
    const pending: Array<Promise<void>> = []
    const gap = 1000 / PACE
    let next = performance.now()
    while (Date.now() < until) {
      pending.push(one().then((good) => { count(good) }, () => { failed++ }))
      next += gap
      const wait = next - performance.now()
      if (wait >= 1) await Bun.sleep(wait)
    }
    await Promise.all(pending)
  } else {
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) count(await one().catch(() => false))
    }))
  }
  return { ok, failed }
}

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer()
  s.listen(0, "127.0.0.1", () => {
    const port = (s.address() as { port: number }).port
    s.close(() => resolve(port))
  })
})
const cpuSeconds = (pid: number) => {
  // fields after the parenthesised command name: state is field 3; utime 14, stime 15
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK
}

const target = spawn(process.execPath, ["bench/analytics/bare.ts"], { env: { ...process.env, BARE_BODY_B64: Buffer.from("ok").toString("base64"), BARE_CONTENT_TYPE: "text/plain" } })
const targetPort = await new Promise<number>((resolve) => target.stdout.once("data", (d) => resolve(Number(String(d).trim()))))
const dir = mkdtempSync(join(tmpdir(), "di-bench-blackbox-"))
const config = join(dir, "blackbox.yml")
writeFileSync(config, `modules:\n  http_2xx:\n    prober: http\n    timeout: 10s\n    http:\n      method: GET\n      preferred_ip_protocol: ip4\n`)
const port = await freePort()
const exporter = spawn(BIN, [`--config.file=${config}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: "ignore" })
try {
  const probeUrl = `http://127.0.0.1:${port}/probe?module=http_2xx&target=${encodeURIComponent(`http://127.0.0.1:${targetPort}/`)}`
  for (let i = 0; i < 50; i++) {
    if (await fetch(probeUrl).then((r) => r.ok, () => false)) break
    await Bun.sleep(100)
  }
  const cpu0 = cpuSeconds(exporter.pid!)
  const t0 = performance.now()
  const { ok, failed } = await drive(Date.now() + SECONDS * 1000, async () => /^probe_success 1$/m.test(await (await fetch(probeUrl)).text()))
  const wallS = (performance.now() - t0) / 1000
  const cpuS = cpuSeconds(exporter.pid!) - cpu0
  exporter.kill()

  const svc = await startService({ alertEvalIntervalMs: 3_600_000 })
  const url = `http://127.0.0.1:${targetPort}/`
  const check = Effect.map(httpCheck({ url, method: "GET", follow_redirects: true, max_redirects: 5, timeout: 10_000 }), (r) => r.status.ok)
  await svc.run(Effect.forEach(Array.from({ length: 200 }), () => check, { concurrency: CONCURRENCY })) // warm-up
  const c0 = process.cpuUsage()
  const s0 = performance.now()
  const { ok: own, failed: ownFailed } = await drive(Date.now() + SECONDS * 1000, () => svc.run(check))
  const ownWallS = (performance.now() - s0) / 1000
  const ownCpu = process.cpuUsage(c0)
  const ownCpuS = (ownCpu.user + ownCpu.system) / 1e6
  await svc.stop()
  console.log(JSON.stringify({
    seconds: Math.round(wallS * 10) / 10,
    driven: PACE > 0 ? `${PACE} per second` : `${CONCURRENCY} at a time`,
    blackbox_exporter: {
      probes_ok: ok,
      probes_failed: failed,
      probes_per_second: Math.round(ok / wallS),
      cpu_seconds: Math.round(cpuS * 100) / 100,
      probes_per_cpu_second: Math.round(ok / cpuS)
    },
    service_http_check: {
      checks_ok: own,
      checks_failed: ownFailed,
      checks_per_second: Math.round(own / ownWallS),
      cpu_seconds: Math.round(ownCpuS * 100) / 100,
      checks_per_cpu_second: Math.round(own / ownCpuS)
    }
  }, null, 2))
} finally {
  exporter.kill()
  target.kill()
  rmSync(dir, { recursive: true, force: true })
}
