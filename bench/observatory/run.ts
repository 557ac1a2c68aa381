/**
 * Wall time of one grade of the same site by this service and by the MDN HTTP Observatory 1.4.8,
 * in the side-by-side lab (a network namespace with only loopback, the sites and their DNS server
 * in a process of their own; root and unshare needed), measured two ways:
 *
 * - in-process: the service's grading layer in a Bun process against the Observatory's scanner
 *   function in a node process, neither tool's start-up counted;
 * - as used: a request with a key to the running service (`serve` from this checkout: routing,
 *   authentication, metering and the JSON answer included) against a run of the Observatory's
 *   command line, `src/scan.js`, as its users run it (node's start-up and its modules included).
 *
 *   ./node_modules/.bin/bun bench/observatory/run.ts [host] [repeat]
 */
import { runLab } from "../../test/analyses/observatory/lab/run"

const host = process.argv[2] ?? "aplus.test"
const repeat = Number(process.argv[3] ?? "30")
const r = runLab({ LAB_HOSTS: host, LAB_REPEAT: String(repeat), LAB_AS_USED: "1" })
// The first scan of each warms up (layers, TLS session, JIT): left out of the figures.
const stats = (xs: ReadonlyArray<number>) => {
  const s = [...xs.slice(1)].sort((a, b) => a - b)
  const median = s[Math.floor(s.length / 2)]
  const mean = s.reduce((a, b) => a + b, 0) / s.length
  return { median, mean }
}
const line = (what: string, xs: ReadonlyArray<number>) => {
  const s = stats(xs)
  console.log(`  ${what.padEnd(44)} median ${s.median.toFixed(1).padStart(6)} ms, mean ${s.mean.toFixed(1).padStart(6)} ms`)
  return s
}
console.log(`site ${host}, ${repeat - 1} scans each after one warm-up; grades: service ${r.ours[host].grade} ${r.ours[host].score}, Observatory ${r.theirs[host].grade} ${r.theirs[host].score}`)
console.log("in-process (start-up of neither counted):")
const a = line("service (grading layer)", r.oursMs[host])
const b = line("Observatory (scanner function, node)", r.theirsMs[host])
console.log(`  speed-up (median): ${(b.median / a.median).toFixed(1)}x`)
console.log("as used (a request to the running service; a run of the Observatory's command line):")
const c = line("service (GET /v1/security/headers, with a key)", r.oursApiMs![host])
const d = line("Observatory (node src/scan.js)", r.theirsCliMs![host])
console.log(`  speed-up (median): ${(d.median / c.median).toFixed(1)}x`)
