/**
 * Where one grade's time goes: the service's scans of a lab site with every probe request and DNS
 * lookup timed (start and end in ms from the scan's start; DNS, connect, TLS handshake, first
 * byte and total of each exchange), printed for the scans at the 10th, 50th and 90th percentile.
 * Same lab as run.ts (root and unshare needed).
 *
 *   ./node_modules/.bin/bun bench/observatory/phases.ts [host] [repeat]
 */
import { runLab } from "../../test/analyses/observatory/lab/run"

const host = process.argv[2] ?? "distant.test"
const repeat = process.argv[3] ?? "30"
const r = runLab({ LAB_HOSTS: host, LAB_REPEAT: repeat, LAB_TRACE: "1" })
// The first scan warms up (layers, JIT): left out, as in run.ts.
const scans = r.traces.slice(1)
const total = (t: ReadonlyArray<{ end: number }>) => t[t.length - 1].end
const sorted = [...scans].sort((a, b) => total(a) - total(b))
const round = (v: unknown) => (typeof v === "number" ? Math.round(v * 10) / 10 : v)
for (const q of [0.1, 0.5, 0.9]) {
  const scan = sorted[Math.floor(q * (sorted.length - 1))]
  console.log(`${host}: the scan at percentile ${q * 100} (${total(scan).toFixed(1)} ms)`)
  console.table(scan.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, round(v)]))))
}
