/**
 * Lookalike domains side by side with Debian's dnstwist (20221213), in one run, on one lab world
 * with every DNS answer delayed DELAY_MS (default 50: a resolver at a realistic distance).
 *
 * The world: the lookalikes lab (test/analyses/lookalikes/lookalikeLab.ts), acmeshop.lab with its
 * planted permutations plus MORE (default 16) more (copies of the page, other pages, nothing;
 * some with MX): about thirty registered permutations across the fuzzers, without the hostile
 * sites (dnstwist reads a body without a bound: an endless one would hold it forever). Both
 * tools ask the same resolver: a delay proxy, in a process of its own, on port 53 of a lab
 * address (dnstwist's --nameservers takes addresses only); dnstwist's page fetches resolve through
 * it too (a mount namespace whose /etc/resolv.conf names it).
 *
 * Compared, alternately RUNS times (default 3): one REST call GET /v1/security/lookalikes (every
 * fuzzer, pages compared) against `dnstwist --registered --ssdeep -t 8` (every fuzzer of its own,
 * pages compared). Printed: each wall time, the medians and their ratio, what each found.
 *
 * Run inside a private network namespace (only loopback, nothing leaves; ports 53 and 80 free):
 *   unshare -n sh -c 'ip link set lo up && ./node_modules/.bin/bun bench/lookalikes/vs-dnstwist.ts'
 */
import { parseResolverList } from "../../src/platform/Config"
import { DOMAIN, morePlanted, PLANTED, runDnstwist, startLookalikeLab } from "../../test/analyses/lookalikes/lookalikeLab"
import { startService } from "../../test/support/service"
import { startProxyProcess } from "./proxyProcess"

const DELAY = Number(process.env.DELAY_MS ?? 50)
const RUNS = Number(process.env.RUNS ?? 3)
const MORE = Number(process.env.MORE ?? 16)
const n = 81
const lab = await startLookalikeLab({ n, hostile: false, forwarder: false, more: MORE })
const proxy = await startProxyProcess(`${lab.resolver53}:53`, lab.resolver, DELAY)
const svc = await startService({ dnsResolvers: parseResolverList(`${lab.resolver53}:53`), allowPrivateTargets: true })
const key = (await svc.newKey("developer")).key

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const ours = async () => {
  const t0 = performance.now()
  const res = await svc.call(`/v1/security/lookalikes?domain=${DOMAIN}`, { key })
  const body = (await res.json()) as any
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`)
  return { ms: performance.now() - t0, body }
}

const planted = [...PLANTED, ...morePlanted(MORE)]
console.log(`${DOMAIN}: ${planted.length} registered permutations planted (1 more whose zone answers SERVFAIL); every DNS answer delayed ${DELAY} ms`)
// Warm-up: the service's first call (JIT, the resolver's caches of the lab's delegations).
await ours()
const mine: Array<number> = []
const theirs: Array<number> = []
let last: any
let lastTheirs: ReadonlyArray<any> = []
for (let i = 0; i < RUNS; i++) {
  const a = await ours()
  mine.push(a.ms)
  last = a.body
  const b = await runDnstwist(lab, DOMAIN, ["--ssdeep", "-t", "8"])
  theirs.push(b.ms)
  lastTheirs = b.rows.filter((r) => r.fuzzer !== "*original")
  console.log(`run ${i + 1}: REST ${Math.round(a.ms)} ms (${a.body.permutations} permutations, ${a.body.lookalikes.length} registered; timings ${JSON.stringify(a.body.timings_ms)}) | dnstwist ${Math.round(b.ms)} ms (${lastTheirs.length} registered)`)
}
const m = median(mine)
const t = median(theirs)
console.log(`median: REST ${Math.round(m)} ms, dnstwist ${Math.round(t)} ms: ${(t / m).toFixed(1)}x faster`)
const found = new Set(last.lookalikes.map((l: any) => l.domain))
const missed = planted.filter((p) => !found.has(p.domain)).map((p) => p.domain)
const theirSet = new Set(lastTheirs.map((r) => r.domain))
console.log(`REST found ${found.size} of ${planted.length} planted${missed.length ? `; missed ${missed.join(", ")}` : ""}; dnstwist also lists ${[...theirSet].filter((d) => !found.has(d)).join(", ") || "nothing else"}; only REST: ${[...found].filter((d) => !theirSet.has(d)).join(", ") || "nothing"}`)
const scored = lastTheirs.filter((r) => r.ssdeep !== undefined)
const same = scored.filter((r) => last.lookalikes.find((l: any) => l.domain === r.domain)?.web_similarity === r.ssdeep).length
console.log(`similarity: dnstwist scored ${scored.length} pages; REST gives the same score for ${same}`)
await svc.stop()
proxy.stop()
await lab.stop()
process.exit(0)
