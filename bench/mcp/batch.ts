/**
 * MCP batch benchmark: a batch of 10 tools/call against targets that each take 100 ms to answer,
 * next to a single call against the same target, in the same run. Then the same ten calls from a
 * client on 2025-06-18 (no batches there): the official SDK client issuing 10 concurrent single
 * calls over streamable HTTP, next to one call.
 *
 *   bun bench/mcp/batch.ts [rounds=7]
 *
 * Targets are loopback only: an HTTP server that waits 100 ms before answering (security_headers)
 * and a DNS server that waits 100 ms before answering (dns_lookup).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as dgram from "node:dgram"
import * as packet from "dns-packet"
import { startService } from "../../test/support/service"

const DELAY_MS = 100
const rounds = Number(process.argv[2] ?? 7)

const http = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: async () => {
    await Bun.sleep(DELAY_MS)
    return new Response("ok", { headers: { "x-content-type-options": "nosniff" } })
  }
})

const udp = dgram.createSocket("udp4")
udp.on("message", (msg, rinfo) => {
  const q = packet.decode(msg)
  setTimeout(() => {
    const out = packet.encode({
      type: "response",
      id: q.id,
      flags: packet.RECURSION_AVAILABLE,
      questions: q.questions,
      answers: [{ name: q.questions![0].name, type: "A", class: "IN", ttl: 60, data: "127.0.0.1" }]
    } as any)
    udp.send(out, rinfo.port, rinfo.address)
  }, DELAY_MS)
})
await new Promise<void>((r) => udp.bind(0, "127.0.0.1", () => r()))

const svc = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: udp.address().port }], allowPrivateTargets: true })
const { key } = await svc.newKey("pro")

const post = async (body: unknown) => {
  const res = await svc.call("/v1/advanced/mcp", { method: "POST", key, headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  const json = (await res.json()) as any
  for (const r of Array.isArray(json) ? json : [json]) {
    if (r.error || r.result?.isError) throw new Error(`call failed: ${JSON.stringify(r).slice(0, 300)}`)
  }
  return json
}

const req = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })
const workloads: Record<string, (id: number) => unknown> = {
  security_headers: (id) => req(id, "security_headers", { url: `http://127.0.0.1:${http.port}/p${id}` }),
  dns_lookup: (id) => req(id, "dns_lookup", { domain: `n${id}.bench.test` })
}

const time = async (f: () => Promise<unknown>) => {
  const t0 = performance.now()
  await f()
  return performance.now() - t0
}
const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

// Warm-up: connections, JIT, key cache.
await post(workloads.security_headers(0))
await post(workloads.dns_lookup(0))

console.log(`MCP batch benchmark: targets answer after ${DELAY_MS} ms; ${rounds} rounds; median wall time per HTTP request`)
for (const [name, make] of Object.entries(workloads)) {
  const single: Array<number> = []
  const batch: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    single.push(await time(() => post(make(1))))
    batch.push(await time(() => post(Array.from({ length: 10 }, (_, i) => make(i + 1)))))
  }
  const s = median(single)
  const b = median(batch)
  console.log(`${name.padEnd(17)} 1 call: ${s.toFixed(1)} ms   batch of 10: ${b.toFixed(1)} ms   (${(b / s).toFixed(2)}x one call; sequential would be ~${(10 * s).toFixed(0)} ms)`)
}

// A 2025-06-18 client: the SDK offers its newest version; the pin makes it offer 2025-06-18.
const transport = new StreamableHTTPClientTransport(new URL(svc.baseUrl + "/v1/advanced/mcp"), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } }
})
const send = transport.send.bind(transport)
transport.send = (m, o) => send((m as any).method === "initialize" ? { ...m, params: { ...(m as any).params, protocolVersion: "2025-06-18" } } as typeof m : m, o)
const client = new Client({ name: "bench", version: "1.0.0" })
await client.connect(transport)
if (transport.protocolVersion !== "2025-06-18") throw new Error(`negotiated ${transport.protocolVersion}`)
await client.listTools()
const sdkCall = async (m: any) => {
  const r = (await client.callTool(m.params)) as any
  if (r.isError) throw new Error(`call failed: ${JSON.stringify(r).slice(0, 300)}`)
}
console.log(`\n2025-06-18 SDK client (no batches): 10 concurrent single calls (10 HTTP requests) next to one call`)
for (const [name, make] of Object.entries(workloads)) {
  await sdkCall(make(0))
  const single: Array<number> = []
  const concurrent: Array<number> = []
  for (let r = 0; r < rounds; r++) {
    single.push(await time(() => sdkCall(make(1))))
    concurrent.push(await time(() => Promise.all(Array.from({ length: 10 }, (_, i) => sdkCall(make(i + 1))))))
  }
  const s = median(single)
  const c = median(concurrent)
  console.log(`${name.padEnd(17)} 1 call: ${s.toFixed(1)} ms   10 concurrent: ${c.toFixed(1)} ms   (${(c / s).toFixed(2)}x one call)`)
}
await client.close()

await svc.stop()
http.stop(true)
udp.close()
