/**
 * Webhook delivery end to end: the running service, its evaluator and outbox, and loopback
 * receivers whose deliveries are checked with the `standardwebhooks` package's own verifier.
 */
import { describe, expect, setSystemTime, test } from "bun:test"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Webhook } from "standardwebhooks"
import { until } from "../support/process"
import { startService } from "../support/service"
import { type Received, receiver } from "./support"

const ruleBody = (url: string, name = "any traffic") => JSON.stringify({
  name, metric: "request_count", operator: "gte", threshold_value: 1, window_minutes: 5,
  cooldown_minutes: 60, channels: [{ type: "webhook", url }, { type: "email", address: "oncall@example.com" }]
})
const post = (key: string, body?: string) =>
  ({ method: "POST", key, headers: { "content-type": "application/json" }, body })

const config = { alertEvalIntervalMs: 100, webhookRetryBaseMs: 50 }

/** The standardwebhooks verifier's verdict on one received delivery. */
const verifies = (secret: string, r: Pick<Received, "raw" | "headers">) => {
  try {
    new Webhook(secret).verify(r.raw, r.headers)
    return true
  } catch {
    return false
  }
}

describe("webhook delivery (Standard Webhooks 1.0)", () => {
  test("per-rule secret verifies; same webhook-id on retries; tampering, replay and another rule's secret fail", async () => {
    const rx = receiver(2)
    const svc = await startService(config)
    try {
      const { key } = await svc.newKey("developer")
      const created = await svc.call("/v1/alerts/rules", post(key, ruleBody(rx.url)))
      expect(created.status).toBe(201)
      const { rule, signing_secret } = await created.json() as any
      expect(signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
      expect(Buffer.from(signing_secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24)
      // the secret is shown once: never in the rule as read back
      expect(JSON.stringify(await (await svc.call(`/v1/alerts/rules/${rule.id}`, { key })).json())).not.toContain(signing_secret)

      const ok = await until(() => rx.received.length >= 3 ? rx.received[2] : undefined, "a delivery after two failures")
      const triggered = rx.received.filter((r) => r.event === "alert.triggered")
      expect(triggered.length).toBe(3) // two failures, one success
      expect(triggered.every((r) => verifies(signing_secret, r))).toBe(true)
      expect(new Set(triggered.map((r) => r.headers["webhook-id"])).size).toBe(1) // the same message retried
      expect(ok.headers["webhook-timestamp"]).toMatch(/^\d{10}$/)
      expect(Math.abs(Number(ok.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60)
      expect(ok.body).toMatchObject({ event: "alert.triggered", status: "pending", metric: "request_count", rule_name: "any traffic" })

      // a tampered body, a tampered timestamp, a stripped signature: all refused
      expect(verifies(signing_secret, { ...ok, raw: ok.raw.replace("pending", "resolved") })).toBe(false)
      expect(verifies(signing_secret, { ...ok, headers: { ...ok.headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000)) } }))
        .toBe(Number(ok.headers["webhook-timestamp"]) === Math.floor(Date.now() / 1000))
      expect(verifies(signing_secret, { ...ok, headers: { ...ok.headers, "webhook-signature": "v1,AAAA" } })).toBe(false)
      // a replay: the same signed delivery presented ten minutes later is too old
      setSystemTime(new Date(Date.now() + 10 * 60_000))
      try {
        expect(verifies(signing_secret, ok)).toBe(false)
      } finally {
        setSystemTime()
      }
      expect(verifies(signing_secret, ok)).toBe(true)
      // another tenant's rule has another secret: a body signed for one does not verify for the other
      const other = await svc.newKey("developer")
      const otherRule = await (await svc.call("/v1/alerts/rules", post(other.key, ruleBody("https://hooks.example.com/x")))).json() as any
      expect(otherRule.signing_secret).not.toBe(signing_secret)
      expect(verifies(otherRule.signing_secret, ok)).toBe(false)

      // the row is marked after the receiver's answer arrives
      const rows = await until(async () => {
        const rows = await svc.sql<{ status: string; attempts: number; channel_type: string }>(
          "SELECT status, attempts, channel_type FROM alert_outbox WHERE event = 'alert.triggered' AND owner_id = ? ORDER BY id", [rule.id])
        return rows[0]?.status === "pending" ? undefined : rows
      }, "the outbox row to be marked")
      expect(rows).toEqual([
        { status: "delivered", attempts: 3, channel_type: "webhook" },
        { status: "pending", attempts: 0, channel_type: "email" } // no email sender wired here
      ])
      await Bun.sleep(300)
      expect(rx.received.filter((r) => r.event === "alert.triggered").length).toBe(3) // nothing sent again

      const r = await svc.call(`/v1/alerts/history/${ok.body.id}/resolve`, post(key, JSON.stringify({ notes: "ok" })))
      expect(r.status).toBe(200)
      const resolved = await until(() => rx.received.find((x) => x.event === "alert.resolved"), "the resolve notification")
      expect(verifies(signing_secret, resolved)).toBe(true)
      expect(resolved.headers["webhook-id"]).not.toBe(ok.headers["webhook-id"])
      expect(resolved.body).toMatchObject({ id: ok.body.id, status: "resolved", resolution_notes: "ok" })
    } finally {
      await svc.stop()
      rx.server.stop(true)
    }
  }, 30_000)

  test("rotate-secret: the old secret stops verifying, the new one verifies; the test endpoint reports each channel", async () => {
    const rx = receiver(0)
    const down = receiver(() => true)
    const svc = await startService({ ...config, alertEvalIntervalMs: 3_600_000 })
    try {
      const { key } = await svc.newKey("developer")
      const body = JSON.stringify({
        name: "rotating", metric: "error_rate", operator: "gt", threshold_value: 100, window_minutes: 5,
        channels: [{ type: "webhook", url: rx.url }, { type: "webhook", url: down.url }, { type: "email", address: "ops@example.com" }]
      })
      const { rule, signing_secret: first } = await (await svc.call("/v1/alerts/rules", post(key, body))).json() as any

      let r = await svc.call(`/v1/alerts/rules/${rule.id}/test`, post(key))
      expect(r.status).toBe(200)
      expect(await r.json()).toEqual({
        deliveries: [
          { channel: { type: "webhook", url: rx.url }, delivered: true, http_status: 204, error: null },
          { channel: { type: "webhook", url: down.url }, delivered: false, http_status: 500, error: "receiver answered 500" },
          { channel: { type: "email", address: "ops@example.com" }, delivered: false, http_status: null, error: expect.stringContaining("email") }
        ]
      })
      const t1 = rx.received.at(-1)!
      expect(t1.event).toBe("alert.test")
      expect(t1.body).toMatchObject({ event: "alert.test", rule_id: rule.id, rule_name: "rotating" })
      expect(verifies(first, t1)).toBe(true)

      r = await svc.call(`/v1/alerts/rules/${rule.id}/rotate-secret`, post(key))
      expect(r.status).toBe(200)
      const { signing_secret: second } = await r.json() as any
      expect(second).toMatch(/^whsec_/)
      expect(second).not.toBe(first)
      await svc.call(`/v1/alerts/rules/${rule.id}/test`, post(key))
      const t2 = rx.received.at(-1)!
      expect(t2.headers["webhook-id"]).not.toBe(t1.headers["webhook-id"])
      expect(verifies(first, t2)).toBe(false)
      expect(verifies(second, t2)).toBe(true)

      // another organization cannot rotate or test the rule; a free key is below the plan
      const stranger = await svc.newKey("developer")
      expect((await svc.call(`/v1/alerts/rules/${rule.id}/rotate-secret`, post(stranger.key))).status).toBe(404)
      expect((await svc.call(`/v1/alerts/rules/${rule.id}/test`, post(stranger.key))).status).toBe(404)
      const free = await svc.newKey("free")
      expect((await svc.call(`/v1/alerts/rules/${rule.id}/test`, post(free.key))).status).toBe(403)
    } finally {
      await svc.stop()
      rx.server.stop(true)
      down.server.stop(true)
    }
  }, 30_000)

  test("a notification queued before a restart is delivered after it (file-backed store)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "di-outbox-"))
    const databaseUrl = `sqlite:${join(dir, "store.db")}`
    let down = true
    const rx = receiver(() => down)
    const url = `http://127.0.0.1:${rx.server.port}/hook`

    const first = await startService({ ...config, databaseUrl })
    let alertId: string
    let secret: string
    try {
      const { key } = await first.newKey("developer")
      const created = await first.call("/v1/alerts/rules", post(key, ruleBody(url)))
      expect(created.status).toBe(201)
      secret = ((await created.json()) as any).signing_secret
      const row = await until(async () => {
        const rows = await first.sql<{ alert_id: string; attempts: number; status: string }>(
          "SELECT alert_id, attempts, status FROM alert_outbox WHERE channel_type = 'webhook'")
        return rows[0] && rows[0].attempts >= 1 ? rows[0] : undefined
      }, "a failed first attempt")
      expect(row.status).toBe("pending")
      alertId = row.alert_id
    } finally {
      await first.stop()
    }

    down = false
    const before = rx.received.length
    const second = await startService({ ...config, databaseUrl })
    try {
      const got = await until(() => rx.received.slice(before).find((r) => r.event === "alert.triggered"), "delivery after restart")
      expect(verifies(secret!, got)).toBe(true)
      expect(got.headers["webhook-id"]).toBe(rx.received[0].headers["webhook-id"])
      expect(got.body.id).toBe(alertId!)
      const rows = await until(async () => {
        const rows = await second.sql<{ status: string }>("SELECT status FROM alert_outbox WHERE channel_type = 'webhook'")
        return rows[0]?.status === "delivered" ? rows : undefined
      }, "the row marked delivered")
      expect(rows).toEqual([{ status: "delivered" }])
      expect((await second.sql<{ n: number }>("SELECT COUNT(*) AS n FROM alerts"))[0].n).toBe(1)
    } finally {
      await second.stop()
      rx.server.stop(true)
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)

  test("the target guard runs at creation and at delivery", async () => {
    const rx = receiver(0)
    const svc = await startService({ ...config, allowPrivateTargets: false })
    try {
      const { key } = await svc.newKey("developer")
      // refused at creation: an IP literal and a name that resolves to loopback
      for (const hook of [rx.url, `http://localhost:${rx.server.port}/hook`]) {
        const r = await svc.call("/v1/alerts/rules", post(key, ruleBody(hook)))
        expect(r.status).toBe(400)
        expect(((await r.json()) as any).error.code).toBe("target_forbidden")
      }
      // a rule stored with a URL that has since come to point at a private address: refused at delivery
      const created = await svc.call("/v1/alerts/rules", post(key, ruleBody("https://hooks.example.com/x")))
      const { rule } = await created.json() as any
      await svc.sql("UPDATE alert_rules SET channels = ? WHERE id = ?", [
        JSON.stringify([{ type: "webhook", url: `http://localhost:${rx.server.port}/hook` }]), rule.id])
      const row = await until(async () => {
        const rows = await svc.sql<{ status: string; last_error: string }>(
          "SELECT status, last_error FROM alert_outbox WHERE channel_type = 'webhook'")
        return rows[0]?.status === "failed" ? rows[0] : undefined
      }, "the refused delivery")
      expect(row.last_error).toContain("localhost")
      expect(rx.received).toEqual([])
      // the test endpoint goes through the guard too
      const t = await (await svc.call(`/v1/alerts/rules/${rule.id}/test`, post(key))).json() as any
      expect(t.deliveries[0]).toMatchObject({ delivered: false, http_status: null })
      expect(rx.received).toEqual([])
    } finally {
      await svc.stop()
      rx.server.stop(true)
    }
  }, 30_000)
})
