/**
 * How many lookups in flight suit the lookalikes sweep (LOOKALIKES_DNS_CONCURRENCY): every
 * permutation of the lab domain resolved as the service resolves them (resolve.ts), through the
 * lab's Unbound behind a proxy that delays every answer DELAY_MS (default 50, a distant
 * resolver; 0 for a resolver on the same machine), at several concurrency levels, each run twice
 * in alternation. Prints the wall time, the names per second and this process's CPU time per
 * name (the proxy runs in a process of its own).
 *
 * Run inside a private network namespace (only loopback, nothing leaves; the proxy takes port 53):
 *   unshare -n sh -c 'ip link set lo up && ./node_modules/.bin/bun bench/lookalikes/concurrency.ts'
 */
import { Effect } from "effect"
import { makeResolver } from "../../src/adapters/dns/DnsResolver"
import { permutations } from "../../src/analyses/lookalikes/permutations"
import { resolveName } from "../../src/analyses/lookalikes/resolve"
import { DOMAIN, startLookalikeLab } from "../../test/analyses/lookalikes/lookalikeLab"
import { startProxyProcess } from "./proxyProcess"

const DELAY = Number(process.env.DELAY_MS ?? 50)
const LEVELS = (process.env.LEVELS ?? "16,32,64,128,256").split(",").map(Number)
const lab = await startLookalikeLab({ n: 77 })
const proxyAt = { host: lab.addr(60), port: 53 }
const proxy = await startProxyProcess(`${proxyAt.host}:53`, lab.resolver, DELAY)
const resolver = makeResolver([proxyAt], 2000)
const names = permutations(DOMAIN)!.permutations.map((p) => p.domain)

const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

const sweep = async (concurrency: number) => {
  const c0 = cpuMs()
  const t0 = performance.now()
  const out = await Effect.runPromise(Effect.forEach(names, (n) => resolveName(resolver, n), { concurrency }))
  const ms = performance.now() - t0
  const cpu = cpuMs() - c0
  const tally = (tag: string) => out.filter((r) => r._tag === tag).length
  return { ms, cpu, registered: tally("Registered"), unresolved: tally("Unresolved") }
}

console.log(`${names.length} permutations of ${DOMAIN}, every answer delayed ${DELAY} ms`)
await sweep(64) // warm-up (JIT, resolver caches)
console.log("concurrency | wall ms | names/s | service CPU µs per name | registered | unresolved")
for (let round = 0; round < 2; round++) {
  for (const c of LEVELS) {
    const r = await sweep(c)
    console.log(`${c} | ${Math.round(r.ms)} | ${Math.round((names.length / r.ms) * 1000)} | ${Math.round((r.cpu * 1000) / names.length)} | ${r.registered} | ${r.unresolved}`)
  }
}
proxy.stop()
await lab.stop()
process.exit(0)
