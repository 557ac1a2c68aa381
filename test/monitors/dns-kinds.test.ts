/**
 * The dns_records and dnssec monitor kinds against the DNS lab (real NSD and Unbound on
 * loopback, zones signed by BIND's tools): a zone whose signatures end in two days and one
 * freshly signed, an unsigned zone; then the lab is replaced by one serving another address for
 * the watched name, and the dns_records monitor sees the change (alert), then recovers.
 */
import { expect, test } from "bun:test"
import { Option } from "effect"
import { parseResolverList } from "../../src/platform/Config"
import { type Lab, startLab, type ZoneSpec } from "../dns/lab"
import { until } from "../support/process"
import { startService } from "../support/service"

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, "").slice(0, 14)
const n = 100 + Math.floor(Math.random() * 100)
const a1 = `127.53.${n}.1`
const zones = (www: ReadonlyArray<string>): ReadonlyArray<ZoneSpec> => [
  { name: "watch.lab", algorithm: "ECDSAP256SHA256", ns: [a1], records: www.map((ip) => `www A ${ip}`) },
  {
    name: "ending.lab", algorithm: "ECDSAP256SHA256", ns: [a1],
    signWindow: { start: stamp(Date.now() - 86_400_000), end: stamp(Date.now() + 2 * 86_400_000 + 3_600_000) }
  },
  { name: "plain.lab", ns: [a1] }
]

const send = (body: unknown, key: string): RequestInit & { key: string } => ({
  method: "POST",
  key,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body)
})

test("dns_records: expected and changed answers; dnssec: secure, signatures ending, unsigned", async () => {
  let lab: Lab | undefined = await startLab({ n, zones: zones(["127.0.0.11", "127.0.0.10"]) })
  const svc = await startService({
    monitorMinIntervalS: 1,
    alertEvalIntervalMs: 3_600_000,
    dnsResolvers: parseResolverList(lab.resolver),
    dnsAuthPort: lab.port,
    dnsTimeoutMs: 1000,
    dnssecTrustAnchors: Option.some(lab.anchorsFile)
  })
  try {
    const { key } = await svc.newKey("developer")
    const create = async (body: Record<string, unknown>) => {
      const r = await svc.call("/v1/monitors", send({ interval_seconds: 10, cooldown_minutes: 0, ...body }, key))
      expect(r.status).toBe(201)
      return ((await r.json()) as any).monitor
    }
    const watched = await create({ name: "www", kind: "dns_records", target: "WWW.watch.lab.", interval_seconds: 1 })
    expect(watched).toMatchObject({ target: "www.watch.lab", conditions: { record_type: "A", changed: true } })
    const pinned = await create({ name: "pinned", kind: "dns_records", target: "www.watch.lab", interval_seconds: 1, conditions: { expected: ["127.0.0.10"] } })
    const mx = await create({ name: "mx", kind: "dns_records", target: "watch.lab", interval_seconds: 1, conditions: { record_type: "NS", expected: ["NS1.watch.lab."] } })
    const secure = await create({ name: "secure", kind: "dnssec", target: "watch.lab" })
    const ending = await create({ name: "ending", kind: "dnssec", target: "ending.lab", conditions: { signature_expires_within_days: 3 } })
    const plain = await create({ name: "plain", kind: "dnssec", target: "plain.lab", conditions: { status_not_secure: true } })
    const results = async (id: string) => ((await (await svc.call(`/v1/monitors/${id}/results`, { key })).json()) as any).results
    const first = (id: string) => until(async () => (await results(id))[0], `the first run of ${id}`, 40_000)

    expect(await first(watched.id)).toMatchObject({
      ok: true,
      summary: "A: 127.0.0.10, 127.0.0.11",
      report: { name: "www.watch.lab", record_type: "A", answer: ["127.0.0.10", "127.0.0.11"] }
    })
    const p = await first(pinned.id)
    expect(p.ok).toBe(false)
    expect(p.summary).toBe("A answer 127.0.0.10, 127.0.0.11 differs from expected 127.0.0.10")
    expect(await first(mx.id)).toMatchObject({ ok: true, report: { record_type: "NS", answer: ["ns1.watch.lab"] } })

    const s = await first(secure.id)
    expect(s).toMatchObject({ ok: true, report: { zone: "watch.lab", status: "secure" } })
    expect(s.report.apex_signatures.map((x: any) => x.type)).toEqual(["SOA", "DNSKEY", "NS"])
    expect(s.report.apex_signatures.every((x: any) => typeof x.expires_at === "string")).toBe(true)
    expect(s.report.days_left).toBeGreaterThan(3)
    const e = await first(ending.id)
    expect(e.ok).toBe(false)
    expect(e.report.status).toBe("secure")
    expect(e.report.days_left).toBeGreaterThan(1.9)
    expect(e.report.days_left).toBeLessThan(2.2)
    expect(e.summary).toMatch(/^apex signatures expire in 2(\.\d)? days \(20\d\d-/)
    const u = await first(plain.id)
    expect(u.ok).toBe(false)
    expect(u.summary).toMatch(/^DNSSEC insecure/)
    expect(u.report).toMatchObject({ status: "insecure", apex_signatures: [], earliest_expiration: null })

    // The name now points elsewhere: a new lab on the same addresses and port.
    const port = lab.port
    await lab.stop()
    lab = undefined
    lab = await startLab({ n, port, zones: zones(["127.0.0.20"]) })
    const changed = await until(async () => {
      const rs = await results(watched.id)
      return rs.filter((r: any) => r.report.answer?.[0] === "127.0.0.20").at(-1) // the oldest (results are newest first)
    }, "a run after the change", 40_000)
    expect(changed.ok).toBe(false)
    expect(changed.summary).toBe("A answer changed from 127.0.0.10, 127.0.0.11 to 127.0.0.20")
    // the next run sees the same new answer: ok again, the alert resolved as recovered
    const recovered = await until(async () => {
      const mon = ((await (await svc.call(`/v1/monitors/${watched.id}`, { key })).json()) as any).monitor
      return mon.status === "up" && mon.open_alert_id === null ? mon : undefined
    }, "the recovery", 20_000)
    expect(recovered.consecutive_failures).toBe(0)
    const alerts = ((await (await svc.call("/v1/alerts/history", { key })).json()) as any).alerts
    expect(alerts.filter((x: any) => x.monitor_id === watched.id).map((x: any) => [x.status, x.resolution_notes])).toEqual([["resolved", "recovered"]])
  } finally {
    await svc.stop()
    await lab?.stop()
  }
}, 150_000)
