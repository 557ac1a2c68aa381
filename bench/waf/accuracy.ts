/**
 * Per-vendor detection accuracy on the WAF replica corpus (test/waf/replicas.ts), for
 * domain-intel (passive, one request) and `wafw00f -a` (Debian's 2.2) on the same loopback URLs
 * in the same run. Prints one line per case, the per-vendor table (Markdown) and the summary.
 *
 *   bun bench/waf/accuracy.ts [--quiet] [--concurrency 3]
 */
import { runAccuracy } from "./accuracy-core"

const quiet = process.argv.includes("--quiet")
const i = process.argv.indexOf("--concurrency")
const concurrency = i >= 0 ? Number(process.argv[i + 1]) : 3
try {
  const r = await runAccuracy({ concurrency, log: quiet ? undefined : (s) => console.log(s) })
  console.log("\n" + r.markdown + "\n")
  console.log(r.summary)
} catch (e) {
  console.error(String(e))
  process.exit(2)
}
