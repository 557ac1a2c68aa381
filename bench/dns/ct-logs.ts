/**
 * CT Logs: server time of a cached page against the first, uncached query (dominated by the
 * aggregators). Server time is the request log's latency (receipt to response, auth and quota
 * included). The local crt.sh holds 2,000 certificates (4,000 rows) and answers after
 * AGG_DELAY_MS (default 800 ms, a fast day for crt.sh). The two-source case adds a local Cert
 * Spotter listing the newest 1,000 of them (each with its DER, so the merge reads 1,000 serials)
 * in pages of 100, each page after CS_DELAY_MS (default 100 ms): 11 pages, asked while crt.sh is.
 *   ./node_modules/.bin/bun bench/dns/ct-logs.ts
 */
import { createHash } from "node:crypto"
import { makeRows, startCrtSh } from "../../test/ct/crtsh"
import { issueCert, type Issuance, startCertSpotter } from "../../test/ct/certspotter"
import { startService } from "../../test/support/service"

const AGG_DELAY = Number(process.env.AGG_DELAY_MS ?? 800)
const CS_DELAY = Number(process.env.CS_DELAY_MS ?? 100)
const PAGES = Number(process.env.PAGES ?? 200)
const crt = startCrtSh({ delayMs: AGG_DELAY })
const rows = makeRows("bench.example", 2000)
crt.set("bench.example", { kind: "rows", rows })
const pct = (xs: Array<number>, p: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))]

/**
 * Cert Spotter's issuances of the newest `n` certificates of `rows`: one real certificate
 * whose serial octets are rewritten per row (the merge reads serials, not signatures).
 */
const issuancesOf = (n: number): Array<Issuance> => {
  const template = issueCert(["bench.example", "www.bench.example"], { serial: "1000abcdef" })
  const at = template.der.indexOf(Buffer.from([0x02, 0x05, 0x10, 0x00, 0xab, 0xcd, 0xef]))
  const out: Array<Issuance> = []
  for (let i = 2000 - n; i < 2000; i++) {
    const row = rows[2 * i] as Record<string, string>
    const der = Buffer.from(template.der)
    der.writeUInt16BE(0x1000 + i, at + 2)
    out.push({
      id: String(9_000_000_000 + i), tbs_sha256: "00".repeat(32), cert_sha256: createHash("sha256").update(der).digest("hex"),
      pubkey_sha256: "00".repeat(32), not_before: `${row.not_before}Z`, not_after: `${row.not_after}Z`, revoked: false,
      dns_names: ["bench.example", "www.bench.example"],
      issuer: { name: "CN=R11,O=Let's Encrypt,C=US", friendly_name: "Let's Encrypt", pubkey_sha256: "00".repeat(32) },
      cert_der: der.toString("base64")
    })
  }
  return out
}

const measure = async (label: string, svc: Awaited<ReturnType<typeof startService>>) => {
  const key = (await svc.newKey("developer")).key
  const t0 = performance.now()
  const first = await svc.call("/v1/domain/ct-logs?domain=bench.example&limit=100", { key })
  const body = (await first.json()) as { total: number; sources: Array<{ name: string; status: string; certificates: number }> }
  const firstClient = performance.now() - t0
  await svc.flushLog()
  const missRow = await svc.sql<{ latency_ms: number }>("SELECT latency_ms FROM request_log WHERE cache = 'miss'")
  console.log(`${label}: ${body.total} certificates; sources ${body.sources.map((s) => `${s.name} ${s.status} ${s.certificates}`).join(", ")}`)
  console.log(`  first (uncached) query, limit 100: server ${missRow[0].latency_ms.toFixed(1)} ms, client ${firstClient.toFixed(1)} ms`)
  for (const limit of [20, 100]) {
    const clients: Array<number> = []
    const before = (await svc.sql<{ n: number }>("SELECT max(id) AS n FROM request_log"))[0].n
    for (let i = 0; i < PAGES; i++) {
      const offset = (i * limit) % 2000
      const s = performance.now()
      const r = await svc.call(`/v1/domain/ct-logs?domain=bench.example&limit=${limit}&offset=${offset}`, { key })
      await r.json()
      clients.push(performance.now() - s)
    }
    await svc.flushLog()
    const hits = (await svc.sql<{ latency_ms: number }>("SELECT latency_ms FROM request_log WHERE cache = 'hit' AND id > ?", [before])).map((r) => r.latency_ms).sort((a, b) => a - b)
    clients.sort((a, b) => a - b)
    console.log(`  cached pages of ${limit} (${hits.length}): server p50 ${pct(hits, 0.5).toFixed(3)} ms, p95 ${pct(hits, 0.95).toFixed(3)} ms; client p50 ${pct(clients, 0.5).toFixed(3)} ms`)
  }
  await svc.stop()
}

console.log(`crt.sh delay ${AGG_DELAY} ms, 2000 certificates (4000 rows); Cert Spotter ${CS_DELAY} ms a page`)
await measure("crt.sh alone", await startService({ ctAggregatorUrl: crt.url }))
const cs = startCertSpotter({ pageSize: 100, delayMs: CS_DELAY })
cs.set("bench.example", { kind: "issuances", issuances: issuancesOf(1000) })
await measure("crt.sh and Cert Spotter", await startService({ ctSources: ["crtsh", "certspotter"], ctAggregatorUrl: crt.url, ctCertspotterUrl: cs.url }))
console.log(`aggregator queries: crt.sh ${crt.queries.get("bench.example")}, Cert Spotter ${cs.queries.get("bench.example")}`)
await cs.stop()
await crt.stop()
process.exit(0)
