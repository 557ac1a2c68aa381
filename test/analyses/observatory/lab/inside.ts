/**
 * Runs inside the network namespace the test made (names from the bind-mounted /etc/hosts for the
 * Observatory, from a loopback DNS server for the service): starts the sites, grades each with
 * the service and with the Observatory's scanner, writes both to LAB_OUT.
 * LAB_HOSTS limits the hosts; LAB_REPEAT scans each that many times (the bench).
 */
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { HttpSecurityGrade } from "../../../../src/analyses/observatory/HttpSecurityGrade"
import { AppConfig } from "../../../../src/platform/Config"
import { DnsResolver } from "../../../../src/adapters/dns/DnsResolver"
import { HttpProbe, type HttpProbeShape } from "../../../../src/adapters/probe/HttpProbe"
import { startDnsServer } from "../../../support/dnsServer"
import { makePki } from "../../../support/tls"
import { startSites } from "./servers"
import { OTHER_HOSTS, SITES } from "./sites"

const ipOf = (ip: number | undefined) => `127.0.0.${ip ?? 1}`
const pki = makePki()
const names = [...SITES.filter((s) => (s.ip ?? 1) !== 4).map((s) => s.host), ...OTHER_HOSTS]
const good = pki.leaf(names)
const bad = pki.selfSigned(SITES.filter((s) => s.ip === 4).map((s) => s.host))
const sites = startSites(SITES, { good, bad })
const records: Record<string, { A: Array<string> }> = {}
for (const s of SITES) records[s.host] = { A: [ipOf(s.ip)] }
for (const h of OTHER_HOSTS) records[h] = { A: ["127.0.0.1"] }
const dns = await startDnsServer(records)

// LAB_TRACE (bench/observatory/phases.ts): every probe request and DNS lookup of each scan, timed in ms from the scan's start.
let trace: Array<Record<string, unknown>> = []
const traces: Array<Array<Record<string, unknown>>> = []
let scanT0 = 0
const at = () => Math.round((performance.now() - scanT0) * 10) / 10
const timed = (fetch: HttpProbeShape["fetch"]): HttpProbeShape["fetch"] => (req) => {
  const start = at()
  return Effect.tap(fetch(req), (o) => Effect.sync(() => trace.push({
    what: `${req.method ?? "GET"} ${req.url}`, start, end: at(), dnsMs: o.dnsMs, status: o.response?.status, ...o.response?.timings
  })))
}
const traced = process.env.LAB_TRACE
  ? Layer.effect(HttpProbe, Effect.map(HttpProbe, (p) => ({ fetch: timed(p.fetch), sharingLookups: Effect.map(p.sharingLookups, timed) })))
    .pipe(Layer.provideMerge(HttpProbe.Live))
  : HttpProbe.Live
const tracedDns = process.env.LAB_TRACE
  ? Layer.effect(DnsResolver, Effect.map(DnsResolver, (r) => ({
    ...r,
    lookupAddresses: (name: string) => {
      const start = at()
      return Effect.tap(r.lookupAddresses(name), () => Effect.sync(() => trace.push({ what: `dns ${name}`, start, end: at() })))
    }
  }))).pipe(Layer.provideMerge(DnsResolver.Live))
  : DnsResolver.Live

const runtime = ManagedRuntime.make(
  HttpSecurityGrade.Live.pipe(
    Layer.provideMerge(traced),
    Layer.provideMerge(tracedDns),
    Layer.provideMerge(AppConfig.make({
      allowPrivateTargets: true,
      dnsResolvers: [{ host: "127.0.0.1", port: dns.port }],
      extraCaCerts: Option.some(pki.caCertPath)
    }))
  )
)

const hosts = process.env.LAB_HOSTS ? process.env.LAB_HOSTS.split(",") : SITES.map((s) => s.host)
const repeat = Number(process.env.LAB_REPEAT ?? "1")

const ours: Record<string, unknown> = {}
const oursMs: Record<string, Array<number>> = {}
for (const host of hosts) {
  oursMs[host] = []
  for (let i = 0; i < repeat; i++) {
    trace = []
    traces.push(trace)
    const t0 = performance.now()
    scanT0 = t0
    ours[host] = await runtime.runPromise(
      Effect.flatMap(HttpSecurityGrade, (g) => g.grade(host)).pipe(
        Effect.catchAll((e) => Effect.succeed({ error: `${e._tag}: ${e.message}` }))
      )
    )
    oursMs[host].push(performance.now() - t0)
    if (process.env.LAB_TRACE) trace.push({ what: "scan done", start: 0, end: Math.round((performance.now() - t0) * 10) / 10 })
  }
}

const runner = join(import.meta.dir, "observatory-runner.mjs")
const args = hosts.flatMap((h) => Array.from({ length: repeat }, () => h))
// Asynchronously: the sites are served by this very process.
const child = Bun.spawn(["node", runner, ...args], {
  env: { ...process.env, NODE_EXTRA_CA_CERTS: pki.caCertPath },
  stdout: "pipe",
  stderr: "pipe"
})
const obs = { stdout: await new Response(child.stdout).text(), stderr: await new Response(child.stderr).text() }
await child.exited
const theirs: Record<string, unknown> = {}
const theirsMs: Record<string, Array<number>> = {}
for (const line of obs.stdout.split("\n").filter((l) => l.startsWith("{"))) {
  const r = JSON.parse(line) as { host: string; ms: number }
  theirs[r.host] = r
  ;(theirsMs[r.host] ??= []).push(r.ms)
}
writeFileSync(process.env.LAB_OUT!, JSON.stringify({ ours, theirs, oursMs, theirsMs, traces, stderr: obs.stderr.slice(0, 4000) }))
sites.stop()
await dns.close()
await runtime.dispose()
process.exit(0)
