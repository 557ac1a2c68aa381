/**
 * Fair delivery (issue 11, item 7): one organization's receiver trickles its answer a byte every
 * 2 s; another organization's alert is delivered while that connection is still open, and the
 * trickling POST is cut at its total deadline (10 s) although every byte resets an idle timer.
 */
import { expect, test } from "bun:test"
import { until } from "../support/process"
import { startService } from "../support/service"
import { receiver, trickler } from "./support"

const ruleBody = (url: string) => JSON.stringify({
  name: "any traffic", metric: "request_count", operator: "gte", threshold_value: 1, window_minutes: 5,
  cooldown_minutes: 60, channels: [{ type: "webhook", url }]
})
const post = (key: string, body: string) => ({ method: "POST", key, headers: { "content-type": "application/json" }, body })

test("a trickling receiver delays no other organization and is cut at the total deadline", async () => {
  const slow = trickler(2_000)
  const slowPort = await slow.ready
  const healthy = receiver(0)
  const svc = await startService({ alertEvalIntervalMs: 100, webhookRetryBaseMs: 50 })
  try {
    const a = await svc.newKey("developer")
    const b = await svc.newKey("developer")
    // two alerts for the trickling receiver (org A), so its destination is busy
    expect((await svc.call("/v1/alerts/rules", post(a.key, ruleBody(`http://127.0.0.1:${slowPort}/a1`)))).status).toBe(201)
    expect((await svc.call("/v1/alerts/rules", post(a.key, ruleBody(`http://127.0.0.1:${slowPort}/a2`)))).status).toBe(201)
    await until(() => slow.connections.length >= 1 ? true : undefined, "the trickling receiver to be reached")

    // org B's alert is created after A's delivery is in progress, and arrives while it still trickles
    expect((await svc.call("/v1/alerts/rules", post(b.key, ruleBody(healthy.url)))).status).toBe(201)
    const got = await until(() => healthy.received[0], "org B's delivery")
    expect(got.event).toBe("alert.triggered")
    expect(slow.connections[0].closedAt).toBeNull()

    // the trickling POST ends at the total deadline, long before its answer would have been complete
    const cut = await until(async () => {
      const rows = await svc.sql<{ attempts: number; last_error: string | null; status: string }>(
        "SELECT attempts, last_error, status FROM alert_outbox WHERE destination LIKE ? ORDER BY id", [`%:${slowPort}/a1`])
      return rows[0]?.last_error ? rows[0] : undefined
    }, "the trickling delivery to be cut", 25_000)
    expect(cut).toMatchObject({ status: "pending", attempts: 1, last_error: "no complete answer within 10 s" })
    // The row is written when the service gives up; the receiver sees the close a moment later.
    await until(() => slow.connections[0].closedAt ?? undefined, "the receiver to see the connection closed", 5_000)
    // 10 s at a byte every 2 s: about 5 of the answer's 63 bytes were out when the service hung up
    expect(slow.connections[0].bytesSent).toBeLessThan(15)
    expect(healthy.received.length).toBe(1)
  } finally {
    await svc.stop()
    slow.stop()
    healthy.server.stop(true)
  }
}, 40_000)
