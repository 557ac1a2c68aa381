/**
 * Alert rules and history through real HTTP against the running service (in-memory SQLite),
 * with the evaluator running every 100 ms on traffic the test sends.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"
import { until } from "../support/process"

let svc: TestService
beforeAll(async () => {
  svc = await startService({ alertEvalIntervalMs: 100, webhookRetryBaseMs: 50 })
})
afterAll(() => svc.stop())

const json = (method: string, body: unknown, key: string): RequestInit & { key: string } => ({
  method,
  key,
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body)
})

const validRule = {
  name: "errors over 5%",
  metric: "error_rate",
  operator: "gt",
  threshold_value: 5,
  window_minutes: 15,
  channels: [{ type: "email", address: "ops@example.com" }],
  cooldown_minutes: 30,
  enabled: true
}

describe("alert rules", () => {
  test("create, get, list, patch (partial), delete; developer plan label", async () => {
    const { key } = await svc.newKey("developer")
    let r = await svc.call("/v1/alerts/rules", json("POST", validRule, key))
    expect(r.status).toBe(201)
    const { rule } = await r.json() as any
    expect(rule).toMatchObject({ ...validRule, last_triggered_at: null })
    expect(rule.id).toMatch(/^rule_/)
    expect(rule.updated_at).toBe(rule.created_at)

    r = await svc.call(`/v1/alerts/rules/${rule.id}`, { key })
    expect(((await r.json()) as any).rule).toEqual(rule)
    r = await svc.call("/v1/alerts/rules", { key })
    expect(((await r.json()) as any).rules).toEqual([rule])

    await Bun.sleep(5)
    r = await svc.call(`/v1/alerts/rules/${rule.id}`, json("PATCH", { threshold_value: 7.5, enabled: false, cooldown_minutes: 5 }, key))
    expect(r.status).toBe(200)
    const patched = ((await r.json()) as any).rule
    expect(patched).toMatchObject({ ...validRule, threshold_value: 7.5, enabled: false, cooldown_minutes: 5, created_at: rule.created_at })
    expect(Date.parse(patched.updated_at)).toBeGreaterThan(Date.parse(rule.updated_at))

    r = await svc.call(`/v1/alerts/rules/${rule.id}`, json("PATCH", {
      channels: [{ type: "webhook", url: "https://hooks.example.com/x" }], name: "renamed", operator: "gte", window_minutes: 60
    }, key))
    expect(((await r.json()) as any).rule).toMatchObject({
      name: "renamed", operator: "gte", window_minutes: 60, threshold_value: 7.5, enabled: false,
      channels: [{ type: "webhook", url: "https://hooks.example.com/x" }]
    })

    r = await svc.call(`/v1/alerts/rules/${rule.id}`, { key, method: "DELETE" })
    expect(r.status).toBe(204)
    expect(await r.text()).toBe("")
    expect((await svc.call(`/v1/alerts/rules/${rule.id}`, { key })).status).toBe(404)
    expect((await svc.call(`/v1/alerts/rules/${rule.id}`, { key, method: "DELETE" })).status).toBe(404)

    const free = await svc.newKey("free")
    r = await svc.call("/v1/alerts/rules", json("POST", validRule, free.key))
    expect(r.status).toBe(403)
    expect(((await r.json()) as any).error.code).toBe("plan_forbidden")
  })

  test("PATCH is atomic: one invalid field and nothing changes", async () => {
    const { key } = await svc.newKey("developer")
    // a rule that cannot fire (error rate never exceeds 100%), so only PATCH could change it
    const { rule } = await (await svc.call("/v1/alerts/rules", json("POST", { ...validRule, threshold_value: 100 }, key))).json() as any
    const bad: Array<unknown> = [
      { threshold_value: 9, operator: "approximately" },
      { threshold_value: 9, enabled: "yes" },
      { threshold_value: 9, window_minutes: 0 },
      { threshold_value: 9, cooldown_minutes: -1 },
      { threshold_value: 9, channels: [{ type: "webhook", url: "ftp://x.example/" }] },
      { threshold_value: 9, channels: [{ type: "email", address: "not-an-address" }] },
      { threshold_value: 9, channels: [{ type: "sms", number: "123" }] },
      { threshold_value: 9, metric: "request_count" },
      { threshold_value: 9, unknown_field: 1 },
      { threshold_value: "9" },
      { threshold_value: null },
      {},
      [],
      "{not json"
    ]
    for (const body of bad) {
      const r = await svc.call(`/v1/alerts/rules/${rule.id}`, json("PATCH", body, key))
      expect([r.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)])
      const err = ((await r.json()) as any).error
      expect(["invalid_request", "target_forbidden"]).toContain(err.code)
    }
    // a webhook at a cloud metadata address is refused as a target
    const meta = await svc.call(`/v1/alerts/rules/${rule.id}`, json("PATCH", {
      threshold_value: 9, channels: [{ type: "webhook", url: "http://169.254.169.254/latest" }]
    }, key))
    expect(meta.status).toBe(400)
    expect(((await meta.json()) as any).error.code).toBe("target_forbidden")

    const after = ((await (await svc.call(`/v1/alerts/rules/${rule.id}`, { key })).json()) as any).rule
    expect(after).toEqual(rule)
  })

  test("create validation", async () => {
    const { key } = await svc.newKey("developer")
    for (const change of [
      { metric: "cpu" }, { operator: "eq" }, { threshold_value: "high" }, { window_minutes: 1441 }, { name: "" },
      { channels: "email" }, { window_minutes: 2.5 }
    ]) {
      const r = await svc.call("/v1/alerts/rules", json("POST", { ...validRule, ...change }, key))
      expect([r.status, JSON.stringify(change)]).toEqual([400, JSON.stringify(change)])
      expect(((await r.json()) as any).error.code).toBe("invalid_request")
    }
    const { name: _name, ...missingName } = validRule
    expect((await svc.call("/v1/alerts/rules", json("POST", missingName, key))).status).toBe(400)
    // defaults
    const r = await svc.call("/v1/alerts/rules", json("POST", {
      name: "n", metric: "request_count", operator: "gt", threshold_value: 1e9, window_minutes: 1
    }, key))
    expect(r.status).toBe(201)
    expect(((await r.json()) as any).rule).toMatchObject({ channels: [], cooldown_minutes: 15, enabled: true })
  })

  test("another organization's rules and alerts are not found", async () => {
    const a = await svc.newKey("developer")
    const b = await svc.newKey("developer")
    const { rule } = await (await svc.call("/v1/alerts/rules", json("POST", {
      ...validRule, metric: "request_count", operator: "gte", threshold_value: 1, window_minutes: 5, cooldown_minutes: 0
    }, a.key))).json() as any
    const alert = await until(async () => {
      const list = ((await (await svc.call(`/v1/alerts/history?rule_id=${rule.id}`, { key: a.key })).json()) as any).alerts
      return list[0]
    }, "an alert for org A")
    for (const [method, path, body] of [
      ["GET", `/v1/alerts/rules/${rule.id}`, undefined],
      ["PATCH", `/v1/alerts/rules/${rule.id}`, { enabled: false }],
      ["DELETE", `/v1/alerts/rules/${rule.id}`, undefined],
      ["POST", `/v1/alerts/history/${alert.id}/acknowledge`, undefined],
      ["POST", `/v1/alerts/history/${alert.id}/resolve`, { notes: "not mine" }]
    ] as const) {
      const r = await svc.call(path, body === undefined ? { method, key: b.key } : json(method, body, b.key))
      expect([method, path, r.status]).toEqual([method, path, 404])
      expect(((await r.json()) as any).error.code).toBe("not_found")
    }
    expect(((await (await svc.call("/v1/alerts/history", { key: b.key })).json()) as any).alerts).toEqual([])
    expect(((await (await svc.call("/v1/alerts/rules", { key: b.key })).json()) as any).rules).toEqual([])
    // A's rule untouched
    expect(((await (await svc.call(`/v1/alerts/rules/${rule.id}`, { key: a.key })).json()) as any).rule.enabled).toBe(true)
  })
})

describe("alert lifecycle through the evaluator", () => {
  test("trigger → acknowledge → resolve → 409; fires again when the condition recurs", async () => {
    const { key } = await svc.newKey("developer")
    // errors: 404s on an unknown rule id are 4xx responses of this organization. Every call the
    // test makes below (polls included) is a 200 that lowers the error rate, so the errors
    // outnumber them by far: the rate stays above the threshold however long a poll takes.
    for (let i = 0; i < 20; i++) await svc.call("/v1/alerts/rules/rule_nope", { key })
    for (let i = 0; i < 4; i++) await svc.call("/v1/alerts/rules", { key })
    const { rule } = await (await svc.call("/v1/alerts/rules", json("POST", {
      name: "errors", metric: "error_rate", operator: "gte", threshold_value: 25, window_minutes: 10, cooldown_minutes: 0,
      channels: []
    }, key))).json() as any

    const alert = await until(async () =>
      ((await (await svc.call(`/v1/alerts/history?rule_id=${rule.id}`, { key })).json()) as any).alerts[0], "the alert")
    expect(alert).toMatchObject({
      rule_id: rule.id, status: "pending", metric: "error_rate", threshold_value: 25,
      acknowledged_at: null, resolved_at: null, resolution_notes: null, time_to_resolution_seconds: null
    })
    expect(alert.observed_value).toBeGreaterThanOrEqual(25)
    // a few more evaluations: still exactly one alert (it is open)
    await Bun.sleep(350)
    expect(((await (await svc.call(`/v1/alerts/history?rule_id=${rule.id}`, { key })).json()) as any).alerts.length).toBe(1)
    expect(((await (await svc.call("/v1/alerts/history?status=pending", { key })).json()) as any).alerts.map((a: any) => a.id)).toEqual([alert.id])
    expect(((await (await svc.call("/v1/alerts/history?status=resolved", { key })).json()) as any).alerts).toEqual([])

    let r = await svc.call(`/v1/alerts/history/${alert.id}/acknowledge`, { key, method: "POST" })
    expect(r.status).toBe(200)
    const ack = await r.json() as any
    expect(ack.acknowledged).toBe(true)
    expect(ack.alert.status).toBe("acknowledged")
    expect(ack.alert.acknowledged_at).not.toBeNull()

    await Bun.sleep(20)
    r = await svc.call(`/v1/alerts/history/${alert.id}/resolve`, json("POST", { notes: "rolled back" }, key))
    expect(r.status).toBe(200)
    const res = await r.json() as any
    expect(res.resolved).toBe(true)
    expect(res.alert).toMatchObject({ id: alert.id, status: "resolved", resolution_notes: "rolled back" })
    const ttr = (Date.parse(res.alert.resolved_at) - Date.parse(alert.triggered_at)) / 1000
    expect(res.alert.time_to_resolution_seconds).toBe(ttr)
    expect(ttr).toBeGreaterThan(0)

    r = await svc.call(`/v1/alerts/history/${alert.id}/resolve`, { key, method: "POST" })
    expect(r.status).toBe(409)
    expect(((await r.json()) as any).error.code).toBe("alert_already_resolved")
    r = await svc.call(`/v1/alerts/history/${alert.id}/acknowledge`, { key, method: "POST" })
    expect(r.status).toBe(409)

    // the condition still holds and the cooldown is 0: a new pending alert follows
    for (let i = 0; i < 40; i++) await svc.call("/v1/alerts/rules/rule_nope", { key })
    const second = await until(async () => {
      const list = ((await (await svc.call(`/v1/alerts/history?rule_id=${rule.id}&status=pending`, { key })).json()) as any).alerts
      return list[0]
    }, "the second alert")
    expect(second.id).not.toBe(alert.id)

    // twenty concurrent resolves: exactly one wins
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      svc.call(`/v1/alerts/history/${second.id}/resolve`, json("POST", { notes: `attempt ${i}` }, key))))
    const statuses = results.map((x) => x.status).sort()
    expect(statuses.filter((s) => s === 200).length).toBe(1)
    expect(statuses.filter((s) => s === 409).length).toBe(19)
    const winner = await results.find((x) => x.status === 200)!.json() as any
    const stored = ((await (await svc.call(`/v1/alerts/history?rule_id=${rule.id}&status=resolved`, { key })).json()) as any).alerts
      .find((a: any) => a.id === second.id)
    expect(stored.resolution_notes).toBe(winner.alert.resolution_notes)

    // pausing the rule stops further alerts (one may have fired again before the pause: resolve it)
    await svc.call(`/v1/alerts/rules/${rule.id}`, json("PATCH", { enabled: false }, key))
    for (const a of ((await (await svc.call(`/v1/alerts/history?rule_id=${rule.id}&status=pending`, { key })).json()) as any).alerts) {
      expect((await svc.call(`/v1/alerts/history/${a.id}/resolve`, { key, method: "POST" })).status).toBe(200)
    }
    await Bun.sleep(400)
    const open = ((await (await svc.call(`/v1/alerts/history?rule_id=${rule.id}&status=pending`, { key })).json()) as any).alerts
    expect(open).toEqual([])
  })

  test("resolve body: none, empty object, or notes; anything else 400", async () => {
    const { key } = await svc.newKey("developer")
    const { rule } = await (await svc.call("/v1/alerts/rules", json("POST", {
      name: "any traffic", metric: "request_count", operator: "gte", threshold_value: 1, window_minutes: 5, cooldown_minutes: 0
    }, key))).json() as any
    const next = () => until(async () =>
      ((await (await svc.call(`/v1/alerts/history?rule_id=${rule.id}&status=pending`, { key })).json()) as any).alerts[0], "an alert")
    let a = await next()
    let r = await svc.call(`/v1/alerts/history/${a.id}/resolve`, json("POST", { notes: 42 }, key))
    expect(r.status).toBe(400)
    r = await svc.call(`/v1/alerts/history/${a.id}/resolve`, json("POST", "{oops", key))
    expect(r.status).toBe(400)
    r = await svc.call(`/v1/alerts/history/${a.id}/resolve`, { key, method: "POST" })
    expect(r.status).toBe(200)
    expect(((await r.json()) as any).alert.resolution_notes).toBeNull()
    a = await next()
    r = await svc.call(`/v1/alerts/history/${a.id}/resolve`, json("POST", {}, key))
    expect(r.status).toBe(200)
    expect(((await svc.call("/v1/alerts/history?status=bogus", { key })).status)).toBe(400)
    expect(((await svc.call("/v1/alerts/history?limit=0", { key })).status)).toBe(400)
    expect((await svc.call("/v1/alerts/history/alert_missing/resolve", { key, method: "POST" })).status).toBe(404)
  })
})
