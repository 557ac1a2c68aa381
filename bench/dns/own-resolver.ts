/**
 * Own resolver health: how often the root is asked. REQUESTS concurrent Email Security requests
 * (distinct domains) against a loopback resolver that answers NXDOMAIN to everything (every one
 * must be 502), then against one that answers for the root and for the domains (MX, SPF, DMARC:
 * nothing negative at the domain, so the root must never be asked). Counts the root questions
 * the resolver received, and the wall time of the burst. The resolver runs in a child process
 * (./countingDnsChild.ts), as a real one would.
 *   ./node_modules/.bin/bun bench/dns/own-resolver.ts
 */
import { type Records, ROOT_RECORDS } from "../../test/support/dnsServer"
import { startService } from "../../test/support/service"

const REQUESTS = Number(process.env.REQUESTS ?? 100)
const domains = Array.from({ length: REQUESTS }, (_, i) => `d${i}.bench.test`)

const burst = async (port: number) => {
  const svc = await startService({ dnsResolvers: [{ host: "127.0.0.1", port }], dnsTimeoutMs: 1000, mtaStsTimeoutMs: 1000 })
  try {
    const key = (await svc.newKey("enterprise")).key
    const t0 = performance.now()
    const statuses = await Promise.all(domains.map(async (d) => (await svc.call(`/v1/security/email?domain=${d}`, { key })).status))
    const ms = performance.now() - t0
    const counts = new Map<number, number>()
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1)
    return { ms, statuses: [...counts].map(([s, n]) => `${n}x ${s}`).join(", ") }
  } finally {
    await svc.stop()
  }
}

/** The counting server in a child process: its port, and a way to read its questions. */
const startCounting = async (records: unknown) => {
  const child = Bun.spawn(["./node_modules/.bin/bun", "bench/dns/countingDnsChild.ts", JSON.stringify(records)], { stdin: "pipe", stdout: "pipe" })
  const reader = child.stdout.getReader()
  let buf = ""
  const line = async () => {
    while (!buf.includes("\n")) buf += new TextDecoder().decode((await reader.read()).value)
    const i = buf.indexOf("\n")
    const l = buf.slice(0, i)
    buf = buf.slice(i + 1)
    return l
  }
  const port = Number(await line())
  const queries = async (): Promise<Array<string>> => {
    child.stdin.write("q\n")
    child.stdin.flush()
    return JSON.parse(await line())
  }
  return { port, queries, stop: () => child.kill() }
}

const rootAsked = (qs: ReadonlyArray<string>) => qs.filter((q) => q === ". NS").length

const broken = await startCounting({})
const b = await burst(broken.port)
const bq = await broken.queries()
console.log(`NXDOMAIN to everything: ${REQUESTS} requests -> ${b.statuses} in ${b.ms.toFixed(0)} ms; root NS asked ${rootAsked(bq)} times, ${bq.length} questions in all`)
broken.stop()

const records: Records = { ...ROOT_RECORDS }
for (const d of domains) {
  records[d] = { MX: [{ preference: 10, exchange: `mx.${d}` }], TXT: ["v=spf1 -all"] }
  records[`_dmarc.${d}`] = { TXT: ["v=DMARC1; p=reject"] }
  records[`_mta-sts.${d}`] = { TXT: ["v=STSv1; id=1"] }
  records[`_smtp._tls.${d}`] = { TXT: ["v=TLSRPTv1; rua=mailto:t@example.net"] }
  records[`default._bimi.${d}`] = { TXT: ["v=BIMI1; l="] }
  records[`mx.${d}`] = { A: ["192.0.2.1"] }
}
const healthy = await startCounting(records)
const h = await burst(healthy.port)
const hq = await healthy.queries()
console.log(`healthy resolver, domains that answer: ${REQUESTS} requests -> ${h.statuses} in ${h.ms.toFixed(0)} ms; root NS asked ${rootAsked(hq)} times, ${hq.length} questions in all`)
healthy.stop()
process.exit(0)
