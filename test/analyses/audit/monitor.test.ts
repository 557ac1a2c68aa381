/**
 * The `audit` monitor kind: its verdict as table tests (the grade, the watched checks, what is
 * new since the previous run, what the summary names), and monitors run by the scheduler against
 * the audit world through the REST API (MONITOR_MIN_INTERVAL_S=1 there, so the kind's floor is 10 s).
 */
import { beforeAll, describe, expect, test } from "bun:test"
import { type CheckId, checksOf, SECTIONS } from "../../../src/analyses/audit/checks"
import { decided } from "../../../src/analyses/audit/judge"
import type { DomainAuditReport } from "../../../src/analyses/audit/schema"
import { summarizeAudit } from "../../../src/analyses/audit/score"
import { evaluateAudit } from "../../../src/product/monitors/kinds/audit"
import { until } from "../../support/process"
import { type AuditWorld, sharedAuditWorld } from "./world/world"

/** A report (through the audit's own scoring) whose given checks fail and every other passes; `grade` overrides. */
const report = (failed: ReadonlyArray<string>, grade?: DomainAuditReport["grade"]): DomainAuditReport => {
  const s = summarizeAudit(Object.fromEntries(SECTIONS.map((x) => [x, checksOf(x).map((id: CheckId) => decided(id, !failed.includes(id)))])))
  return {
    domain: "x.lab", checked_at: "2026-05-01T10:00:00.000Z", timings_ms: { total: 1, web: 1, mail: 1, dns: 1, exposure: 1 },
    ...s,
    ...(grade === undefined ? {} : { grade, score: grade === null ? null : 100 }),
    reports: { security_headers: null, tls: null, email: null, zone_hygiene: null, takeover: null, blocklist: null }
  }
}

describe("evaluateAudit", () => {
  test("ok when the grade holds and no watched check failed; the summary gives the grade and the failures", () => {
    const v = evaluateAudit({ grade_below: "C", check_failed: ["mail_spf"] }, report(["web_hsts"]), null)
    expect(v.ok).toBe(true)
    expect(v.summary).toBe("grade A (score 98); 1 check failed")
    expect(v.baseline?.failed_checks).toEqual(["web_hsts"])
  })

  test("a grade below the condition", () => {
    const v = evaluateAudit({ grade_below: "B" }, report([], "C"), null)
    expect(v.ok).toBe(false)
    expect(v.summary).toStartWith("grade C below B; ")
  })

  test("a watched check that fails: new on the first run, still failing on the next, new again after it passed", () => {
    const c = { check_failed: ["mail_spf", "dns_dnssec"] as Array<any> }
    const first = evaluateAudit(c, report(["mail_spf", "web_hsts"]), null)
    expect(first.ok).toBe(false)
    expect(first.summary).toBe("newly failed: mail_spf; grade A (score 94)")
    // Every failed check is listed as new in the kept report, watched or not.
    expect((first.report as any).newly_failed).toEqual(["web_hsts", "mail_spf"])
    const second = evaluateAudit(c, report(["mail_spf", "dns_dnssec"]), first.baseline)
    expect(second.ok).toBe(false)
    expect(second.summary).toBe("newly failed: dns_dnssec; still failing: mail_spf; grade A (score 94)")
    const fixed = evaluateAudit(c, report([]), second.baseline)
    expect(fixed.ok).toBe(true)
    expect(evaluateAudit(c, report(["mail_spf"]), fixed.baseline).summary).toStartWith("newly failed: mail_spf")
  })

  test("a check that could not be decided is no failure; no complete section gives no grade to compare", () => {
    const r = report([], null)
    expect(evaluateAudit({ grade_below: "A", check_failed: ["mail_spf"] }, r, null)).toMatchObject({ ok: true, summary: "no section complete; 0 checks failed" })
  })

  test("the kept report is the card without the underlying reports", () => {
    const v = evaluateAudit({}, report(["web_hsts"]), null)
    expect(Object.keys(v.report as object).sort()).toEqual(["checked_at", "domain", "findings", "grade", "limitations", "newly_failed", "score", "sections"])
  })
})

describe("monitors of kind audit, run by the scheduler", () => {
  let world: AuditWorld
  beforeAll(async () => {
    world = await sharedAuditWorld()
  }, 240_000)

  const create = (body: Record<string, unknown>) =>
    world.call("main", "/v1/monitors", world.keys.pro, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "audit", interval_seconds: 10, cooldown_minutes: 0, ...body })
    })

  test("bare.lab fails the watched checks (named in the summary); full.lab is ok", async () => {
    const bad = await create({ name: "bare", target: "bare.lab", conditions: { check_failed: ["mail_spf", "dns_dnssec", "web_hsts"] } })
    expect(bad.status).toBe(201)
    const good = await create({ name: "full", target: "https://full.lab/", conditions: { grade_below: "B", check_failed: ["mail_spf"] } })
    expect(good.status).toBe(201)
    const [b, g] = [((await bad.json()) as any).monitor, ((await good.json()) as any).monitor]
    expect(g.target).toBe("full.lab")
    expect(b.conditions).toEqual({ check_failed: ["mail_spf", "dns_dnssec", "web_hsts"] })
    const first = (id: string) =>
      until(async () => ((await (await world.call("main", `/v1/monitors/${id}/results`, world.keys.pro)).json()) as any).results[0], `the first run of ${id}`, 60_000)
    const br = await first(b.id)
    expect(br.ok).toBe(false)
    expect(br.summary).toStartWith("newly failed: web_hsts, mail_spf, dns_dnssec; ")
    expect(br.report.sections.mail.checks.find((c: any) => c.id === "mail_spf").passed).toBe(false)
    const gr = await first(g.id)
    expect(gr.ok).toBe(true)
    expect(gr.summary).toBe("grade A (score 100); 0 checks failed")
    // The world is shared with other files: its monitors stop here.
    for (const id of [b.id, g.id]) expect((await world.call("main", `/v1/monitors/${id}`, world.keys.pro, { method: "DELETE" })).status).toBeLessThan(300)
  }, 90_000)

  test.each([
    [{ target: "bare.lab", interval_seconds: 5 }, "interval"],
    [{ target: "bare.lab", conditions: { check_failed: ["mail_nope"] } }, "check_failed"],
    [{ target: "bare.lab", conditions: { grade_below: "E" } }, "grade_below"],
    [{ target: "192.0.2.1" }, "target"]
  ])("%j is refused: 400 naming %s", async (body, says) => {
    const r = await create({ name: "x", ...body })
    expect(r.status).toBe(400)
    const e = ((await r.json()) as any).error
    expect(e.code).toBe("invalid_request")
    expect(e.message).toContain(says)
  })
})
