/**
 * An http_check monitor end to end (MONITOR_MIN_INTERVAL_S=1): a loopback target the test takes
 * down and brings back, a webhook receiver checking every delivery with the standardwebhooks
 * verifier, results paged by cursor, the uptime report, and the runs metered as `monitors`.
 */
import { expect, test } from "bun:test"
import { Webhook } from "standardwebhooks"
import { receiver } from "../alerts/support"
import { until } from "../support/process"
import { startService } from "../support/service"

const send = (method: string, body: unknown, key: string): RequestInit & { key: string } => ({
  method,
  key,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body)
})

test("down after two failed runs opens a monitor alert; the next ok run resolves it; both are signed webhooks", async () => {
  let up = true
  let hits = 0
  const target = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      hits++
      return new Response(up ? "ok" : "down", { status: up ? 200 : 503 })
    }
  })
  const rx = receiver(0)
  const svc = await startService({ monitorMinIntervalS: 1, webhookRetryBaseMs: 50, alertEvalIntervalMs: 3_600_000 })
  try {
    const { key } = await svc.newKey("developer")
    const r = await svc.call("/v1/monitors", send("POST", {
      name: "api health",
      kind: "http_check",
      target: `http://127.0.0.1:${target.port}/health`,
      interval_seconds: 1,
      channels: [{ type: "webhook", url: rx.url }],
      failures_before_alert: 2,
      cooldown_minutes: 0
    }, key))
    expect(r.status).toBe(201)
    const { monitor, signing_secret } = await r.json() as any
    const get = async () => ((await (await svc.call(`/v1/monitors/${monitor.id}`, { key })).json()) as any).monitor
    const results = async (q = "") => (await (await svc.call(`/v1/monitors/${monitor.id}/results${q}`, { key })).json()) as any

    await until(async () => ((await get()).status === "up" ? true : undefined), "a first ok run")
    up = false
    // one failed run: no alert yet (failures_before_alert = 2)
    await until(async () => ((await get()).consecutive_failures === 1 ? true : undefined), "one failed run")
    expect((await get()).open_alert_id).toBeNull()
    const failed = await until(() => rx.received.find((x) => x.event === "monitor.failed"), "the monitor.failed webhook")
    new Webhook(signing_secret).verify(failed.raw, failed.headers) // throws when the signature is wrong
    expect(failed.body).toMatchObject({
      event: "monitor.failed",
      source: "monitor",
      monitor_id: monitor.id,
      rule_id: null,
      status: "pending",
      metric: "http_check",
      observed_value: 2,
      threshold_value: 2,
      monitor_name: "api health",
      summary: "status 503 is not 2xx",
      monitor: { id: monitor.id, kind: "http_check" }
    })
    const down = await get()
    expect(down).toMatchObject({ status: "down", open_alert_id: failed.body.id })
    expect(down.consecutive_failures).toBeGreaterThanOrEqual(2)
    // only one alert however long it stays down
    await Bun.sleep(1500)
    let history = ((await (await svc.call(`/v1/alerts/history?monitor_id=${monitor.id}`, { key })).json()) as any).alerts
    expect(history.length).toBe(1)

    up = true
    const recovered = await until(() => rx.received.find((x) => x.event === "monitor.recovered"), "the monitor.recovered webhook")
    new Webhook(signing_secret).verify(recovered.raw, recovered.headers)
    expect(recovered.body).toMatchObject({ id: failed.body.id, status: "resolved", resolution_notes: "recovered", monitor_id: monitor.id })
    history = ((await (await svc.call(`/v1/alerts/history?source=monitor`, { key })).json()) as any).alerts
    expect(history).toEqual([expect.objectContaining({ id: failed.body.id, status: "resolved", resolution_notes: "recovered", source: "monitor" })])
    expect((await get())).toMatchObject({ status: "up", open_alert_id: null, consecutive_failures: 0 })

    // results: newest first, cursor paging covers every run exactly once
    const all = await results("?limit=500")
    expect(all.results.length).toBeGreaterThanOrEqual(5)
    const times = all.results.map((x: any) => Date.parse(x.started_at))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    expect(all.results[0]).toMatchObject({ ok: true, summary: expect.stringMatching(/^status 200 in/), report: { status: { code: 200, ok: true } } })
    expect(all.results.some((x: any) => !x.ok && x.report.status.code === 503)).toBe(true)
    const paged: Array<string> = []
    let cursor = ""
    for (let i = 0; i < 50; i++) {
      const page = await results(`?limit=2${cursor}`)
      paged.push(...page.results.map((x: any) => x.id))
      if (page.next_before === null) break
      cursor = `&before=${page.next_before}`
    }
    const all2 = await results("?limit=500")
    expect(paged.slice(0, all.results.length)).toEqual(all.results.map((x: any) => x.id))
    expect(new Set(paged).size).toBe(paged.length)
    expect(all2.results.length).toBeGreaterThanOrEqual(all.results.length)
    for (const q of ["?limit=0", "?limit=501", "?before=xyz", "?limit=abc"]) {
      expect((await svc.call(`/v1/monitors/${monitor.id}/results${q}`, { key })).status).toBe(400)
    }

    // uptime over the current month: one closed incident, figures from the same runs
    const uptime = (await (await svc.call(`/v1/monitors/${monitor.id}/uptime?period=7d`, { key })).json()) as any
    expect(uptime.period).toBe("7d")
    expect(uptime.runs).toBeGreaterThanOrEqual(all.results.length)
    expect(uptime.ok_runs).toBeLessThan(uptime.runs)
    expect(uptime.uptime_percentage).toBeCloseTo((100 * uptime.ok_runs) / uptime.runs, 1)
    expect(uptime.incidents.length).toBe(1)
    expect(uptime.incidents[0].ended_at).not.toBeNull()
    expect(uptime.p50_ms).toBeGreaterThan(0)
    expect(uptime.p95_ms).toBeGreaterThanOrEqual(uptime.p50_ms)
    expect((await svc.call(`/v1/monitors/${monitor.id}/uptime?period=1y`, { key })).status).toBe(400)

    // every run is a request of category `monitors`
    await svc.flushLog()
    const logged = await svc.sql<{ n: number }>("SELECT COUNT(*) AS n FROM request_log WHERE category = 'monitors' AND operation = 'monitorRun'")
    expect(logged[0].n).toBeGreaterThanOrEqual(all.results.length)
    expect(hits).toBeGreaterThanOrEqual(all.results.length)
  } finally {
    await svc.stop()
    target.stop(true)
    rx.server.stop(true)
  }
}, 60_000)
