/**
 * A zone_hygiene monitor against the DNS lab (real NSD and Unbound on loopback): the first run
 * audits the clean zone and is ok; then the test breaks DNS for it (the lab's nameservers and
 * resolver go away) and the next run fails, opening a monitor alert.
 */
import { expect, test } from "bun:test"
import { Option } from "effect"
import { parseResolverList } from "../../src/platform/Config"
import { type Lab, startLab } from "../dns/lab"
import { until } from "../support/process"
import { startService } from "../support/service"

test("zone_hygiene: ok on the clean zone, not ok once the test breaks its DNS", async () => {
  let lab: Lab | undefined = await startLab()
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
        name: "zone", kind: "zone_hygiene", target: "clean.lab", interval_seconds: 10,
        conditions: { grade_below: "B", new_finding_severity_at_least: "high" }, cooldown_minutes: 0
      })
    })
    expect(r.status).toBe(201)
    const { monitor } = await r.json() as any
    const results = async () => ((await (await svc.call(`/v1/monitors/${monitor.id}/results`, { key })).json()) as any).results

    const first = await until(async () => (await results())[0], "the first zone run", 30_000)
    expect(first).toMatchObject({ ok: true, report: { hygiene_grade: expect.stringMatching(/^[AB]$/) } })

    await lab.stop()
    lab = undefined
    const second = await until(async () => {
      const rs = await results()
      return rs.length >= 2 ? rs[0] : undefined
    }, "the run after the break", 40_000)
    expect(second.ok).toBe(false)
    // the audit still answers, with the broken zone's findings; or the check itself fails
    expect(second.summary).toMatch(/new (critical|high) finding|^check failed: /)
    const m = ((await (await svc.call(`/v1/monitors/${monitor.id}`, { key })).json()) as any).monitor
    expect(m).toMatchObject({ status: "down", open_alert_id: expect.stringMatching(/^alert_/) })
  } finally {
    await svc.stop()
    await lab?.stop()
  }
}, 120_000)
