/**
 * Detection accuracy on the provider replicas of the test suite (test/waf/replicas.ts), for
 * domain-intel (passive, one request) and wafw00f 2.2.0 on the same targets in the same run.
 * A verdict is correct when it names the replica's provider (or "no WAF" for plain origins).
 *
 *   bun bench/waf/accuracy.ts
 */
import { existsSync } from "node:fs"
import { startService } from "../../test/support/service"
import { LAYERED, REPLICAS } from "../../test/waf/replicas"

const WAFW00F = "/usr/bin/wafw00f"
if (!existsSync(WAFW00F)) {
  console.error("wafw00f not found at /usr/bin/wafw00f: apt-get install wafw00f")
  process.exit(2)
}
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const id = new URL(req.url).pathname.split("/")[2]
    const r = REPLICAS.find((x) => x.id === id) ?? LAYERED.find((x) => x.id === id)
    if (!r) return new Response("unknown", { status: 500 })
    const headers = new Headers()
    for (const [k, v] of r.headers) headers.append(k, v)
    return "status" in r ? new Response(r.body, { status: r.status, headers }) : new Response("<html>layered</html>", { headers })
  }
})
const svc = await startService()
const { key } = await svc.newKey("developer")

/** Words that identify a provider in wafw00f's naming. */
const keyword = (name: string) => name.split(/[ (/]/)[0].replace("Amazon", "CloudFront").replace("AWS", "AWS").toLowerCase()

let oursOk = 0, peerOk = 0, n = 0
const rows: Array<string> = []
const cases = [...REPLICAS.map((r) => ({ id: r.id, expect: r.expect })), ...LAYERED.map((l) => ({ id: l.id, expect: l.chain[0] }))]
for (const c of cases) {
  const url = `http://127.0.0.1:${server.port}/r/${c.id}`
  const ours = (await (await svc.call(`/v1/domain/waf?domain=${encodeURIComponent(url)}`, { key })).json()) as any
  const proc = Bun.spawn([WAFW00F, url], { stdout: "pipe", stderr: "pipe" })
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  await proc.exited
  const plain = (out + err).replace(/\x1b\[[0-9;]*m/g, "")
  const peer = plain.match(/is behind (.+?) WAF/)?.[1] ?? (/No WAF detected/.test(plain) ? null : plain.match(/seems to be behind a WAF/) ? "generic WAF" : null)
  const ok = (v: string | null) => c.expect === null ? v === null : v !== null && v.toLowerCase().includes(keyword(c.expect))
  n++
  if (ok(ours.primaryProvider)) oursOk++
  if (ok(peer)) peerOk++
  rows.push(`${c.id.padEnd(28)} expect ${String(c.expect).padEnd(32)} domain-intel ${ok(ours.primaryProvider) ? "ok " : "BAD"} ${String(ours.primaryProvider).padEnd(30)} wafw00f ${ok(peer) ? "ok " : "BAD"} ${peer}`)
}
console.log(rows.join("\n"))
console.log(`waf accuracy on ${n} replicas: domain-intel ${oursOk}/${n}, wafw00f 2.2.0 ${peerOk}/${n}`)
await svc.stop()
server.stop(true)
