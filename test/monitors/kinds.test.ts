/**
 * Certificate and CT monitors end to end (MONITOR_MIN_INTERVAL_S=1, so these kinds run every
 * 10 s): a TLS server on loopback whose certificate (test-made, short-lived) the test replaces,
 * and the crt.sh stand-in whose answer gains a certificate mid-test.
 */
import { expect, test } from "bun:test"
import { Option } from "effect"
import * as tls from "node:tls"
import { Webhook } from "standardwebhooks"
import { receiver } from "../alerts/support"
import { makeRows, startCrtSh } from "../ct/crtsh"
import { until } from "../support/process"
import { startService } from "../support/service"
import { makePki } from "../support/tls"

const send = (body: unknown, key: string): RequestInit & { key: string } => ({
  method: "POST",
  key,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body)
})

test("certificate: days_left_lt fails on a short-lived certificate and recovers on renewal; CT: a new certificate fails the run", async () => {
  const pki = makePki()
  let current = pki.leaf(["localhost"], { days: 5 })
  const server = tls.createServer({
    SNICallback: (_name, cb) => cb(null, tls.createSecureContext({ cert: current.cert, key: current.key }))
  }, (socket) => socket.end())
  server.on("tlsClientError", () => {})
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const tlsPort = (server.address() as { port: number }).port

  const crtsh = startCrtSh()
  crtsh.set("watched.example", { kind: "rows", rows: makeRows("watched.example", 2) })
  const rx = receiver(0)
  const svc = await startService({
    monitorMinIntervalS: 1,
    webhookRetryBaseMs: 50,
    alertEvalIntervalMs: 3_600_000,
    extraCaCerts: Option.some(pki.caCertPath),
    ctAggregatorUrl: crtsh.url,
    ctCacheTtlS: 1
  })
  try {
    const { key } = await svc.newKey("developer")
    const cert = await (await svc.call("/v1/monitors", send({
      name: "tls", kind: "certificate", target: `localhost:${tlsPort}`, interval_seconds: 10,
      conditions: { days_left_lt: 14, invalid: true }, channels: [{ type: "webhook", url: rx.url }], cooldown_minutes: 0
    }, key))).json() as any
    expect(cert.monitor.target).toBe(`localhost:${tlsPort}`)
    const ct = await (await svc.call("/v1/monitors", send({
      name: "ct", kind: "ct_new_certificate", target: "watched.example", interval_seconds: 10,
      conditions: { new_certificate: true }, cooldown_minutes: 0
    }, key))).json() as any
    const results = async (id: string) => ((await (await svc.call(`/v1/monitors/${id}/results`, { key })).json()) as any).results

    // certificate: 4 days left < 14 → not ok, alert, signed monitor.failed
    const failed = await until(() => rx.received.find((r) => r.event === "monitor.failed"), "the certificate alert", 30_000)
    new Webhook(cert.signing_secret).verify(failed.raw, failed.headers)
    expect(failed.body.summary).toMatch(/^4 days left < 14$/)
    const first = (await results(cert.monitor.id))[0]
    expect(first).toMatchObject({ ok: false, report: { valid: true, days_left: 4 } })

    // CT: the first run is the baseline (ok)
    const ctFirst = await until(async () => (await results(ct.monitor.id))[0], "the first CT run", 30_000)
    expect(ctFirst).toMatchObject({ ok: true, report: { total: 2, new_certificates: [] } })

    // renewal and a new CT entry
    current = pki.leaf(["localhost"], { days: 25 })
    crtsh.set("watched.example", { kind: "rows", rows: makeRows("watched.example", 3) })

    const recovered = await until(() => rx.received.find((r) => r.event === "monitor.recovered"), "the certificate recovery", 30_000)
    new Webhook(cert.signing_secret).verify(recovered.raw, recovered.headers)
    expect(recovered.body).toMatchObject({ status: "resolved", resolution_notes: "recovered", summary: "valid, 24 days left" })

    const ctSecond = await until(async () => {
      const r = await results(ct.monitor.id)
      return r.length >= 2 ? r[0] : undefined
    }, "the second CT run", 30_000)
    expect(ctSecond).toMatchObject({ ok: false, summary: "1 new certificate in CT logs", report: { total: 3 } })
    expect(ctSecond.report.new_certificates.length).toBe(1)
    const ctMonitor = ((await (await svc.call(`/v1/monitors/${ct.monitor.id}`, { key })).json()) as any).monitor
    expect(ctMonitor).toMatchObject({ status: "down", open_alert_id: expect.stringMatching(/^alert_/) })
  } finally {
    await svc.stop()
    server.close()
    await crtsh.stop()
    rx.server.stop(true)
  }
}, 90_000)
