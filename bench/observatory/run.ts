/**
 * Wall time of one grade of the same site: this service (in-process) against the MDN HTTP
 * Observatory 1.4.8's scanner (in-process in node, process start-up excluded), both in the
 * side-by-side lab (a network namespace with only loopback; root and unshare needed).
 *
 *   ./node_modules/.bin/bun bench/observatory/run.ts [host] [repeat]
 */
import { runLab } from "../../test/analyses/observatory/lab/run"

const host = process.argv[2] ?? "aplus.test"
const repeat = Number(process.argv[3] ?? "30")
const r = runLab({ LAB_HOSTS: host, LAB_REPEAT: String(repeat) })
// The first scan of each warms up (layers, TLS session, JIT): left out of the figures.
const stats = (xs: ReadonlyArray<number>) => {
  const s = [...xs.slice(1)].sort((a, b) => a - b)
  const median = s[Math.floor(s.length / 2)]
  const mean = s.reduce((a, b) => a + b, 0) / s.length
  return { median, mean }
}
const ours = stats(r.oursMs[host])
const theirs = stats(r.theirsMs[host])
console.log(`site ${host}, ${repeat - 1} scans each after one warm-up`)
console.log(`service:     median ${ours.median.toFixed(1)} ms, mean ${ours.mean.toFixed(1)} ms (grade ${r.ours[host].grade}, score ${r.ours[host].score})`)
console.log(`Observatory: median ${theirs.median.toFixed(1)} ms, mean ${theirs.mean.toFixed(1)} ms (grade ${r.theirs[host].grade}, score ${r.theirs[host].score})`)
console.log(`speed-up (median): ${(theirs.median / ours.median).toFixed(1)}x`)
