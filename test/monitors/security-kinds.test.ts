/**
 * The `email_security` and `tls` monitor kinds: their verdicts as table tests, and a `tls`
 * monitor against a real `openssl s_server` (TLS 1.0-1.2, the old protocols on) that is not ok
 * for the protocols it names, while another monitor on the same server with no protocol
 * condition is ok.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import { evaluateEmail, evaluateTls } from "../../src/product/monitors/kinds/security"
import { until } from "../support/process"
import { startService, type TestService } from "../support/service"
import { type Lab, makeLab, type SServer, startSServer } from "../tls/lab"

const mail = (grade: "A" | "B" | "C" | "D" | "F", spf: string | null, dmarc: string | null, id: string | null) =>
  ({ grade, score: 90, spf: { record: spf }, dmarc: { record: dmarc }, mta_sts: { id } }) as any
const tls = (grade: string, protocols: Partial<Record<string, boolean>>) =>
  ({ grade, score: 80, protocols: { ssl3: false, tls1_0: false, tls1_1: false, tls1_2: true, tls1_3: true, ...protocols } }) as any

describe("email_security verdicts", () => {
  const base = { records: { spf: "v=spf1 -all", dmarc: "v=DMARC1; p=reject", mta_sts_id: "1" } }
  test.each([
    [{ grade_below: "B" }, mail("A", "v=spf1 -all", null, null), null, true],
    [{ grade_below: "B" }, mail("C", "v=spf1 -all", null, null), null, false],
    [{ grade_below: "B" }, mail("B", "v=spf1 -all", null, null), null, true],
    [{ record_changed: true }, mail("A", "v=spf1 -all", "v=DMARC1; p=reject", "1"), null, true], // first run: nothing to compare
    [{ record_changed: true }, mail("A", "v=spf1 -all", "v=DMARC1; p=reject", "1"), base, true],
    [{ record_changed: true }, mail("A", "v=spf1 ~all", "v=DMARC1; p=reject", "1"), base, false],
    [{ record_changed: true }, mail("A", "v=spf1 -all", "v=DMARC1; p=reject", "2"), base, false],
    [{ record_changed: false }, mail("A", "v=spf1 ~all", null, "2"), base, true]
  ] as const)("%j on grade %o", (c, r, previous, ok) => {
    const v = evaluateEmail(c as any, r, previous as any)
    expect(v.ok).toBe(ok)
    // the baseline always carries this run's records for the next comparison
    expect(v.baseline?.records).toEqual({ spf: r.spf.record, dmarc: r.dmarc.record, mta_sts_id: r.mta_sts.id })
  })
})

describe("tls verdicts", () => {
  test.each([
    [{ grade_below: "A" }, tls("A+", {}), true],
    [{ grade_below: "A" }, tls("A-", {}), false],
    [{ grade_below: "B" }, tls("T", {}), false],
    [{ grade_below: "B" }, tls("M", {}), false],
    [{ grade_below: "F" }, tls("F", {}), true],
    [{ protocol_enabled: ["tls1_0", "tls1_1"] }, tls("A", {}), true],
    [{ protocol_enabled: ["tls1_0", "tls1_1"] }, tls("B", { tls1_1: true }), false],
    [{}, tls("F", { ssl3: true }), true]
  ] as const)("%j on %o", (c, r, ok) => {
    expect(evaluateTls(c as any, r, null).ok).toBe(ok)
  })
})

describe("a tls monitor against openssl s_server", () => {
  let lab: Lab
  let server: SServer
  let svc: TestService
  beforeAll(async () => {
    lab = makeLab()
    const leaf = lab.leaf("mon", { names: ["localhost", "127.0.0.1"] })
    server = await startSServer(lab.dir, ["-cert", leaf.cert, "-key", leaf.key, "-cert_chain", lab.intermediatePath, "-no_tls1_3", "-cipher", "ALL:@SECLEVEL=0"])
    svc = await startService({ extraCaCerts: Option.some(lab.rootPath), monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000 })
  })
  afterAll(async () => {
    server?.stop()
    await svc?.stop()
  })

  test("not ok for an enabled old protocol; ok without that condition; the run's report is the TLS scan's", async () => {
    const { key } = await svc.newKey("developer")
    const create = async (body: Record<string, unknown>) => {
      const r = await svc.call("/v1/monitors", {
        method: "POST", key, headers: { "content-type": "application/json" },
        body: JSON.stringify({ kind: "tls", target: `localhost:${server.port}`, interval_seconds: 10, cooldown_minutes: 0, ...body })
      })
      expect(r.status).toBe(201)
      return ((await r.json()) as any).monitor
    }
    const strict = await create({ name: "strict", conditions: { protocol_enabled: ["tls1_0"] } })
    const lenient = await create({ name: "lenient", conditions: { grade_below: "F" } })
    expect(strict.target).toBe(`localhost:${server.port}`)
    const first = (id: string) =>
      until(async () => ((await (await svc.call(`/v1/monitors/${id}/results`, { key })).json()) as any).results[0], `the first run of ${id}`, 40_000)
    const s = await first(strict.id)
    expect(s.ok).toBe(false)
    expect(s.summary).toContain("tls1_0")
    expect(s.report.protocols).toMatchObject({ tls1_0: true, tls1_2: true, tls1_3: false })
    const l = await first(lenient.id)
    expect(l.ok).toBe(true)
    expect(l.summary).toContain(`grade ${l.report.grade}`)
  }, 60_000)
})
