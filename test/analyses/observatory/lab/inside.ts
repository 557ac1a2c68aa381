/**
 * Runs inside the network namespace the test made (names from the bind-mounted /etc/hosts for the
 * Observatory, from a loopback DNS server for the service): starts the sites and the DNS server
 * in a process of their own (./sitesMain.ts), grades each site with the service (in this process)
 * and with the Observatory's scanner (a node process), writes both to LAB_OUT.
 * LAB_HOSTS limits the hosts; LAB_REPEAT scans each that many times (the bench).
 */
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { HttpSecurityGrade } from "../../../../src/analyses/observatory/HttpSecurityGrade"
import { AppConfig } from "../../../../src/platform/Config"
import { DnsResolver } from "../../../../src/adapters/dns/DnsResolver"
import { HttpProbe, type HttpProbeShape } from "../../../../src/adapters/probe/HttpProbe"
import { makePki } from "../../../support/tls"
import { OTHER_HOSTS, SITES } from "./sites"

const pki = makePki()
const names = [...SITES.filter((s) => (s.ip ?? 1) !== 4).map((s) => s.host), ...OTHER_HOSTS]
const tlsFile = join(dirname(process.env.LAB_OUT!), "lab-tls.json")
writeFileSync(tlsFile, JSON.stringify({ good: pki.leaf(names), bad: pki.selfSigned(SITES.filter((s) => s.ip === 4).map((s) => s.host)) }))
const sitesProcess = Bun.spawn([process.execPath, join(import.meta.dir, "sitesMain.ts")], {
  env: { ...process.env, LAB_TLS: tlsFile },
  stdin: "pipe",
  stdout: "pipe",
  stderr: "inherit"
})
/** Reads `stream` until `pattern` matches; its first group. The rest is drained, so a chatty child never blocks on a full pipe. */
const readUntil = async (stream: ReadableStream<Uint8Array>, pattern: RegExp, what: string) => {
  const reader = stream.getReader()
  let seen = ""
  for (;;) {
    const { done, value } = await reader.read()
    if (done) throw new Error(`${what} stopped: ${seen.slice(-2000)}`)
    seen += new TextDecoder().decode(value)
    const m = pattern.exec(seen)
    if (m) {
      void (async () => {
        while (!(await reader.read()).done) {}
      })()
      return m[1]
    }
  }
}
const dns = { port: Number(await readUntil(sitesProcess.stdout, /ready (\d+)/, "the lab's sites")) }

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
// LAB_AS_USED (bench/observatory/run.ts): each tool as its users run it. The service is started
// from this checkout (`serve`, its own process) and asked over HTTP with a key, as a client would;
// the Observatory's command line, src/scan.js, runs once per scan, as its users run it.
const asUsed: { oursApiMs: Record<string, Array<number>>; theirsCliMs: Record<string, Array<number>> } = { oursApiMs: {}, theirsCliMs: {} }
if (process.env.LAB_AS_USED) {
  const root = join(import.meta.dir, "..", "..", "..", "..")
  const state = join(dirname(process.env.LAB_OUT!), "service.db")
  const service = Bun.spawn([process.execPath, join(root, "src", "main.ts"), "serve"], {
    cwd: root,
    env: {
      ...process.env, PORT: "0", HOST: "127.0.0.1", DATABASE_URL: `sqlite:${state}`, LOG_LEVEL: "info", LOG_ACCESS: "false",
      ALLOW_PRIVATE_TARGETS: "true", DNS_RESOLVERS: `127.0.0.1:${dns.port}`, NODE_EXTRA_CA_CERTS: pki.caCertPath
    },
    stdout: "pipe",
    stderr: "pipe"
  })
  try {
    const [key, port] = await Promise.all([
      readUntil(service.stdout, /^(di_\S+)$/m, "the service"),
      readUntil(service.stderr, /Listening on http:\/\/[^\s"]+:(\d+)/, "the service")
    ])
    const packageDir = dirname(dirname(require.resolve("@mdn/mdn-http-observatory/package.json")))
    const cli = join(packageDir, "mdn-http-observatory", "src", "scan.js")
    for (const host of hosts) {
      asUsed.oursApiMs[host] = []
      asUsed.theirsCliMs[host] = []
      for (let i = 0; i < repeat; i++) {
        let t0 = performance.now()
        const res = await fetch(`http://127.0.0.1:${port}/v1/security/headers?url=${encodeURIComponent(host)}`, { headers: { authorization: `Bearer ${key}` } })
        const body = (await res.json()) as { grade?: string }
        asUsed.oursApiMs[host].push(performance.now() - t0)
        if (res.status !== 200 || body.grade !== (ours[host] as { grade?: string }).grade) throw new Error(`the service answered ${res.status} ${JSON.stringify(body).slice(0, 300)}`)
        t0 = performance.now()
        const scan = Bun.spawn(["node", cli, host], { env: { ...process.env, NODE_EXTRA_CA_CERTS: pki.caCertPath }, stdout: "pipe", stderr: "pipe" })
        const out = await new Response(scan.stdout).text()
        await scan.exited
        asUsed.theirsCliMs[host].push(performance.now() - t0)
        if (JSON.parse(out).scan?.grade !== (theirs[host] as { grade?: string }).grade) throw new Error(`the Observatory's command line printed ${out.slice(0, 300)}`)
      }
    }
  } finally {
    // Also when a scan fails: no service is left running in the namespace.
    service.kill("SIGTERM")
    await service.exited
  }
}
writeFileSync(process.env.LAB_OUT!, JSON.stringify({ ours, theirs, oursMs, theirsMs, ...asUsed, traces, stderr: obs.stderr.slice(0, 4000) }))
sitesProcess.stdin.end()
await sitesProcess.exited
await runtime.dispose()
process.exit(0)
