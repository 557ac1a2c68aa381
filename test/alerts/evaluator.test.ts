/**
 * The evaluator's pass against a real (in-memory) SQLite store, rollups written by the real batch
 * writer, TestClock moving time across windows and cooldowns.
 */
import { describe, expect, test } from "bun:test"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, TestClock } from "effect"
import { Alerts, type RuleInput } from "../../src/product/alerts/Alerts"
import { evaluateOnce } from "../../src/product/alerts/Evaluator"
import { acquireLease } from "../../src/product/alerts/Lease"
import { deliverDue, EmailSender, type EmailMessage } from "../../src/product/alerts/Outbox"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { Analytics } from "../../src/product/analytics/Analytics"
import { MINUTE } from "../../src/product/metering/rollup"
import { Keys } from "../../src/product/accounts/Keys"
import { Quota } from "../../src/product/metering/Quota"
import { rec, runTest, storeLayer, write } from "../analytics/support"

const NOW = Date.UTC(2026, 4, 20, 9, 0, 30)
const layer = Layer.mergeAll(Alerts.Default, Keys.Default, DnsResolver.Live).pipe(Layer.provideMerge(storeLayer({ dnsResolvers: [] }, { directLog: true })))

const setup = (rule: Partial<RuleInput> = {}) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const alerts = yield* Alerts
    const org = yield* keys.upsertOrg("acme", "developer")
    const { rule: created } = yield* alerts.createRule(org.id, {
      name: "busy",
      metric: "request_count",
      operator: "gte",
      threshold_value: 5,
      window_minutes: 5,
      channels: [{ type: "webhook", url: "http://127.0.0.1:1/hook" }, { type: "email", address: "ops@example.com" }],
      cooldown_minutes: 10,
      enabled: true,
      ...rule
    })
    return { org, rule: created, alerts }
  })

const traffic = (orgId: string, n: number, p: Partial<Parameters<typeof rec>[0]> = {}) =>
  Effect.flatMap(TestClockNow, (now) => write(Array.from({ length: n }, () => rec({ orgId, ts: now, ...p }))))
const TestClockNow = Effect.map(TestClock.currentTimeMillis, (n) => n - 1)

