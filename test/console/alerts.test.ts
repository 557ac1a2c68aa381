/**
 * Alerts and analyses in the browser: create a rule, pause it, let the service's own evaluator
 * raise an alert from the test's traffic, acknowledge it, resolve it with notes; run an http-check against a
 * loopback target and see its status.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Browser } from "playwright-core"
import { startService, type TestService } from "../support/service"
import { launch, openPage, signIn } from "./browser"

let service: TestService
let browser: Browser
let target: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  service = await startService({ alertEvalIntervalMs: 200 })
  target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("teapot", { status: 418 }) })
  browser = await launch()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  target?.stop(true)
  await service?.stop()
})

describe("console alerts and analyses", () => {
  test("create, pause, trigger and resolve with notes", async () => {
    const { key } = await service.newKey("pro")
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("button", { name: "Alerts" }).click()
    await w.page.getByRole("heading", { name: "New rule" }).waitFor()

    const create = async (name: string, threshold: string) => {
      const form = w.page.locator("form.rule-form")
      await form.getByLabel("Name").fill(name)
      await form.getByLabel("Metric").selectOption("request_count")
      await form.getByLabel("Operator").selectOption("gt")
      await form.getByLabel("Threshold").fill(threshold)
      await form.getByLabel("Window (minutes)").fill("5")
      await form.getByLabel("Channels").fill("ops@example.net")
      await form.getByRole("button", { name: "Create rule" }).click()
      await w.page.locator("table").getByText(name, { exact: true }).waitFor()
    }

    await create("quiet hours", "1000000")
    await w.page.getByRole("button", { name: "Pause quiet hours" }).click()
    await w.page.getByRole("button", { name: "Resume quiet hours" }).waitFor()
    const row = w.page.locator("tr").filter({ hasText: "quiet hours" })
    expect(await row.locator(".badge").textContent()).toBe("Paused")
    const rules = await (await service.call("/v1/alerts/rules", { key })).json() as any
    expect(rules.rules.find((r: any) => r.name === "quiet hours").enabled).toBe(false)

    // Edit the threshold through the form; the API has it.
    await w.page.getByRole("button", { name: "Edit quiet hours" }).click()
    await w.page.locator("form.rule-form").getByLabel("Threshold").fill("500000")
    await w.page.getByRole("button", { name: "Save changes" }).click()
    await w.page.locator("tr").filter({ hasText: "> 500000" }).waitFor()

    // The trigger: any request at all in the last 5 minutes.
    await create("any traffic", "0")
    await service.flushLog()
    const history = w.page.locator("section.card").filter({ has: w.page.getByRole("heading", { name: "History" }) })
    const pending = history.locator("tr").filter({ hasText: "any traffic" }).filter({ hasText: "pending" })
    for (let i = 0; i < 60 && (await pending.count()) === 0; i++) {
      await service.flushLog()
      await history.getByRole("button", { name: "Refresh" }).click()
      await Bun.sleep(250)
    }
    await pending.waitFor()
    await w.shot("alerts-pending")

    await pending.getByRole("button", { name: "Acknowledge" }).click()
    const acknowledged = history.locator("tr").filter({ hasText: "any traffic" }).filter({ hasText: "acknowledged" })
    await acknowledged.waitFor()
    expect(await acknowledged.getByRole("button", { name: "Acknowledge" }).count()).toBe(0)
    await acknowledged.getByRole("button", { name: "Resolve…" }).click()
    await history.getByLabel("Resolution notes").fill("raised the threshold after review")
    await history.getByRole("button", { name: "Resolve", exact: true }).click()
    const resolved = history.locator("tr").filter({ hasText: "raised the threshold after review" })
    await resolved.waitFor()
    expect(await resolved.locator(".badge").textContent()).toBe("resolved")
    expect(await resolved.textContent()).toMatch(/\d+ s|\d+ min/)
    const api = await (await service.call("/v1/alerts/history?status=resolved", { key })).json() as any
    expect(api.alerts[0].resolution_notes).toBe("raised the threshold after review")
    await w.shot("alerts-resolved")

    // Delete needs a second click.
    await w.page.getByRole("button", { name: "Delete quiet hours" }).click()
    await w.page.getByRole("button", { name: "Delete quiet hours" }).click()
    await w.page.getByText("Deleted “quiet hours”.").waitFor()
    expect(w.cspViolations).toEqual([])
    expect(w.pageErrors).toEqual([])
    await w.page.context().close()
  }, 30_000)

  test("an http-check against a loopback target shows its status, the raw JSON one click away", async () => {
    const { key } = await service.newKey("developer")
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("button", { name: "Run an analysis" }).click()
    const form = w.page.locator("form[data-operation=http-check]")
    await form.getByLabel("URL").fill(`http://127.0.0.1:${target.port}/brew`)
    await form.getByLabel("Method").selectOption("GET")
    await form.getByRole("button", { name: "Run" }).click()
    const status = w.page.locator("[data-testid=http-status]")
    await status.waitFor()
    expect(await status.textContent()).toBe("418")
    await w.page.locator(".timing-bar").waitFor()
    const raw = w.page.locator("details.raw")
    expect(await raw.locator("pre").isVisible()).toBe(false)
    await raw.locator("summary").click()
    expect(JSON.parse((await raw.locator("pre").textContent())!).status.code).toBe(418)
    await w.shot("analysis-http-check")

    // Keyboard: the WAF tab is reachable and a bad domain shows the API's 400 message.
    await w.page.getByRole("button", { name: "WAF detection" }).focus()
    await w.page.keyboard.press("Enter")
    const waf = w.page.locator("form[data-operation=waf]")
    await waf.getByLabel("Domain").fill("not a domain")
    await waf.getByLabel("Domain").press("Enter")
    await w.page.getByRole("alert").waitFor()
    expect(await w.page.getByRole("alert").textContent()).toMatch(/domain/i)
    expect(w.cspViolations).toEqual([])
    expect(w.pageErrors).toEqual([])
    await w.page.context().close()
  }, 30_000)
})
