/**
 * The `ct_new_certificate` monitor over two CT sources, end to end (MONITOR_MIN_INTERVAL_S=1,
 * so the kind runs every 10 s): the first run is the baseline; a certificate that only Cert
 * Spotter lists is new on the next run, then one that only crt.sh lists; a certificate Cert
 * Spotter merely finds late (crt.sh listed it before) is not.
 */
import { expect, test } from "bun:test"
import { until } from "../support/process"
import { startService } from "../support/service"
import { startCrtSh } from "./crtsh"
import { crtRowsOf, issuanceOf, issueCert, startCertSpotter } from "./certspotter"

test("ct_new_certificate: a new certificate from either source fails the run; an old one found late does not", async () => {
  const crt = startCrtSh()
  const cs = startCertSpotter()
  const domain = "watch2.example"
  const [a, b, c, d] = [0, 1, 2, 3].map((i) => issueCert([`h${i}.${domain}`]))
  const t = (x: typeof a) => Date.parse(x.notBefore)
  crt.set(domain, { kind: "rows", rows: [...crtRowsOf(a, t(a)), ...crtRowsOf(b, t(b))] })
  const aIssuance = issuanceOf(a)
  cs.set(domain, { kind: "issuances", issuances: [aIssuance] })
  const svc = await startService({
    monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000, ctCacheTtlS: 1, ctBudgetMs: 1500,
    ctSources: ["crtsh", "certspotter"], ctAggregatorUrl: crt.url, ctCertspotterUrl: cs.url
  })
  try {
    const { key } = await svc.newKey("developer")
    const created = await (await svc.call("/v1/monitors", {
      method: "POST", key, headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "ct2", kind: "ct_new_certificate", target: domain, interval_seconds: 10, conditions: { new_certificate: true }, channels: [] })
    })).json() as any
    const results = async () => ((await (await svc.call(`/v1/monitors/${created.monitor.id}/results`, { key })).json()) as any).results
    const nth = (n: number) => until(async () => {
      const r = await results()
      return r.length >= n ? r[0] : undefined
    }, `run ${n}`, 30_000)

    expect(await nth(1)).toMatchObject({ ok: true, report: { total: 2, new_certificates: [] } })

    // Only Cert Spotter lists c; and it now also lists b, which crt.sh listed all along.
    cs.set(domain, { kind: "issuances", issuances: [aIssuance, issuanceOf(b), issuanceOf(c)] })
    const second = await nth(2)
    expect(second).toMatchObject({ ok: false, summary: "1 new certificate in CT logs", report: { total: 3 } })
    expect(second.report.new_certificates.map((n: any) => n.common_name)).toEqual([`h2.${domain}`])

    // Only crt.sh lists d.
    crt.set(domain, { kind: "rows", rows: [...crtRowsOf(a, t(a)), ...crtRowsOf(b, t(b)), ...crtRowsOf(d, t(d))] })
    const third = await nth(3)
    expect(third).toMatchObject({ ok: false, summary: "1 new certificate in CT logs", report: { total: 4 } })
    expect(third.report.new_certificates.map((n: any) => n.common_name)).toEqual([`h3.${domain}`])

    const fourth = await nth(4)
    expect(fourth).toMatchObject({ ok: true, summary: "4 certificates, 0 new" })
  } finally {
    await svc.stop()
    await crt.stop()
    await cs.stop()
  }
}, 90_000)
