/**
 * A zone_hygiene monitor against the DNS lab (real NSD and Unbound on loopback): the first run
 * audits a clean zone and is ok; then the test breaks the zone's DNS (its own NSD goes away while
 * the root and the resolver keep answering) and the next run fails, opening a monitor alert.
 * Then the whole lab goes away, the service's own resolver with it: runs are no longer made
 * (logged 502, no result) and the open alert stays as it was (docs/monitors.md).
 */
import { expect, test } from "bun:test"
import { Option } from "effect"
import { parseResolverList } from "../../src/platform/Config"
import { type Lab, startLab, type ZoneSpec } from "../dns/lab"
import { until } from "../support/process"
import { startService } from "../support/service"

test("zone_hygiene: ok on the clean zone, not ok once the test breaks its DNS, nothing recorded once the resolver goes", async () => {
  const n = 1 + Math.floor(Math.random() * 250)
  const a = (h: number) => `127.53.${n}.${h}`
  const zone: ZoneSpec = {
    name: "kept.lab", algorithm: "ED25519", nsec3: { salt: "-", iterations: 0 }, caa: true, ns: [a(5), a(6)], ownServer: true,
    records: ["www A 127.0.0.10", "@ MX 10 mail", "mail A 127.0.0.11"]
  }
  let lab: Lab | undefined = await startLab({ n, zones: [zone] })
  const svc = await startService({
    monitorMinIntervalS: 1,
    alertEvalIntervalMs: 3_600_000,
    dnsResolvers: parseResolverList(lab.resolver),
    dnsAuthPort: lab.port,
    dnsTimeoutMs: 1000,
    zoneAuditCacheTtlS: 0, // every run audits afresh (the cache would serve the pre-break report)
    dnssecTrustAnchors: Option.some(lab.anchorsFile)
  })
  try {
    const { key } = await svc.newKey("developer")
    const r = await svc.call("/v1/monitors", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "zone", kind: "zone_hygiene", target: "kept.lab", interval_seconds: 10,
        conditions: { grade_below: "B", new_finding_severity_at_least: "high" }, cooldown_minutes: 0
      })
    })
    expect(r.status).toBe(201)
    const { monitor } = await r.json() as any
    const results = async () => ((await (await svc.call(`/v1/monitors/${monitor.id}/results`, { key })).json()) as any).results

    const first = await until(async () => (await results())[0], "the first zone run", 30_000)
    expect(first).toMatchObject({ ok: true, report: { hygiene_grade: expect.stringMatching(/^[AB]$/) } })

    await lab.stopZone("kept.lab")
    const second = await until(async () => {
      const rs = await results()
      return rs.length >= 2 ? rs[0] : undefined
    }, "the run after the break", 40_000)
    expect(second.ok).toBe(false)
    // the audit still answers, with the broken zone's findings (its servers do not answer)
    expect(second.summary).toMatch(/new (critical|high) finding/)
    const m = ((await (await svc.call(`/v1/monitors/${monitor.id}`, { key })).json()) as any).monitor
    const openAlert = String(m.open_alert_id)
    expect(m).toMatchObject({ status: "down", open_alert_id: expect.stringMatching(/^alert_/) })

    // The service's own resolver goes away too: the next run cannot be made and says nothing.
    await lab.stop()
    lab = undefined
    const runs = async () => {
      await svc.flushLog()
      return svc.sql<{ status: number; ts: number }>("SELECT status, ts FROM request_log WHERE operation = 'monitorRun' AND path = ? ORDER BY id", [`/v1/monitors/${monitor.id}`])
    }
    const skipped = await until(async () => (await runs()).find((x) => x.status === 502), "a run without the resolver", 40_000)
    // A run that began before it (its root check may have been answered from the few seconds'
    // cache while the lab still ran) may have stored a result; none that began after it did.
    await Bun.sleep(1000)
    expect((await results()).every((x: any) => Date.parse(x.started_at) < Number(skipped.ts))).toBe(true)
    const after = ((await (await svc.call(`/v1/monitors/${monitor.id}`, { key })).json()) as any).monitor
    expect(after.open_alert_id).toBe(openAlert)
    const alerts = ((await (await svc.call(`/v1/alerts/history?monitor_id=${monitor.id}`, { key })).json()) as any).alerts
    expect(alerts.map((x: any) => x.status)).toEqual(["pending"])
  } finally {
    await svc.stop()
    await lab?.stop()
  }
}, 180_000)
