/**
 * WAF detection wall time against a local replica, next to wafw00f on the same target in the
 * same run. The replica answers like Cloudflare (headers, cookies) and blocks attack-looking
 * requests with Cloudflare's 1020 page, the way a Cloudflare zone with WAF rules does.
 *
 *   bun bench/waf/run.ts [--runs 20] [--no-accuracy] [--table]
 *
 * Then, in the same run, per-vendor precision and recall of domain-intel and `wafw00f -a` over
 * the replica corpus (bench/waf/accuracy-core.ts): the summary, and the per-vendor table with --table.
 *
 * Needs the Debian package wafw00f (/usr/bin/wafw00f). Only loopback is contacted.
 */
import { existsSync } from "node:fs"
import { startService } from "../../test/support/service"
import { runAccuracy } from "./accuracy-core"

const arg = (n: string, d: string) => {
  const i = process.argv.indexOf(`--${n}`)
  return i >= 0 ? process.argv[i + 1] : d
}
const runs = Number(arg("runs", "20"))
const WAFW00F = "/usr/bin/wafw00f"
if (!existsSync(WAFW00F)) {
  console.error("wafw00f not found at /usr/bin/wafw00f: apt-get install wafw00f")
  process.exit(2)
}

const cfHeaders = () => ({
  server: "cloudflare",
  "cf-ray": "8a1b2c3d4e5f6789-FRA",
  "cf-cache-status": "DYNAMIC",
  "set-cookie": "__cf_bm=AbC.1700000000-1.0.1.1-xyz; path=/; HttpOnly; Secure; SameSite=None",
  "content-type": "text/html; charset=UTF-8"
})
const attackLike = (req: Request) => {
  const u = decodeURIComponent(new URL(req.url).search + new URL(req.url).pathname)
  const ua = req.headers.get("user-agent") ?? ""
  return /<script|union\s+select|'\s*or\s*'|\.\.\/|etc\/passwd|\(\)\s*\{|nikto|sqlmap|<\?php|xp_cmdshell/i.test(u + " " + ua)
}
const replica = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    if (attackLike(req)) return new Response("error code: 1020", { status: 403, headers: cfHeaders() })
    const path = new URL(req.url).pathname
    if (path !== "/") return new Response("not found", { status: 404, headers: cfHeaders() })
    return new Response("<html><head><title>Shop</title></head><body>hello</body></html>", { headers: cfHeaders() })
  }
})

const svc = await startService()
const { key, orgName } = await svc.newKey("developer")
const token = await svc.auditToken(orgName, "127.0.0.1")
const target = `http://127.0.0.1:${replica.port}/`

const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const time = async (f: () => Promise<unknown>) => {
  const t0 = performance.now()
  await f()
  return performance.now() - t0
}

// Warm-up (JIT, first DB access).
await svc.call(`/v1/domain/waf?domain=${encodeURIComponent(target)}`, { key })

const passive: Array<number> = []
const active: Array<number> = []
let passiveBody: any, activeBody: any
for (let i = 0; i < runs; i++) {
  passive.push(await time(async () => {
    passiveBody = await (await svc.call(`/v1/domain/waf?domain=${encodeURIComponent(target)}`, { key })).json()
  }))
  active.push(await time(async () => {
    activeBody = await (await svc.call(`/v1/domain/waf?domain=${encodeURIComponent(target)}&active_probe=true`, { key: token })).json()
  }))
}

const peer: Array<number> = []
let peerOut = ""
for (let i = 0; i < Math.min(runs, 10); i++) {
  peer.push(await time(async () => {
    // Asynchronous: the replica runs in this process and must keep answering.
    const proc = Bun.spawn([WAFW00F, target], { stdout: "pipe", stderr: "pipe" })
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
    await proc.exited
    peerOut = out + err
  }))
}
const plain = peerOut.replace(/\x1b\[[0-9;]*m/g, "")
const peerVerdict = plain.match(/is behind (.+?) WAF/)?.[1] ?? plain.match(/No WAF detected[^\n]*/)?.[0] ?? "no verdict"

console.log(`target: ${target} (Cloudflare replica blocking attack-like requests with error 1020)`)
console.log(`domain-intel passive: median ${median(passive).toFixed(1)} ms over ${runs} runs -> ${passiveBody.primaryProvider}, enforcement ${passiveBody.enforcement_signal}, block_category ${passiveBody.block_category}`)
console.log(`domain-intel active (5 canaries): median ${median(active).toFixed(1)} ms over ${runs} runs -> ${activeBody.primaryProvider}, enforcement ${activeBody.enforcement_signal}, probe ${activeBody.active_probe?.summary?.enforcement} (${activeBody.active_probe?.summary?.blocked}/5 blocked)`)
console.log(`wafw00f 2.2.0: median ${median(peer).toFixed(1)} ms over ${peer.length} runs -> ${peerVerdict}`)
await svc.stop()
replica.stop(true)

if (!process.argv.includes("--no-accuracy")) {
  const acc = await runAccuracy()
  if (process.argv.includes("--table")) console.log("\n" + acc.markdown + "\n")
  console.log(acc.summary)
}
