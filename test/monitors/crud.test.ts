/**
 * Monitor CRUD through real HTTP against the running service: kinds, targets and conditions
 * validated per kind, the interval floor, plan limits, the target guard, partial atomic PATCH,
 * isolation between organizations.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"

let svc: TestService
beforeAll(async () => {
  // No scheduler is involved in what these tests check (runs that happen go to closed ports).
  svc = await startService({ monitorMinIntervalS: 60 })
})
afterAll(() => svc.stop())

const send = (method: string, body: unknown, key: string): RequestInit & { key: string } => ({
  method,
  key,
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body)
})

const httpMonitor = {
  name: "site",
  kind: "http_check",
  target: "http://127.0.0.1:9/health",
  interval_seconds: 60,
  conditions: { status_not_ok: true, total_ms_gt: 2000 },
  channels: [{ type: "webhook", url: "https://hooks.example.com/m" }],
  enabled: true
}

describe("monitors CRUD", () => {
  test("create, get, list, patch, delete; the signing secret once", async () => {
    const { key } = await svc.newKey("free")
    let r = await svc.call("/v1/monitors", send("POST", httpMonitor, key))
    expect(r.status).toBe(201)
    const { monitor, signing_secret } = await r.json() as any
    expect(signing_secret).toMatch(/^whsec_/)
    expect(monitor).toMatchObject({
      ...httpMonitor,
      failures_before_alert: 1,
      cooldown_minutes: 15,
      status: "pending",
      consecutive_failures: 0,
      last_run_at: null,
      open_alert_id: null
    })
    expect(monitor.id).toMatch(/^mon_/)
    expect(Date.parse(monitor.next_run_at) - Date.parse(monitor.created_at)).toBeLessThanOrEqual(60_000)

    r = await svc.call(`/v1/monitors/${monitor.id}`, { key })
    expect(((await r.json()) as any).monitor).toEqual(monitor)
    r = await svc.call("/v1/monitors", { key })
    expect(((await r.json()) as any).monitors).toEqual([monitor])

    r = await svc.call(`/v1/monitors/${monitor.id}`, send("PATCH", { name: "renamed", enabled: false, failures_before_alert: 3 }, key))
    expect(r.status).toBe(200)
    const patched = ((await r.json()) as any).monitor
    expect(patched).toMatchObject({ name: "renamed", enabled: false, status: "paused", next_run_at: null, failures_before_alert: 3, target: httpMonitor.target })

    // defaults per kind when conditions are omitted
    r = await svc.call("/v1/monitors", send("POST", { name: "cert", kind: "certificate", target: "example.com", interval_seconds: 600 }, key))
    expect(r.status).toBe(201)
    const cert = ((await r.json()) as any).monitor
    expect(cert).toMatchObject({ target: "example.com:443", conditions: { days_left_lt: 14, invalid: true }, channels: [] })

    r = await svc.call(`/v1/monitors/${monitor.id}`, { key, method: "DELETE" })
    expect(r.status).toBe(204)
    expect((await svc.call(`/v1/monitors/${monitor.id}`, { key })).status).toBe(404)
    expect((await svc.call(`/v1/monitors/${monitor.id}/results`, { key })).status).toBe(404)
    expect((await svc.call(`/v1/monitors/${monitor.id}`, { key, method: "DELETE" })).status).toBe(404)
  })

  test("every kind's targets and conditions are checked; bad input is 400 and nothing is stored", async () => {
    const { key } = await svc.newKey("pro")
    const ok = [
      { kind: "http_check", target: "https://example.com/", interval_seconds: 60, conditions: { error: true } },
      { kind: "certificate", target: "example.com:8443", interval_seconds: 600, conditions: { days_left_lt: 30 } },
      { kind: "ct_new_certificate", target: "Example.COM", interval_seconds: 600, conditions: { new_certificate: true, issuer_not_in: ["Let's Encrypt"] } },
      { kind: "zone_hygiene", target: "example.com", interval_seconds: 600, conditions: { grade_below: "B", new_finding_severity_at_least: "high" } },
      { kind: "waf", target: "example.com", interval_seconds: 60, conditions: { provider_changed: true, provider_absent: true } },
      { kind: "domain_expiry", target: "Example.com.", interval_seconds: 600, conditions: { days_left_lt: 45 } },
      { kind: "dns_records", target: "www.example.com", interval_seconds: 60, conditions: { record_type: "AAAA", expected: ["2001:DB8::1"] } },
      { kind: "dnssec", target: "example.com", interval_seconds: 600, conditions: { status_not_secure: true, signature_expires_within_days: 5 } }
    ]
    for (const m of ok) {
      const r = await svc.call("/v1/monitors", send("POST", { name: m.kind, ...m }, key))
      expect({ kind: m.kind, status: r.status }).toEqual({ kind: m.kind, status: 201 })
    }
    const bad: Array<[unknown, string]> = [
      [{ kind: "dns_magic", target: "example.com", interval_seconds: 60 }, "kind"],
      [{ kind: "http_check", target: "example.com", interval_seconds: 60 }, "URL"],
      [{ kind: "http_check", target: "ftp://example.com/", interval_seconds: 60 }, "URL"],
      [{ kind: "certificate", target: "example.com:99999", interval_seconds: 600 }, "host[:port]"],
      [{ kind: "zone_hygiene", target: "not a domain", interval_seconds: 600 }, "domain"],
      [{ kind: "http_check", target: "https://example.com/", interval_seconds: 59 }, "at least 60"],
      [{ kind: "certificate", target: "example.com", interval_seconds: 599 }, "at least 600"],
      [{ kind: "zone_hygiene", target: "example.com", interval_seconds: 60 }, "at least 600"],
      [{ kind: "http_check", target: "https://example.com/", interval_seconds: 60, conditions: { days_left_lt: 3 } }, "days_left_lt"],
      [{ kind: "http_check", target: "https://example.com/", interval_seconds: 60, conditions: {} }, "no condition"],
      [{ kind: "zone_hygiene", target: "example.com", interval_seconds: 600, conditions: { grade_below: "E" } }, "grade_below"],
      [{ kind: "http_check", target: "https://example.com/", interval_seconds: 60, failures_before_alert: 0 }, "failures_before_alert"],
      [{ kind: "http_check", target: "https://example.com/", interval_seconds: 60, surprise: 1 }, "surprise"],
      // the third wave's kinds: their own targets, conditions and interval floors
      [{ kind: "domain_expiry", target: "example.com", interval_seconds: 599 }, "at least 600"],
      [{ kind: "dnssec", target: "example.com", interval_seconds: 60 }, "at least 600"],
      [{ kind: "dns_records", target: "www example com", interval_seconds: 60 }, "domain"],
      [{ kind: "dns_records", target: "192.0.2.1", interval_seconds: 60 }, "IP address"],
      [{ kind: "domain_expiry", target: "example.com", interval_seconds: 600, conditions: { grade_below: "B" } }, "grade_below"],
      [{ kind: "domain_expiry", target: "example.com", interval_seconds: 600, conditions: { days_left_lt: -1 } }, "days_left_lt"],
      [{ kind: "dns_records", target: "example.com", interval_seconds: 60, conditions: { record_type: "MX" } }, "changed: true or expected"],
      [{ kind: "dns_records", target: "example.com", interval_seconds: 60, conditions: { record_type: "ANY", changed: true } }, "record_type"],
      [{ kind: "dns_records", target: "example.com", interval_seconds: 60, conditions: { changed: true, expected: "1.2.3.4" } }, "expected"],
      [{ kind: "dnssec", target: "example.com", interval_seconds: 600, conditions: { signature_expires_within_days: 400 } }, "signature_expires_within_days"],
      [{ kind: "email_security", target: "example.com", interval_seconds: 60 }, "at least 600"],
      [{ kind: "email_security", target: "https://example.com/x", interval_seconds: 600 }, "path"],
      [{ kind: "email_security", target: "example.com", interval_seconds: 600, conditions: { grade_below: "A+" } }, "grade_below"],
      [{ kind: "tls", target: "example.com", interval_seconds: 60 }, "at least 600"],
      [{ kind: "tls", target: "example.com:99999", interval_seconds: 600 }, "host[:port]"],
      [{ kind: "tls", target: "example.com", interval_seconds: 600, conditions: { protocol_enabled: ["tls9"] } }, "protocol_enabled"],
      [{ kind: "something_else", target: "example.com", interval_seconds: 600 }, "kind"]
    ]
    for (const [body, hint] of bad) {
      const r = await svc.call("/v1/monitors", send("POST", { name: "x", ...(body as object) }, key))
      const json = await r.json() as any
      expect({ body, status: r.status, code: json.error?.code }).toEqual({ body, status: 400, code: "invalid_request" })
      expect(JSON.stringify(json.error)).toContain(hint)
    }
    const list = ((await (await svc.call("/v1/monitors", { key })).json()) as any).monitors
    expect(list.length).toBe(ok.length)
    expect(list.find((m: any) => m.kind === "domain_expiry").target).toBe("example.com")
    expect(list.find((m: any) => m.kind === "dns_records").conditions).toEqual({ record_type: "AAAA", expected: ["2001:DB8::1"] })

    // PATCH is checked against the monitor's own kind and is all-or-nothing
    const zone = list.find((m: any) => m.kind === "zone_hygiene")
    for (const patch of [{ conditions: { status_not_ok: true } }, { interval_seconds: 60 }, { name: "y", kind: "waf" }, {}, { name: "" }]) {
      const r = await svc.call(`/v1/monitors/${zone.id}`, send("PATCH", patch, key))
      expect({ patch, status: r.status }).toEqual({ patch, status: 400 })
    }
    expect(((await (await svc.call(`/v1/monitors/${zone.id}`, { key })).json()) as any).monitor).toEqual(zone)
  })

  test("plan limit on the number of monitors (free: 5) is 403 plan_forbidden", async () => {
    const { key } = await svc.newKey("free")
    for (let i = 0; i < 5; i++) {
      expect((await svc.call("/v1/monitors", send("POST", { ...httpMonitor, name: `m${i}` }, key))).status).toBe(201)
    }
    const r = await svc.call("/v1/monitors", send("POST", httpMonitor, key))
    expect(r.status).toBe(403)
    const body = await r.json() as any
    expect(body.error.code).toBe("plan_forbidden")
    expect(body.error.message).toContain("5 monitors")
  })

  test("creates sent together at the plan limit: exactly the limit is kept (the PostgreSQL case: test/multi/monitors.test.ts)", async () => {
    const { key } = await svc.newKey("free")
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      svc.call("/v1/monitors", send("POST", { ...httpMonitor, name: `c${i}` }, key)).then((r) => r.status)))
    expect(statuses.filter((s) => s === 201).length).toBe(5)
    expect(statuses.filter((s) => s === 403).length).toBe(15)
    expect(((await (await svc.call("/v1/monitors", { key })).json()) as any).monitors.length).toBe(5)
  })

  test("another organization's monitor is not found; the target guard refuses private targets", async () => {
    const a = await svc.newKey("developer")
    const b = await svc.newKey("developer")
    const { monitor } = await (await svc.call("/v1/monitors", send("POST", httpMonitor, a.key))).json() as any
    for (const [path, init] of [
      [`/v1/monitors/${monitor.id}`, { key: b.key }],
      [`/v1/monitors/${monitor.id}`, send("PATCH", { name: "x" }, b.key)],
      [`/v1/monitors/${monitor.id}`, { key: b.key, method: "DELETE" }],
      [`/v1/monitors/${monitor.id}/results`, { key: b.key }],
      [`/v1/monitors/${monitor.id}/uptime`, { key: b.key }],
      [`/v1/monitors/${monitor.id}/rotate-secret`, { key: b.key, method: "POST" }]
    ] as const) {
      expect((await svc.call(path, init)).status).toBe(404)
    }
    expect(((await (await svc.call("/v1/monitors", { key: b.key })).json()) as any).monitors).toEqual([])

    const strict = await startService({ allowPrivateTargets: false })
    try {
      const { key } = await strict.newKey("developer")
      for (const target of ["http://127.0.0.1:8080/", "http://localhost:8080/", "http://169.254.169.254/latest/meta-data/"]) {
        const r = await strict.call("/v1/monitors", send("POST", { ...httpMonitor, target }, key))
        expect({ target, status: r.status, code: ((await r.json()) as any).error.code }).toEqual({ target, status: 400, code: "target_forbidden" })
      }
      const r = await strict.call("/v1/monitors", send("POST", { name: "c", kind: "certificate", target: "127.0.0.1:443", interval_seconds: 600 }, key))
      expect(r.status).toBe(400)
      // name kinds: a cloud metadata name is refused whatever the kind; localhost (always loopback) for the DNS kinds
      for (const [kind, target] of [["dns_records", "metadata.google.internal"], ["domain_expiry", "metadata.google.internal"], ["dnssec", "metadata.google.internal"], ["dns_records", "localhost"], ["dnssec", "db.localhost"]]) {
        const r = await strict.call("/v1/monitors", send("POST", { name: "n", kind, target, interval_seconds: 600 }, key))
        expect({ kind, target, status: r.status, code: ((await r.json()) as any).error.code }).toEqual({ kind, target, status: 400, code: "target_forbidden" })
      }
    } finally {
      await strict.stop()
    }
  })
})
