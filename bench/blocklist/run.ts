/**
 * The blocklist check with 50 ms added to every DNS answer the service receives (a delay proxy in
 * front of the lab's Unbound; the world in a process of its own: bench/blocklist/world.ts), on
 * the four default IP lists and two domain lists:
 *  - an address (203.0.113.25: listed on two lists, so two TXT questions follow) and a domain
 *    (mailco.com: A, AAAA, MX, two MX hosts, five addresses, 22 (list, item) pairs), each first
 *    in a fresh service (the lists' test points not yet asked) and then warm, RUNS times;
 *  - side by side in the same run, the same questions asked one after another by a plain
 *    dns-packet client through the same delayed resolver (the way a sequential DNSBL client
 *    asks), with the IPv4 and domain test points (against the first call) and without them
 *    (against the warm calls): what a check without concurrency would take;
 *  - BURST different addresses at once against the warm service.
 *
 *   ./node_modules/.bin/bun bench/blocklist/run.ts          (RUNS=9, DELAY_MS=50, BURST=50)
 */
import { spawn } from "node:child_process"
import * as dgram from "node:dgram"
import { join } from "node:path"
import { createInterface } from "node:readline"
import * as packet from "dns-packet"
import { parseResolverList } from "../../src/platform/Config"
import { DEFAULT_DOMAIN_ZONES, DEFAULT_IP_ZONES, rev4, rev6 } from "../../test/analyses/blocklist/world"
import { startService } from "../../test/support/service"

const DELAY = Number(process.env.DELAY_MS ?? 50)
const RUNS = Number(process.env.RUNS ?? 9)
const BURST = Number(process.env.BURST ?? 50)

const child = spawn(process.execPath, [join(import.meta.dir, "world.ts")], { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, DELAY_MS: String(DELAY) } })
const world = await new Promise<{ resolver: string }>((resolve, reject) => {
  child.once("exit", (code) => reject(new Error(`the world exited (${code})`)))
  createInterface({ input: child.stdout! }).once("line", (line) => resolve(JSON.parse(line)))
})
const resolver = parseResolverList(world.resolver)[0]
const serve = () =>
  startService({ dnsResolvers: [resolver], dnsTimeoutMs: 2000, allowPrivateTargets: true, dnsblIpZones: DEFAULT_IP_ZONES, dnsblDomainZones: DEFAULT_DOMAIN_ZONES })

const timed = async (svc: Awaited<ReturnType<typeof serve>>, key: string, target: string) => {
  const t0 = performance.now()
  const res = await svc.call(`/v1/security/blocklist?target=${encodeURIComponent(target)}`, { key })
  const body: any = await res.json()
  if (res.status !== 200) throw new Error(`${target}: ${res.status} ${JSON.stringify(body)}`)
  return { ms: performance.now() - t0, body }
}

/** One question through the delayed resolver, as a plain client asks it. */
let id = 1
const ask = (name: string, type: "A" | "AAAA" | "MX" | "TXT") =>
  new Promise<packet.DecodedPacket>((resolve, reject) => {
    const s = dgram.createSocket("udp4")
    const t = setTimeout(() => { s.close(); reject(new Error(`no answer for ${name}`)) }, 5000)
    s.on("message", (m) => { clearTimeout(t); s.close(); resolve(packet.decode(m)) })
    s.send(packet.encode({ type: "query", id: (id = (id + 1) % 65536), flags: packet.RECURSION_DESIRED, questions: [{ type, name, class: "IN" }] }), resolver.port, resolver.host)
  })
const exchanges = (p: packet.DecodedPacket): Array<string> =>
  (p.answers ?? []).flatMap((r) => (r.type === "MX" ? [r.data.exchange] : []))

/** The questions of a check, one after another: the hosts, the test points, every (list, item), the TXT of listings. */
const sequential = async (report: any, testPoints: boolean) => {
  const t0 = performance.now()
  if (report.kind === "domain") {
    await ask(report.target, "A")
    await ask(report.target, "AAAA")
    for (const host of exchanges(await ask(report.target, "MX"))) {
      await ask(host, "A")
      await ask(host, "AAAA")
    }
  }
  const zones = new Set(report.lists.map((e: any) => e.zone))
  if (testPoints) for (const z of zones) for (const point of DEFAULT_DOMAIN_ZONES.includes(z as string) ? ["test", "invalid"] : ["2.0.0.127", "1.0.0.127"]) await ask(`${point}.${z}`, "A")
  // (the IPv6 test points are left out: a sequential client that asks IPv6 items rarely asks them)
  for (const e of report.lists) {
    const name = e.item.includes(":") ? `${rev6(e.item)}.${e.zone}` : /^[\d.]+$/.test(e.item) ? `${rev4(e.item)}.${e.zone}` : `${e.item}.${e.zone}`
    await ask(name, "A")
    if (e.status === "listed") await ask(name, "TXT")
  }
  return performance.now() - t0
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmt = (ms: number) => `${Math.round(ms)} ms`

console.log(`blocklist check, every DNS answer delayed ${DELAY} ms; IP lists ${DEFAULT_IP_ZONES.join(", ")}; domain lists ${DEFAULT_DOMAIN_ZONES.join(", ")}`)
for (const target of ["203.0.113.25", "mailco.com"]) {
  const svc = await serve()
  const key = (await svc.newKey("developer")).key
  const cold = await timed(svc, key, target)
  const warm: Array<number> = []
  for (let i = 0; i < RUNS; i++) warm.push((await timed(svc, key, target)).ms)
  const seqCold: Array<number> = []
  const seqWarm: Array<number> = []
  for (let i = 0; i < 3; i++) {
    seqCold.push(await sequential(cold.body, true))
    seqWarm.push(await sequential(cold.body, false))
  }
  console.log(`${target}: ${cold.body.lists.length} (list, item) pairs, ${cold.body.listed_count} listed`)
  console.log(`  first call (test points asked): ${fmt(cold.ms)}; one after another with the test points: ${fmt(median(seqCold))}; ratio ${(cold.ms / median(seqCold)).toFixed(2)}`)
  console.log(`  warm, ${RUNS} calls: median ${fmt(median(warm))} (min ${fmt(Math.min(...warm))}, max ${fmt(Math.max(...warm))}); one after another without them: ${fmt(median(seqWarm))}; ratio ${(median(warm) / median(seqWarm)).toFixed(2)}`)
  await svc.stop()
}
{
  const svc = await serve()
  const key = (await svc.newKey("enterprise")).key
  await timed(svc, key, "203.0.113.25")
  const targets = Array.from({ length: BURST }, (_, i) => `198.51.100.${i + 100}`)
  const t0 = performance.now()
  const each = await Promise.all(targets.map((t) => timed(svc, key, t).then((r) => r.ms)))
  console.log(`${BURST} addresses at once (warm test points): all answered in ${fmt(performance.now() - t0)}; per check median ${fmt(median(each))}, max ${fmt(Math.max(...each))}`)
  await svc.stop()
}
child.stdin!.end()
await new Promise((r) => child.once("exit", r))
process.exit(0)
