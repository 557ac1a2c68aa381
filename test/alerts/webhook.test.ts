/**
 * Webhook delivery end to end: the running service, its evaluator and outbox, and a local Bun
 * receiver that checks every signature, fails on purpose, and comes and goes across a restart.
 */
import { describe, expect, test } from "bun:test"
import { createHmac, timingSafeEqual } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Redacted } from "effect"
import { until } from "../support/process"
import { startService } from "../support/service"

const SECRET = "test-signing-secret"

interface Received {
  readonly event: string
  readonly delivery: string
  readonly signatureOk: boolean
  readonly body: any
}

/** A receiver that answers 500 to its first `failFirst` requests, then 204. */
/** A webhook receiver that answers 500 to its first `failFirst` deliveries, or while `fail()` holds. */
const receiver = (fail: number | (() => boolean) = 0) => {
  const received: Array<Received> = []
  let seen = 0
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      const raw = await req.text()
      const expected = Buffer.from(`sha256=${createHmac("sha256", SECRET).update(raw).digest("hex")}`)
      const given = Buffer.from(req.headers.get("x-domain-intel-signature") ?? "")
      received.push({
        event: req.headers.get("x-domain-intel-event") ?? "",
        delivery: req.headers.get("x-domain-intel-delivery") ?? "",
        signatureOk: given.length === expected.length && timingSafeEqual(given, expected),
        body: JSON.parse(raw)
      })
      seen++
      const failing = typeof fail === "number" ? seen <= fail : fail()
      return new Response(null, { status: failing ? 500 : 204 })
    }
  })
  return { server, received, url: `http://127.0.0.1:${server.port}/hooks/alerts?token=abc` }
}


const ruleBody = (url: string) => JSON.stringify({
  name: "any traffic", metric: "request_count", operator: "gte", threshold_value: 1, window_minutes: 5,
  cooldown_minutes: 60, channels: [{ type: "webhook", url }, { type: "email", address: "oncall@example.com" }]
})
const post = (key: string, body: string) =>
  ({ method: "POST", key, headers: { "content-type": "application/json" }, body })

const config = { alertEvalIntervalMs: 100, webhookRetryBaseMs: 50, webhookSigningSecret: Redacted.make(SECRET) }

describe("webhook delivery", () => {
  test("signed, retried with backoff after failures, then delivered once; resolve notifies too", async () => {
    const rx = receiver(2)
    const svc = await startService(config)
    try {
      const { key } = await svc.newKey("developer")
      const created = await svc.call("/v1/alerts/rules", post(key, ruleBody(rx.url)))
      expect(created.status).toBe(201)
      const ok = await until(() => rx.received.find((r) => r.event === "alert.triggered" && rx.received.length >= 3), "a delivery after two failures")
      expect(rx.received.every((r) => r.signatureOk)).toBe(true)
      const triggered = rx.received.filter((r) => r.event === "alert.triggered")
      expect(triggered.length).toBe(3) // two failures, one success
      expect(new Set(triggered.map((r) => r.delivery)).size).toBe(1) // the same outbox entry retried
      expect(ok.body).toMatchObject({ event: "alert.triggered", status: "pending", metric: "request_count", rule_name: "any traffic" })
      // the row is marked after the receiver's answer arrives
      const rows = await until(async () => {
        const rows = await svc.sql<{ status: string; attempts: number; channel_type: string }>(
          "SELECT status, attempts, channel_type FROM alert_outbox WHERE event = 'alert.triggered' ORDER BY id")
        return rows[0]?.status === "pending" ? undefined : rows
      }, "the outbox row to be marked")
      expect(rows).toEqual([
        { status: "delivered", attempts: 3, channel_type: "webhook" },
        // email: recorded for a pluggable sender (none is wired here)
        { status: "pending", attempts: 0, channel_type: "email" }
      ])
      // nothing is sent again once delivered
      await Bun.sleep(300)
      expect(rx.received.filter((r) => r.event === "alert.triggered").length).toBe(3)

      const r = await svc.call(`/v1/alerts/history/${ok.body.id}/resolve`, post(key, JSON.stringify({ notes: "ok" })))
      expect(r.status).toBe(200)
      const resolved = await until(() => rx.received.find((x) => x.event === "alert.resolved"), "the resolve notification")
      expect(resolved.signatureOk).toBe(true)
      expect(resolved.body).toMatchObject({ id: ok.body.id, status: "resolved", resolution_notes: "ok" })
      expect(typeof resolved.body.time_to_resolution_seconds).toBe("number")
    } finally {
      await svc.stop()
      rx.server.stop(true)
    }
  }, 30_000)

  test("a notification queued before a restart is delivered after it (file-backed store)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "di-outbox-"))
    const databaseUrl = `sqlite:${join(dir, "store.db")}`
    // The receiver fails every delivery until the first instance is gone.
    let down = true
    const rx = receiver(() => down)
    const url = `http://127.0.0.1:${rx.server.port}/hook`

    const first = await startService({ ...config, databaseUrl })
    let alertId: string
    try {
      const { key } = await first.newKey("developer")
      expect((await first.call("/v1/alerts/rules", post(key, ruleBody(url)))).status).toBe(201)
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
    rx.received.length = 0
    const second = await startService({ ...config, databaseUrl })
    try {
      const got = await until(() => rx.received.find((r) => r.event === "alert.triggered"), "delivery after restart")
      expect(got.signatureOk).toBe(true)
      expect(got.body.id).toBe(alertId!)
      const rows = await second.sql<{ status: string }>("SELECT status FROM alert_outbox WHERE channel_type = 'webhook'")
      expect(rows).toEqual([{ status: "delivered" }])
      // the alert stayed open across the restart, so the evaluator made no second one
      expect((await second.sql<{ n: number }>("SELECT COUNT(*) AS n FROM alerts"))[0].n).toBe(1)
    } finally {
      await second.stop()
      rx.server.stop(true)
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)

  test("the target guard runs at delivery: a name resolving to a private address is refused", async () => {
    const rx = receiver(0)
    const svc = await startService({ ...config, allowPrivateTargets: false })
    try {
      const { key } = await svc.newKey("developer")
      // localhost is not an IP literal, so creation accepts it; delivery vets where it points.
      const hook = `http://localhost:${rx.server.port}/hook`
      expect((await svc.call("/v1/alerts/rules", post(key, ruleBody(hook)))).status).toBe(201)
      const row = await until(async () => {
        const rows = await svc.sql<{ status: string; last_error: string }>(
          "SELECT status, last_error FROM alert_outbox WHERE channel_type = 'webhook'")
        return rows[0]?.status === "failed" ? rows[0] : undefined
      }, "the refused delivery")
      expect(row.last_error).toContain("non-public")
      expect(rx.received).toEqual([])
      // and an IP literal is refused at creation already
      const r = await svc.call("/v1/alerts/rules", post(key, ruleBody(rx.url)))
      expect(r.status).toBe(400)
      expect(((await r.json()) as any).error.code).toBe("target_forbidden")
    } finally {
      await svc.stop()
      rx.server.stop(true)
    }
  }, 30_000)
})
