/**
 * A waf monitor end to end (MONITOR_MIN_INTERVAL_S=1) on a loopback origin that replays a
 * provider's headers; the test removes the provider mid-test and the run reports the change.
 * Also the `statusFor` view the MCP `monitor_status` tool is built on.
 */
import { expect, test } from "bun:test"
import { Effect } from "effect"
import { Monitors } from "../../src/product/monitors/Monitors"
import { until } from "../support/process"
import { startService } from "../support/service"
import { REPLICAS } from "../waf/replicas"

test("waf: provider_changed once the origin stops sending the provider's headers; statusFor shows the state", async () => {
  const cloudflare = REPLICAS.find((r) => r.id === "cloudflare-pass")!
  let behind = true
  const origin = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      const headers = new Headers({ "content-type": "text/html" })
      if (behind) for (const [k, v] of cloudflare.headers) headers.append(k, v)
      return new Response(cloudflare.body, { status: 200, headers })
    }
  })
  const svc = await startService({ monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000 })
  try {
    const { key, orgId } = await svc.newKey("developer")
    const r = await svc.call("/v1/monitors", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "edge", kind: "waf", target: `http://127.0.0.1:${origin.port}/`, interval_seconds: 1,
        conditions: { provider_changed: true }, cooldown_minutes: 0
      })
    })
    expect(r.status).toBe(201)
    const { monitor } = await r.json() as any
    const results = async () => ((await (await svc.call(`/v1/monitors/${monitor.id}/results`, { key })).json()) as any).results

    const first = await until(async () => (await results())[0], "the first WAF run")
    expect(first).toMatchObject({ ok: true, summary: "provider Cloudflare", report: { primary_provider: "Cloudflare", provider_present: true } })

    behind = false
    const changed = await until(async () => (await results()).find((x: any) => !x.ok), "the run that sees the change")
    expect(changed.summary).toBe("provider changed from Cloudflare to none")

    const status = await svc.run(Effect.flatMap(Monitors, (m) => m.statusFor(orgId)).pipe(Effect.provide(Monitors.Default)))
    expect(status.monitors).toEqual([expect.objectContaining({
      id: monitor.id, name: "edge", kind: "waf", status: expect.stringMatching(/^(down|up)$/), last_summary: expect.any(String)
    })])
    expect((await svc.run(Effect.flatMap(Monitors, (m) => m.statusFor("org_nobody")).pipe(Effect.provide(Monitors.Default)))).monitors).toEqual([])
  } finally {
    await svc.stop()
    origin.stop(true)
  }
}, 60_000)
