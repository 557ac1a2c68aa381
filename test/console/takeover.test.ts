/**
 * The subdomain takeover page and monitor form in the browser (Chromium headless via
 * playwright-core) against the real service and the takeover lab world (NSD, Unbound, provider
 * web servers: test/analyses/takeover/takeoverLab.ts): each rendered candidate, count and
 * limitation is compared with the JSON the page itself received; a takeover monitor is created
 * through its own form with its condition.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Browser } from "playwright-core"
import { startCrtSh, type FakeCrtSh } from "../ct/crtsh"
import { startTakeoverLab, type TakeoverLab } from "../analyses/takeover/takeoverLab"
import { labConfig, setCt, webHandlers, worldZones } from "../analyses/takeover/world"
import { startService, type TestService } from "../support/service"
import { launch, openPage, signIn } from "./browser"

let lab: TakeoverLab
let crt: FakeCrtSh
let service: TestService
let browser: Browser
let key: string

beforeAll(async () => {
  const n = 1 + Math.floor(Math.random() * 250)
  lab = await startTakeoverLab({ n, zones: worldZones((h) => `127.56.${n}.${h}`), web: webHandlers() })
  crt = startCrtSh()
  setCt(crt)
  service = await startService(labConfig(lab, crt))
  key = (await service.newKey("developer")).key
  browser = await launch()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await service?.stop()
  await crt?.stop()
  await lab?.stop()
}, 30_000)

describe("the takeover page", () => {
  test("grade first; each candidate with its confidence, chain, service and evidence; sources; limitations", async () => {
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("button", { name: "Run an analysis" }).click()
    await w.page.getByRole("button", { name: "Subdomain takeover", exact: true }).click()
    const form = w.page.locator("form[data-operation=takeover]")
    await form.locator("[name=domain]").fill("victim.com")
    await form.locator("[name=names]").fill("given-only.victim.com, streamnx.victim.com")
    const answer = w.page.waitForResponse((r) => r.url().includes("/v1/security/takeover"), { timeout: 90_000 })
    await form.getByRole("button", { name: "Run" }).click()
    const response = await answer
    expect(response.status()).toBe(200)
    const api = (await response.json()) as any
    const report = w.page.locator("#analysis-takeover .report")
    await report.locator("details.raw").waitFor()
    await w.shot("analysis-takeover")

    expect(api.candidates.length).toBeGreaterThan(10)
    expect(await report.locator(".headline .grade").textContent()).toBe(api.grade)
    expect(await report.locator(".headline .score").first().textContent()).toBe(`Score ${api.score} / 100`)
    const table = report.locator("table").filter({ has: w.page.locator("caption", { hasText: "Candidates" }) })
    expect(await table.locator("caption").textContent()).toBe(`Candidates (${api.candidates.length})`)
    const rows = table.locator("tbody tr")
    expect(await rows.count()).toBe(api.candidates.length)
    for (const [i, c] of api.candidates.entries()) {
      const cells = rows.nth(i).locator("td")
      expect(await cells.nth(0).textContent()).toBe(c.confidence)
      expect(await cells.nth(1).textContent()).toBe(c.name)
      expect(await cells.nth(3).textContent()).toBe(c.chain.length === 0 ? c.target : c.chain.join(""))
      expect(await cells.nth(4).textContent()).toBe(c.provider ?? "–")
      expect(await cells.nth(5).textContent()).toBe(c.evidence)
    }
    // The two-hop chain is shown hop by hop.
    const docs = rows.filter({ has: w.page.locator('[data-candidate="docs.victim.com"]') })
    expect(await docs.locator("ol.chain li").allTextContents()).toEqual(["docs-edge.victim.com", "victim-docs.s3.amazonaws.com"])
    expect(await report.locator("dt:has-text('Names from CT logs') + dd").textContent()).toBe(String(api.sources.ct))
    expect(await report.locator("dt:has-text('Names given') + dd").textContent()).toBe("2")
    const limitations = await report.locator(".report-list").filter({ hasText: "Limitations" }).locator("li").allTextContents()
    expect(limitations).toEqual(api.limitations)
    expect(w.cspViolations).toEqual([])
    expect(w.pageErrors).toEqual([])
    await w.page.context().close()
  }, 120_000)

  test("a clean domain says there is no candidate; a bad name shows the API's message", async () => {
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("button", { name: "Run an analysis" }).click()
    await w.page.getByRole("button", { name: "Subdomain takeover", exact: true }).click()
    const form = w.page.locator("form[data-operation=takeover]")
    await form.locator("[name=domain]").fill("wild.com")
    await form.locator("[name=names]").fill("")
    await form.getByRole("button", { name: "Run" }).click()
    const report = w.page.locator("#analysis-takeover .report")
    await report.locator("details.raw").waitFor({ timeout: 60_000 })
    expect(await report.locator("[data-candidate]").allTextContents()).toEqual(["help.wild.com"])

    await form.locator("[name=domain]").fill("clean.com")
    await form.getByRole("button", { name: "Run" }).click()
    await report.locator(".no-candidates").waitFor({ timeout: 60_000 })
    expect(await report.locator(".no-candidates").textContent()).toBe("No takeover candidate.")

    await form.locator("[name=names]").fill("x.elsewhere.com")
    await form.getByRole("button", { name: "Run" }).click()
    const error = w.page.locator("#analysis-takeover .error")
    await error.waitFor()
    const api = (await (await service.call("/v1/security/takeover?domain=clean.com&names=x.elsewhere.com", { key })).json()) as any
    expect(await error.textContent()).toBe(api.error.message)
    await w.page.context().close()
  }, 120_000)
})

test("a takeover monitor through its own form: the kind, its condition", async () => {
  const { key: pro } = await service.newKey("pro")
  const w = await openPage(browser)
  await signIn(w.page, service.baseUrl, pro)
  await w.page.getByRole("button", { name: "Monitors" }).click()
  await w.page.getByRole("heading", { name: "New monitor" }).waitFor()
  const form = w.page.locator("form.monitor-form")
  await form.getByLabel("Kind").selectOption("takeover")
  await form.getByLabel("Name").fill("dangling dns")
  await form.getByLabel("Target").fill("victim.com")
  expect(await form.getByLabel("Interval (seconds)").inputValue()).toBe("600")
  expect(await form.getByLabel("New candidate of confidence").locator("option").allTextContents()).toEqual(["—", "confirmed", "potential", "unlikely"])
  await form.getByLabel("New candidate of confidence").selectOption("confirmed")
  await form.getByRole("button", { name: "Create monitor" }).click()
  await w.page.locator("table").getByText("dangling dns", { exact: true }).waitFor()
  const monitors = ((await (await service.call("/v1/monitors", { key: pro })).json()) as any).monitors
  expect(monitors).toHaveLength(1)
  expect(monitors[0]).toMatchObject({ kind: "takeover", target: "victim.com", interval_seconds: 600, conditions: { new_candidate_confidence_at_least: "confirmed" } })
  expect(w.cspViolations).toEqual([])
  expect(w.pageErrors).toEqual([])
  await w.page.context().close()
}, 60_000)
