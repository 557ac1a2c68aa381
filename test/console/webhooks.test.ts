/**
 * Rule secrets and test notifications in the browser: the signing secret is shown once at
 * creation and after a rotation; "Test" delivers to a loopback webhook receiver and shows the
 * outcome; the Monitors view appears and lists a monitor created through the API.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Browser } from "playwright-core"
import { startService, type TestService } from "../support/service"
import { launch, openPage, signIn } from "./browser"

let service: TestService
let browser: Browser
let receiver: ReturnType<typeof Bun.serve>
const received: Array<{ signature: string | null; event: string | null; body: any }> = []

beforeAll(async () => {
  service = await startService()
  receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      received.push({ signature: req.headers.get("webhook-signature"), event: req.headers.get("x-domain-intel-event"), body: await req.json() })
      return new Response(null, { status: 204 })
    }
  })
  browser = await launch()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  receiver?.stop(true)
  await service?.stop()
})

describe("console rule secrets, test notifications, monitors", () => {
  test("the secret is shown once at creation and after rotation; a test notification reaches the webhook", async () => {
    const { key } = await service.newKey("pro")
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("button", { name: "Alerts" }).click()
    const form = w.page.locator("form.rule-form")
    await form.getByLabel("Name").fill("hooked")
    await form.getByLabel("Threshold").fill("1000000")
    await form.getByLabel("Channels").fill(`http://127.0.0.1:${receiver.port}/hook`)
    await form.getByRole("button", { name: "Create rule" }).click()
    const secret = w.page.locator(".notice code.secret")
    await secret.waitFor()
    const first = (await secret.textContent())!
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/=]+$/)
    await w.shot("alerts-secret")
    await w.page.getByRole("button", { name: "I have saved it" }).click()
    expect(await secret.count()).toBe(0)
    // Shown once: the rules list and a reload never show it again.
    await w.page.reload()
    await w.page.getByRole("button", { name: "Alerts" }).click()
    await w.page.getByRole("button", { name: "Send a test notification for hooked" }).waitFor()
    expect(await w.page.content()).not.toContain(first)

    await w.page.getByRole("button", { name: "Send a test notification for hooked" }).click()
    await w.page.getByText(/delivered \(HTTP 204\)/).waitFor()
    expect(received.length).toBe(1)
    expect(received[0].signature).toMatch(/^v1,/)

    await w.page.getByRole("button", { name: "Rotate the signing secret of hooked" }).click()
    await secret.waitFor()
    const second = (await secret.textContent())!
    expect(second).toMatch(/^whsec_/)
    expect(second).not.toBe(first)
    expect(w.cspViolations).toEqual([])
    expect(w.pageErrors).toEqual([])
    await w.page.context().close()
  }, 30_000)

  test("the Monitors view lists a monitor created through the API", async () => {
    const { key } = await service.newKey("pro")
    const created = await service.call("/v1/monitors", {
      key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "homepage", kind: "http_check", target: `http://127.0.0.1:${receiver.port}/`, interval_seconds: 3600, enabled: false })
    })
    expect(created.status).toBe(201)
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("button", { name: "Monitors" }).click()
    const row = w.page.locator("tr").filter({ hasText: "homepage" })
    await row.waitFor()
    expect(await row.textContent()).toContain("http_check")
    expect(await row.locator(".badge").textContent()).toBe("Paused")
    await w.shot("monitors")
    expect(w.cspViolations).toEqual([])
    await w.page.context().close()
  }, 30_000)
})