describe("alert evaluator", () => {
  test("fires once, waits for resolution and cooldown, fires again when the condition recurs", () =>
    runTest(Effect.gen(function*() {
      const { org, rule, alerts } = yield* setup()
      const sql = yield* SqlClient.SqlClient

      yield* traffic(org.id, 4)
      expect((yield* evaluateOnce).fired).toEqual([]) // 4 < 5
      yield* traffic(org.id, 1)
      const first = yield* evaluateOnce
      expect(first.fired.length).toBe(1)
      const [alert] = yield* alerts.history(org.id, {})
      expect(alert).toMatchObject({ rule_id: rule.id, status: "pending", metric: "request_count", observed_value: 5, threshold_value: 5 })
      expect(alert.triggered_at).toBe(new Date(NOW).toISOString())
      // one outbox row per channel
      const outbox = yield* sql<{ channel_type: string; event: string }>`SELECT channel_type, event FROM alert_outbox ORDER BY id`
      expect(outbox).toEqual([{ channel_type: "webhook", event: "alert.triggered" }, { channel_type: "email", event: "alert.triggered" }])

      // still holding, but the alert is open: nothing new
      yield* traffic(org.id, 10)
      expect((yield* evaluateOnce).fired).toEqual([])
      yield* alerts.acknowledge(org.id, alert.id)
      expect((yield* evaluateOnce).fired).toEqual([])

      // resolved 2 minutes later: condition still holds, but the cooldown has not passed
      yield* TestClock.adjust("2 minutes")
      const resolved = yield* alerts.resolve(org.id, alert.id, "scaled up")
      expect(resolved.time_to_resolution_seconds).toBe(120)
      expect((yield* evaluateOnce).fired).toEqual([])

      // 10 minutes after the trigger the cooldown is over, but the traffic has left the 5-minute window
      yield* TestClock.adjust("8 minutes")
      expect((yield* alerts.history(org.id, {})).length).toBe(1)
      expect((yield* evaluateOnce).fired).toEqual([])
      // the condition recurs: a second alert
      yield* traffic(org.id, 6)
      const again = yield* evaluateOnce
      expect(again.fired.length).toBe(1)
      const all = yield* alerts.history(org.id, {})
      expect(all.map((a) => a.status)).toEqual(["pending", "resolved"])
      expect(all[0].observed_value).toBe(6)
      // resolve queued notifications too
      const events = yield* sql<{ event: string; n: number }>`SELECT event, COUNT(*) AS n FROM alert_outbox GROUP BY event ORDER BY event`
      expect(events).toEqual([{ event: "alert.resolved", n: 2 }, { event: "alert.triggered", n: 4 }])
    }), { layer, now: NOW }))

  test("the window is the last N minutes including the current one", () =>
    runTest(Effect.gen(function*() {
      const { org } = yield* setup({ window_minutes: 3, cooldown_minutes: 0 })
      yield* traffic(org.id, 5) // minute 09:00
      yield* TestClock.adjust("2 minutes") // 09:02: window 09:00–09:02 still holds them
      const analytics = yield* Analytics
      expect(yield* analytics.metric(org, "request_count", 3)).toBe(5)
      yield* TestClock.adjust("1 minute") // 09:03: window 09:01–09:03
      expect(yield* analytics.metric(org, "request_count", 3)).toBe(0)
      expect((yield* evaluateOnce).fired).toEqual([])
    }), { layer, now: NOW }))

  test("paused rules never fire; re-enabled they do", () =>
    runTest(Effect.gen(function*() {
      const { org, rule, alerts } = yield* setup({ enabled: false })
      yield* traffic(org.id, 50)
      expect((yield* evaluateOnce)).toEqual({ rules: 0, fired: [] })
      yield* alerts.updateRule(org.id, rule.id, { enabled: true })
      expect((yield* evaluateOnce).fired.length).toBe(1)
    }), { layer, now: NOW }))

  test("every metric over the window", () =>
    runTest(Effect.gen(function*() {
      const { org } = yield* setup()
      const analytics = yield* Analytics
      expect(yield* analytics.metric(org, "error_rate", 5)).toBeUndefined()
      expect(yield* analytics.metric(org, "cache_hit_rate", 5)).toBeUndefined()
      yield* traffic(org.id, 6, { latencyMs: 10, cache: "hit" })
      yield* traffic(org.id, 2, { latencyMs: 50, status: 500, cache: "miss" })
      yield* traffic(org.id, 2, { latencyMs: 1000, status: 404 })
      expect(yield* analytics.metric(org, "request_count", 5)).toBe(10)
      expect(yield* analytics.metric(org, "error_rate", 5)).toBe(40)
      expect(yield* analytics.metric(org, "avg_latency_ms", 5)).toBe((60 + 100 + 2000) / 10)
      // rank ⌊0.95·9⌋ = 8 → 1000 ms
      expect(Math.abs((yield* analytics.metric(org, "p95_latency_ms", 5))! - 1000) / 1000).toBeLessThanOrEqual(0.01)
      expect(yield* analytics.metric(org, "cache_hit_rate", 5)).toBe(75)
      // quota: 10 requests counted by the quota decision, of a 50 000 developer quota
      yield* Effect.flatMap(Quota, (q) => q.consume(org, 10))
      expect(yield* analytics.metric(org, "quota_percentage_used", 5)).toBe(0.02)
    }), { layer, now: NOW }))

  test("one lease holder at a time; an expired lease passes on", () =>
    runTest(Effect.gen(function*() {
      expect(yield* acquireLease("alert-evaluator", "a", 5_000)).toBe(true)
      expect(yield* acquireLease("alert-evaluator", "b", 5_000)).toBe(false)
      expect(yield* acquireLease("alert-evaluator", "a", 5_000)).toBe(true) // renewal
      yield* TestClock.adjust("4 seconds")
      expect(yield* acquireLease("alert-evaluator", "b", 5_000)).toBe(false)
      yield* TestClock.adjust("2 seconds")
      expect(yield* acquireLease("alert-evaluator", "b", 5_000)).toBe(true)
      expect(yield* acquireLease("alert-evaluator", "a", 5_000)).toBe(false)
    }), { layer, now: NOW }))

  test("email notifications wait in the outbox for a sender, then go through the pluggable one", () =>
    runTest(Effect.gen(function*() {
      const { org, alerts } = yield* setup({ channels: [{ type: "email", address: "ops@example.com" }] })
      const sql = yield* SqlClient.SqlClient
      yield* traffic(org.id, 5)
      const [alertId] = (yield* evaluateOnce).fired
      expect(yield* deliverDue).toBe(0) // no sender wired: recorded only
      const pending = yield* sql<{ status: string; destination: string }>`SELECT status, destination FROM alert_outbox`
      expect(pending).toEqual([{ status: "pending", destination: "ops@example.com" }])

      const sent: Array<EmailMessage> = []
      const sender = Layer.succeed(EmailSender, { send: (m) => Effect.sync(() => void sent.push(m)) })
      expect(yield* Effect.provide(deliverDue, sender)).toBe(1)
      expect(sent.length).toBe(1)
      expect(sent[0].to).toBe("ops@example.com")
      expect(sent[0].subject).toContain("busy")
      expect(JSON.parse(sent[0].body)).toMatchObject({ id: alertId, event: "alert.triggered" })
      expect(yield* sql`SELECT status FROM alert_outbox`).toEqual([{ status: "delivered" }])
      yield* alerts.resolve(org.id, alertId, null)
      expect(yield* Effect.provide(deliverDue, sender)).toBe(1)
      expect(sent[1].subject).toContain("Resolved")
    }), { layer, now: NOW }))
})
