import { describe, expect, test } from "bun:test"
import * as Sketch from "../../src/product/metering/sketch"
import { evaluate, firstRunAt, nextDue, transition, uptimeReport, uptimeWindow } from "../../src/product/monitors/model/analyze"
import { minIntervalS } from "../../src/product/monitors/kindTable"

const NOW = Date.UTC(2026, 4, 20, 9, 0, 0)

describe("conditions per kind", () => {
  test("http_check: status, error, total time", () => {
    const r = (code: number | null, ms: number, error: string | null = null) =>
      ({ status: { code, ok: code !== null && code < 300 }, timings: { total_ms: ms }, error, error_detail: null })
    const c = { status_not_ok: true, error: true, total_ms_gt: 500 }
    expect(evaluate("http_check", c, r(200, 20), null, NOW).ok).toBe(true)
    expect(evaluate("http_check", c, r(503, 20), null, NOW)).toMatchObject({ ok: false, summary: "status 503 is not 2xx" })
    expect(evaluate("http_check", c, r(200, 900), null, NOW)).toMatchObject({ ok: false, summary: "total 900 ms > 500 ms" })
    expect(evaluate("http_check", c, r(null, 3, "connection_refused"), null, NOW)).toMatchObject({ ok: false, summary: "error: connection_refused" })
    expect(evaluate("http_check", { total_ms_gt: 500 }, r(503, 20), null, NOW).ok).toBe(true) // only named conditions count
  })
  test("certificate: days left and validity", () => {
    const r = { valid: true, days_left: 3, expired: false, not_yet_valid: false, chain_error: null, hostname_error: null, certificate: { issuer: "CA" } }
    expect(evaluate("certificate", { days_left_lt: 14 }, r, null, NOW)).toMatchObject({ ok: false, summary: "3 days left < 14" })
    expect(evaluate("certificate", { days_left_lt: 2, invalid: true }, r, null, NOW).ok).toBe(true)
    expect(evaluate("certificate", { invalid: true }, { ...r, valid: false, expired: true }, null, NOW).summary).toBe("certificate invalid: expired")
  })
  test("ct_new_certificate: the first run sets the baseline; later runs see new ids and odd issuers", () => {
    // Entries as the CT report gives them: crt.sh IDs in `ids`, the sources that listed each.
    const e = (id: number, issuer = "R3 Let's Encrypt") =>
      ({ id, ids: [id], issuer, common_name: "a.example", not_before: null, not_after: "2030-01-01T00:00:00Z", certspotter_id: null, sources: ["crtsh"] })
    const report = (entries: ReadonlyArray<unknown>) => ({ entries, sources: [{ name: "crtsh", status: "ok" }] })
    const c = { new_certificate: true, issuer_not_in: ["Let's Encrypt"] }
    const first = evaluate("ct_new_certificate", c, report([e(1), e(2)]), null, NOW)
    expect(first).toMatchObject({ ok: true, baseline: { max_ct_id: 2 } })
    const same = evaluate("ct_new_certificate", c, report([e(1), e(2)]), first.baseline, NOW)
    expect(same.ok).toBe(true)
    const more = evaluate("ct_new_certificate", { new_certificate: true }, report([e(1), e(2), e(3)]), first.baseline, NOW)
    expect(more).toMatchObject({ ok: false, summary: "1 new certificate in CT logs", baseline: { max_ct_id: 3 } })
    const odd = evaluate("ct_new_certificate", { issuer_not_in: ["Let's Encrypt"] }, report([e(1), e(2), e(4, "Evil CA")]), first.baseline, NOW)
    expect(odd).toMatchObject({ ok: false, summary: "issuer not allowed: Evil CA" })
    expect(evaluate("ct_new_certificate", { issuer_not_in: ["Evil"] }, report([e(1)]), null, NOW).ok).toBe(false)
  })
  test("ct_new_certificate: a second source that starts answering sets its own baseline and marks nothing new", () => {
    const crt = (id: number) =>
      ({ id, ids: [id], issuer: "CA", common_name: "a.example", not_before: null, not_after: null, certspotter_id: null, sources: ["crtsh"] })
    const both = (id: number, cs: string) => ({ ...crt(id), certspotter_id: cs, sources: ["crtsh", "certspotter"] })
    const only = (cs: string) => ({ ...crt(Number(cs)), ids: [], certspotter_id: cs, sources: ["certspotter"] })
    const first = evaluate("ct_new_certificate", { new_certificate: true }, { entries: [crt(5)], sources: [{ name: "crtsh", status: "ok" }, { name: "certspotter", status: "error" }] }, null, NOW)
    expect(first.baseline).toEqual({ max_ct_id: 5, max_certspotter_id: undefined })
    const ok2 = [{ name: "crtsh", status: "ok" }, { name: "certspotter", status: "ok" }]
    const second = evaluate("ct_new_certificate", { new_certificate: true }, { entries: [both(5, "900")], sources: ok2 }, first.baseline, NOW)
    expect(second).toMatchObject({ ok: true, baseline: { max_ct_id: 5, max_certspotter_id: 900 } })
    const third = evaluate("ct_new_certificate", { new_certificate: true }, { entries: [both(5, "900"), only("901")], sources: ok2 }, second.baseline, NOW)
    expect(third).toMatchObject({ ok: false, summary: "1 new certificate in CT logs", baseline: { max_ct_id: 5, max_certspotter_id: 901 } })
  })
  test("zone_hygiene: grade and new findings", () => {
    const f = (check: string, severity: string) => ({ check, severity, message: `${check} ${severity}` })
    const r1 = { hygiene_grade: "B", hygiene_score: 85, findings: [f("caa", "low")] }
    const first = evaluate("zone_hygiene", { grade_below: "C", new_finding_severity_at_least: "high" }, r1, null, NOW)
    expect(first.ok).toBe(true)
    const r2 = { hygiene_grade: "D", hygiene_score: 60, findings: [f("caa", "low"), f("zone_transfer", "critical")] }
    expect(evaluate("zone_hygiene", { grade_below: "C" }, r2, first.baseline, NOW)).toMatchObject({ ok: false, summary: "grade D below C" })
    expect(evaluate("zone_hygiene", { new_finding_severity_at_least: "high" }, r2, first.baseline, NOW))
      .toMatchObject({ ok: false, summary: "new critical finding: zone_transfer critical" })
    expect(evaluate("zone_hygiene", { new_finding_severity_at_least: "critical" }, r1, first.baseline, NOW).ok).toBe(true)
  })
  test("waf: provider changed and absent", () => {
    const r = (p: string | null) => ({ provider_present: p !== null, primaryProvider: p, providers: p ? [{ name: p }] : [] })
    const first = evaluate("waf", { provider_changed: true }, r("Cloudflare"), null, NOW)
    expect(first).toMatchObject({ ok: true, baseline: { provider: "Cloudflare" } })
    expect(evaluate("waf", { provider_changed: true }, r("Akamai"), first.baseline, NOW).summary).toBe("provider changed from Cloudflare to Akamai")
    expect(evaluate("waf", { provider_absent: true }, r(null), first.baseline, NOW).ok).toBe(false)
  })
})

