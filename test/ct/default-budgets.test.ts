/**
 * Two CT sources at the REAL default budgets (OPERATION_DEADLINE_MS 25000, CT_BUDGET_MS 25000,
 * cut to 22000 to fit the deadline; the listener's idle timeout as configured): a source that
 * never answers ends in its own error inside the deadline, the request gets its answer and the
 * connection is not dropped. Slow (about 22 s) by design: it is the budget that is under test.
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"
import { startCrtSh, type FakeCrtSh } from "./crtsh"
import { crtRowsOf, issueCert, startCertSpotter, type FakeCertSpotter } from "./certspotter"

let crt: FakeCrtSh
let cs: FakeCertSpotter
let svc: TestService

beforeAll(async () => {
  crt = startCrtSh()
  cs = startCertSpotter()
  // Only the sources and their URLs are set: every budget and deadline is the default.
  svc = await startService({ ctSources: ["crtsh", "certspotter"], ctAggregatorUrl: crt.url, ctCertspotterUrl: cs.url })
})
afterAll(async () => {
  await svc?.stop()
  await crt?.stop()
  await cs?.stop()
})

test("Cert Spotter silent: 200 with crt.sh's answer after the cut budget; both silent: 502 before the deadline", async () => {
  const key = (await svc.newKey("developer")).key
  const cert = issueCert(["budget.example"])
  crt.set("budget.example", { kind: "rows", rows: crtRowsOf(cert, Date.parse(cert.notBefore)) })
  cs.set("budget.example", { kind: "silent" })
  crt.set("silent.example", { kind: "silent" })
  cs.set("silent.example", { kind: "silent" })
  const call = async (domain: string) => {
    const res = await svc.call(`/v1/domain/ct-logs?domain=${domain}`, { key })
    return { status: res.status, body: (await res.json()) as any }
  }
  const [one, none] = await Promise.all([call("budget.example"), call("silent.example")])
  expect(one.status).toBe(200)
  expect(one.body.total).toBe(1)
  expect(one.body.sources[1]).toMatchObject({ name: "certspotter", status: "error", detail: "Cert Spotter unavailable after 1 attempt within 22000 ms: no answer within 22000 ms" })
  expect(none.status).toBe(502)
  expect(none.body.error.code).toBe("upstream_unavailable")
  expect(none.body.error.message).toContain("within 22000 ms")
}, 60_000)
