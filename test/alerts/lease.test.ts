/**
 * Two service instances on one file-backed database: one evaluator between them, and the other
 * instance takes over when the holder stops.
 */
import { expect, test } from "bun:test"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { until } from "../support/process"
import { startService } from "../support/service"


test("one evaluator per database; the lease passes on when its holder stops", async () => {
  const dir = mkdtempSync(join(tmpdir(), "di-lease-"))
  const config = { databaseUrl: `sqlite:${join(dir, "store.db")}`, alertEvalIntervalMs: 100, webhookRetryBaseMs: 50 }
  const a = await startService(config)
  let b: Awaited<ReturnType<typeof startService>> | undefined
  try {
    const holderOf = async (svc: typeof a) =>
      (await svc.sql<{ holder: string }>("SELECT holder FROM leases WHERE name = 'alert-evaluator'"))[0]?.holder
    const first = await until(() => holderOf(a), "instance A to take the lease")
    b = await startService(config)
    // B runs its evaluator loop too, but never gets the lease while A renews it
    for (let i = 0; i < 8; i++) {
      await Bun.sleep(100)
      expect(await holderOf(b)).toBe(first)
    }
    expect((await b.sql<{ n: number }>("SELECT COUNT(*) AS n FROM leases WHERE name = 'alert-evaluator'"))[0].n).toBe(1)

    await a.stop()
    const second = await until(async () => {
      const h = await holderOf(b!)
      return h !== undefined && h !== first ? h : undefined
    }, "instance B to take over")
    expect(second).not.toBe(first)

    // and B's evaluator works: a rule created through B fires
    const { key } = await b.newKey("developer")
    const r = await b.call("/v1/alerts/rules", {
      method: "POST", key, headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "n", metric: "request_count", operator: "gte", threshold_value: 1, window_minutes: 5 })
    })
    expect(r.status).toBe(201)
    await until(async () =>
      ((await (await b!.call("/v1/alerts/history", { key })).json()) as any).alerts[0], "an alert evaluated by B")
  } finally {
    await b?.stop()
    await a.stop().catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)
