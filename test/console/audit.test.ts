/**
 * The Audit page and the audit monitor form in the browser (Chromium headless via playwright-core)
 * against the real service in the audit world (test/analyses/audit/world/): the grade, each
 * section's status and every check row are compared with the JSON the page itself received; an
 * underlying report opens in its own operation's view; the API's message for a bad domain; an
 * audit monitor created through its own form with its conditions.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Browser, Page } from "playwright-core"
import { type AuditWorld, sharedAuditWorld } from "../analyses/audit/world/world"
import { launch, openPage, signIn } from "./browser"

let world: AuditWorld
let browser: Browser

beforeAll(async () => {
  world = await sharedAuditWorld()
  browser = await launch()
}, 240_000)

afterAll(async () => {
  await browser?.close()
})

/** Runs an audit from the page; the JSON the page received. */
const runAudit = async (page: Page, domain: string, off: ReadonlyArray<string> = []) => {
  await page.getByRole("button", { name: "Audit", exact: true }).click()
  const form = page.locator("form.audit-form")
  await form.getByLabel("Domain").fill(domain)
  for (const s of off) await form.locator(`[name=section-${s}]`).uncheck()
  const answer = page.waitForResponse((r) => r.url().includes("/v1/domain/audit"), { timeout: 90_000 })
  await form.getByRole("button", { name: "Run the audit" }).click()
  const response = await answer
  const api = (await response.json()) as any
  if (response.status() === 200) await page.locator("#audit .audit-card").waitFor()
  return { status: response.status(), api }
}

describe("the Audit page", () => {
  test("the report card: grade, each section and check as the API gave them; an underlying report in its own view", async () => {
    const w = await openPage(browser)
    await signIn(w.page, world.url.main, world.keys.developer)
    const { status, api } = await runAudit(w.page, "full.lab")
    expect(status).toBe(200)
    await w.shot("audit-full")
    const card = w.page.locator("#audit .audit-card")
    expect(await card.locator(".headline .grade").textContent()).toBe(api.grade)
    expect(await card.locator(".headline .score").first().textContent()).toBe(`Score ${api.score} / 100`)
    for (const name of ["web", "mail", "dns", "exposure"]) {
      const section = card.locator(`[data-section=${name}]`)
      expect(await section.locator("[data-status]").textContent()).toBe(api.sections[name].status)
      const rows = section.locator("tbody tr")
      expect(await rows.count()).toBe(api.sections[name].checks.length)
      for (const [i, c] of api.sections[name].checks.entries()) {
        const cells = rows.nth(i).locator("td")
        expect(await cells.nth(0).locator("[data-passed]").getAttribute("data-passed")).toBe(String(c.passed))
        expect(await cells.nth(1).textContent()).toBe(c.id)
        expect(await cells.nth(2).textContent()).toBe(c.severity)
        expect(await cells.nth(3).textContent()).toBe(c.summary)
      }
    }
    // Every report the audit made is one click away.
    expect(await card.locator(".underlying [data-report]").evaluateAll((els) => els.map((e) => e.getAttribute("data-report"))))
      .toEqual(Object.keys(api.reports).filter((k) => api.reports[k] !== null))
    await card.locator(".underlying [data-report=zone_hygiene]").click()
    const detail = w.page.locator("#audit-report")
    await detail.locator("[data-open-report=zone_hygiene]").waitFor()
    expect(await detail.locator(".headline .grade").textContent()).toBe(api.reports.zone_hygiene.hygiene_grade)
    // A check's link opens the report it was judged from.
    await card.locator("[data-section=web] tbody tr").filter({ has: w.page.locator("[data-check=web_tls]") }).locator("[data-report]").click()
    await detail.locator("[data-open-report=tls]").waitFor()
    expect(await detail.locator(".headline .grade").textContent()).toBe(api.reports.tls.grade)
    expect(w.cspViolations).toEqual([])
    expect(w.pageErrors).toEqual([])
    await w.page.context().close()
  }, 120_000)

  test("sections not asked are skipped; findings and their severities; a bad domain shows the API's message", async () => {
    const w = await openPage(browser)
    await signIn(w.page, world.url.main, world.keys.developer)
    const { api } = await runAudit(w.page, "bare.lab", ["web", "dns"])
    expect(api.sections.web.status).toBe("skipped")
    const card = w.page.locator("#audit .audit-card")
    expect(await card.locator("[data-section=web] [data-status]").textContent()).toBe("skipped")
    expect(await card.locator("[data-section=web] tbody tr").count()).toBe(0)
    const findings = await card.locator(".findings li").allTextContents()
    expect(findings).toEqual(api.findings.map((f: any) => `${f.severity} ${f.check}: ${f.message}`))
    expect(findings.length).toBeGreaterThan(5)
    const recommendations = await card.locator(".report-list").filter({ hasText: "Recommendations" }).locator("li").allTextContents()
    expect(recommendations).toEqual(api.recommendations)

    const bad = await runAudit(w.page, "https://bare.lab/x")
    expect(bad.status).toBe(400)
    const error = w.page.locator("#audit .error")
    await error.waitFor()
    expect(await error.textContent()).toBe(bad.api.error.message)
    expect(w.pageErrors).toEqual([])
    await w.page.context().close()
  }, 120_000)
})

test("an audit monitor through its own form: the kind, its conditions", async () => {
  const w = await openPage(browser)
  await signIn(w.page, world.url.main, world.keys.pro)
  await w.page.getByRole("button", { name: "Monitors" }).click()
  await w.page.getByRole("heading", { name: "New monitor" }).waitFor()
  const form = w.page.locator("form.monitor-form")
  await form.getByLabel("Kind").selectOption("audit")
  await form.getByLabel("Name").fill("domain posture")
  await form.getByLabel("Target").fill("full.lab")
  // The form proposes the kind's floor at the default MONITOR_MIN_INTERVAL_S (10 x 60 s).
  expect(await form.getByLabel("Interval (seconds)").inputValue()).toBe("600")
  await form.getByLabel("Grade below").selectOption("B")
  await form.getByLabel("Checks that must pass").fill("mail_spf\nexposure_takeover")
  await form.getByLabel("Interval (seconds)").fill("3600")
  await form.getByRole("button", { name: "Create monitor" }).click()
  await w.page.locator("table").getByText("domain posture", { exact: true }).waitFor()
  const monitors = ((await (await world.call("main", "/v1/monitors", world.keys.pro)).json()) as any).monitors
  const m = monitors.find((x: any) => x.name === "domain posture")
  expect(m).toMatchObject({ kind: "audit", target: "full.lab", interval_seconds: 3600, conditions: { grade_below: "B", check_failed: ["mail_spf", "exposure_takeover"] } })
  expect((await world.call("main", `/v1/monitors/${m.id}`, world.keys.pro, { method: "DELETE" })).status).toBeLessThan(300)
  expect(w.cspViolations).toEqual([])
  expect(w.pageErrors).toEqual([])
  await w.page.context().close()
}, 60_000)
