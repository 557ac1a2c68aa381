/**
 * The reference for monitor runs per CPU-second: Debian's prometheus-blackbox-exporter probing
 * the same loopback target (a bare Bun.serve in a child process) with its `http_2xx` module
 * (GET, 2xx expected, one new connection per probe, as a monitor run), driven through its
 * `/probe?target=…&module=http_2xx` endpoint by CONCURRENCY loops for SECONDS. Its CPU seconds
 * are read from /proc/<pid>/stat (utime + stime), so only the exporter's own work is counted.
 *
 *   apt-get install -y prometheus-blackbox-exporter
 *   bun bench/monitors/blackbox.ts                  # DURATION_S=30 CONCURRENCY=32
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

const SECONDS = Number(process.env.DURATION_S ?? 30)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32)
const BIN = process.env.BLACKBOX_BIN ?? "/usr/bin/prometheus-blackbox-exporter"
const CLK_TCK = 100 // USER_HZ on Linux

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
  let ok = 0
  let failed = 0
  const cpu0 = cpuSeconds(exporter.pid!)
  const t0 = performance.now()
  const end = Date.now() + SECONDS * 1000
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < end) {
      const body = await (await fetch(probeUrl)).text()
      if (/^probe_success 1$/m.test(body)) ok++
      else failed++
    }
  }))
  const wallS = (performance.now() - t0) / 1000
  const cpuS = cpuSeconds(exporter.pid!) - cpu0
  console.log(JSON.stringify({
    seconds: Math.round(wallS * 10) / 10,
    concurrency: CONCURRENCY,
    probes_ok: ok,
    probes_failed: failed,
    probes_per_second: Math.round(ok / wallS),
    exporter_cpu_seconds: Math.round(cpuS * 100) / 100,
    probes_per_cpu_second: Math.round(ok / cpuS)
  }, null, 2))
} finally {
  exporter.kill()
  target.kill()
  rmSync(dir, { recursive: true, force: true })
}