describe("schedule and transitions", () => {
  test("interval floors (docs/operations/monitors.md, kinds): certificate, CT, zone, domain_expiry and dnssec at 10×", () => {
    expect(minIntervalS("http_check", 60)).toBe(60)
    expect(minIntervalS("waf", 60)).toBe(60)
    expect(minIntervalS("dns_records", 60)).toBe(60)
    expect(minIntervalS("zone_hygiene", 60)).toBe(600)
    expect(minIntervalS("domain_expiry", 60)).toBe(600)
    expect(minIntervalS("dnssec", 60)).toBe(600)
    expect(minIntervalS("certificate", 1)).toBe(10)
  })
  test("first runs within min(interval, 1 min); on-time claims keep the cadence; late ones keep the phase", () => {
    expect(firstRunAt(NOW, 600_000, 0.999)).toBeLessThan(NOW + 60_000)
    expect(firstRunAt(NOW, 10_000, 0.5)).toBe(NOW + 5_000)
    expect(nextDue(NOW, NOW + 200, 60_000)).toBe(NOW + 60_000)
    expect(nextDue(NOW, NOW + 59_999, 60_000)).toBe(NOW + 60_000)
    // an hour late: one run now, the next on the monitor's own cadence after now (not 60 replays)
    expect(nextDue(NOW, NOW + 3_600_000 + 5_000, 60_000)).toBe(NOW + 3_660_000)
  })
  test("transition", () => {
    const base = { ok: false, consecutiveFailures: 1, failuresBeforeAlert: 1, incidentOpen: false, lastAlertAt: null, cooldownMinutes: 15, now: NOW }
    expect(transition(base)).toBe("open")
    expect(transition({ ...base, failuresBeforeAlert: 2 })).toBe("none")
    expect(transition({ ...base, incidentOpen: true })).toBe("none")
    expect(transition({ ...base, lastAlertAt: NOW - 60_000 })).toBe("none")
    expect(transition({ ...base, lastAlertAt: NOW - 15 * 60_000 })).toBe("open")
    expect(transition({ ...base, ok: true, incidentOpen: true })).toBe("recover")
    expect(transition({ ...base, ok: true })).toBe("none")
  })
})

describe("uptime", () => {
  test("from daily rollups and incidents: percentage, incidents oldest first, percentiles from the sketches", () => {
    const day = (ok: number, bad: number, ms: ReadonlyArray<number>) => ({ runs: ok + bad, ok_runs: ok, sketch: Sketch.fromValues(ms) })
    const report = uptimeReport("7d", [day(2, 1, [10, 100, 200]), day(2, 1, [20, 30, 50])], [
      { started_at: NOW + 300_000, ended_at: null },
      { started_at: NOW + 60_000, ended_at: NOW + 180_000 }
    ])
    expect(report).toMatchObject({
      period: "7d",
      runs: 6,
      ok_runs: 4,
      uptime_percentage: 66.67,
      incidents: [
        { started_at: new Date(NOW + 60_000).toISOString(), ended_at: new Date(NOW + 180_000).toISOString() },
        { started_at: new Date(NOW + 300_000).toISOString(), ended_at: null }
      ]
    })
    // rank ⌊q·(n−1)⌋ of 10, 20, 30, 50, 100, 200: p50 30, p95 100 (the sketch's 1%, then rounded to 0.1 ms)
    expect(Math.abs(report.p50_ms! - 30) / 30).toBeLessThan(0.012)
    expect(Math.abs(report.p95_ms! - 100) / 100).toBeLessThan(0.012)
    expect(uptimeReport("current", [], [])).toEqual({ period: "current", runs: 0, ok_runs: 0, uptime_percentage: null, incidents: [], p50_ms: null, p95_ms: null })
  })
  test("periods are whole UTC days: today and the 6 or 29 before it; current is the month so far", () => {
    const now = Date.UTC(2026, 4, 20, 9, 30)
    expect(uptimeWindow("7d", now)).toEqual({ from: Date.UTC(2026, 4, 14), to: Date.UTC(2026, 4, 21) })
    expect(uptimeWindow("30d", now)).toEqual({ from: Date.UTC(2026, 3, 21), to: Date.UTC(2026, 4, 21) })
    expect(uptimeWindow("current", now)).toEqual({ from: Date.UTC(2026, 4, 1), to: Date.UTC(2026, 4, 21) })
  })
})
