import { describe, expect, test } from "bun:test"
import { createHmac } from "node:crypto"
import { Webhook } from "standardwebhooks"
import { alertJson, backoffMs, compare, decide, newSigningSecret, type RuleState, signingKey, webhookBody, webhookHeaders } from "../../src/product/alerts/analyze"

const base: RuleState = {
  enabled: true,
  operator: "gt",
  thresholdValue: 5,
  cooldownMinutes: 10,
  lastTriggeredAt: null,
  hasUnresolved: false
}
const NOW = Date.UTC(2026, 0, 10, 12)

describe("compare", () => {
  test.each([
    ["gt", 5, 5, false], ["gt", 5.01, 5, true],
    ["gte", 5, 5, true], ["gte", 4.99, 5, false],
    ["lt", 5, 5, false], ["lt", 4, 5, true],
    ["lte", 5, 5, true], ["lte", 6, 5, false]
  ] as const)("%s %d vs %d → %p", (op, observed, threshold, expected) => {
    expect(compare(op, observed, threshold)).toBe(expected)
  })
})

describe("decide", () => {
  test("fires when the condition holds and nothing blocks it", () => {
    expect(decide(base, 6, NOW)).toEqual({ fire: true })
  })
  test("paused rules never fire", () => {
    expect(decide({ ...base, enabled: false }, 1e9, NOW)).toEqual({ fire: false, reason: "paused" })
  })
  test("no data never fires, even for lt rules", () => {
    expect(decide({ ...base, operator: "lt" }, undefined, NOW)).toEqual({ fire: false, reason: "no_data" })
  })
  test("an open alert blocks a new one", () => {
    expect(decide({ ...base, hasUnresolved: true }, 6, NOW)).toEqual({ fire: false, reason: "unresolved_alert" })
  })
  test("cooldown counts from the last trigger; the boundary minute fires", () => {
    const last = NOW - 10 * 60_000
    expect(decide({ ...base, lastTriggeredAt: last + 1 }, 6, NOW)).toEqual({ fire: false, reason: "cooldown" })
    expect(decide({ ...base, lastTriggeredAt: last }, 6, NOW)).toEqual({ fire: true })
    expect(decide({ ...base, lastTriggeredAt: NOW, cooldownMinutes: 0 }, 6, NOW)).toEqual({ fire: true })
  })
  test("condition false", () => {
    expect(decide(base, 5, NOW)).toEqual({ fire: false, reason: "condition_false" })
  })
})

describe("backoff and signature", () => {
  test("doubles from the base and caps at an hour", () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 1000))).toEqual([1000, 2000, 4000, 8000])
    expect(backoffMs(30, 1000)).toBe(3_600_000)
  })
  test("Standard Webhooks signature: v1, base64 HMAC-SHA256 of id.timestamp.body, keyed with the decoded secret", () => {
    const body = webhookBody("alert.triggered", alertJson({
      id: "alert_1", org_id: "o", source: "rule", rule_id: "rule_1", monitor_id: null, status: "pending", metric: "error_rate",
      observed_value: 12.5, threshold_value: 5, triggered_at: NOW, acknowledged_at: null, resolved_at: null,
      resolution_notes: null
    }), "errors")
    const secret = newSigningSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    expect(signingKey(secret).length).toBeGreaterThanOrEqual(24)
    expect(newSigningSecret()).not.toBe(secret)
    const ts = Math.floor(NOW / 1000)
    const h = webhookHeaders(secret, "msg_1", ts, body)
    const expected = createHmac("sha256", signingKey(secret)).update(`msg_1.${ts}.${body}`).digest("base64")
    expect(h).toEqual({ "webhook-id": "msg_1", "webhook-timestamp": String(ts), "webhook-signature": `v1,${expected}` })
    // the reference implementation computes the same signature
    expect(new Webhook(secret).sign("msg_1", new Date(ts * 1000), body)).toBe(h["webhook-signature"])
    expect(webhookHeaders(newSigningSecret(), "msg_1", ts, body)["webhook-signature"]).not.toBe(h["webhook-signature"])
    expect(JSON.parse(body)).toMatchObject({ event: "alert.triggered", id: "alert_1", rule_name: "errors", time_to_resolution_seconds: null })
  })
  test("time to resolution is measured from the trigger", () => {
    const a = alertJson({
      id: "a", org_id: "o", source: "rule", rule_id: "r", monitor_id: null, status: "resolved", metric: "request_count", observed_value: 1,
      threshold_value: 1, triggered_at: NOW, acknowledged_at: null, resolved_at: NOW + 90_500, resolution_notes: "x"
    })
    expect(a.time_to_resolution_seconds).toBe(90.5)
    expect(a.resolved_at).toBe(new Date(NOW + 90_500).toISOString())
  })
})
