/**
 * The blocklist page and monitor form in the browser (Chromium headless via playwright-core)
 * against the real service and the blocklist lab world (NSD with lab copies of the DNSBLs,
 * Unbound: test/analyses/blocklist/world.ts): each rendered listing and answer, the verdict line
 * and the limitations are compared with the JSON the page itself received; an address the
 * service refuses shows the API's message; a blocklist monitor is created through its own form.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Browser } from "playwright-core"
import { parseResolverList } from "../../src/platform/Config"
import { blocklistZones, DEFAULT_DOMAIN_ZONES, DEFAULT_IP_ZONES, IP } from "../analyses/blocklist/world"
import { startTakeoverLab, type TakeoverLab } from "../analyses/takeover/takeoverLab"
import { startService, type TestService } from "../support/service"
import { launch, openPage, signIn } from "./browser"

let lab: TakeoverLab
let service: TestService
let browser: Browser
let key: string

beforeAll(async () => {
  const n = 1 + Math.floor(Math.random() * 250)
  lab = await startTakeoverLab({ n, zones: blocklistZones((h) => `127.56.${n}.${h}`), web: new Map() })
  service = await startService({
    dnsResolvers: parseResolverList(lab.resolver),
    dnsTimeoutMs: 1500,
    allowPrivateTargets: true,
    // retired.lists.net fails its test points: the page shows its errors and the limitation.
    dnsblIpZones: [...DEFAULT_IP_ZONES, "retired.lists.net"],
    dnsblDomainZones: DEFAULT_DOMAIN_ZONES
  })
  key = (await service.newKey("developer")).key
  browser = await launch()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await service?.stop()
  await lab?.stop()
}, 30_000)

const openForm = async () => {
  const w = await openPage(browser)
  await signIn(w.page, service.baseUrl, key)
  await w.page.getByRole("button", { name: "Run an analysis" }).click()
  await w.page.getByRole("button", { name: "Blocklists (DNSBL)", exact: true }).click()
  return { w, form: w.page.locator("form[data-operation=blocklist]"), report: w.page.locator("#analysis-blocklist .report") }
}

describe("the blocklist page", () => {
  test("the verdict first; each listing with its list, codes and reason; every answer with its status; the addresses asked; limitations", async () => {
    const { w, form, report } = await openForm()
    await form.locator("[name=target]").fill("mailco.com")
    const answer = w.page.waitForResponse((r) => r.url().includes("/v1/security/blocklist"), { timeout: 60_000 })
    await form.getByRole("button", { name: "Run" }).click()
    const response = await answer
    expect(response.status()).toBe(200)
    const api = (await response.json()) as any
    await report.locator("details.raw").waitFor()
    await w.shot("analysis-blocklist")

    const listed = api.lists.filter((e: any) => e.status === "listed")
    expect(listed.length).toBe(3)
    expect(await report.locator(".headline-title").textContent()).toBe("Blocklists: mailco.com")
    expect(await report.locator(".blocklist-verdict").textContent()).toBe("Listed 3 times")
    const listings = report.locator("table").filter({ has: w.page.locator("caption", { hasText: "Listings" }) })
    expect(await listings.locator("caption").textContent()).toBe("Listings (3)")
    const rows = listings.locator("tbody tr")
    expect(await rows.count()).toBe(3)
    for (const [i, e] of listed.entries()) {
      const cells = rows.nth(i).locator("td")
      expect(await cells.allTextContents()).toEqual([e.item, e.zone, e.codes.join(", "), e.reason ?? "–"])
    }
    const every = report.locator("table").filter({ has: w.page.locator("caption", { hasText: "Every answer" }) })
    expect(await every.locator("caption").textContent()).toBe(`Every answer (${api.lists.length})`)
    const all = every.locator("tbody tr")
    expect(await all.count()).toBe(api.lists.length)
    for (const [i, e] of api.lists.entries()) {
      const cells = all.nth(i).locator("td")
      expect(await cells.nth(0).textContent()).toBe(e.zone)
      expect(await cells.nth(1).textContent()).toBe(e.item)
      expect(await cells.nth(2).locator("[data-status]").getAttribute("data-status")).toBe(e.status)
      expect(await cells.nth(3).textContent()).toBe(e.codes.length > 0 ? e.codes.join(", ") : "–")
      expect(await cells.nth(4).textContent()).toBe(e.reason ?? "–")
    }
    // retired.lists.net's answers are errors, never "not listed"
    expect(await every.locator("tbody tr", { hasText: "retired.lists.net" }).locator("[data-status]").evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))).toEqual(Array(5).fill("error"))
    expect(await report.locator("dt:has-text('Addresses asked') + dd").textContent()).toBe(api.ips.join(", "))
    const limitations = await report.locator(".report-list").filter({ hasText: "Limitations" }).locator("li").allTextContents()
    expect(limitations).toEqual(api.limitations)
    expect(limitations.some((l) => l.startsWith("retired.lists.net failed its RFC 5782 test points"))).toBe(true)
    expect(w.cspViolations).toEqual([])
    expect(w.pageErrors).toEqual([])
    await w.page.context().close()
  }, 120_000)

  test("an address listed nowhere says so; a refused address shows the API's message", async () => {
    const { w, form, report } = await openForm()
    await form.locator("[name=target]").fill(IP.clean)
    await form.getByRole("button", { name: "Run" }).click()
    await report.locator("details.raw").waitFor({ timeout: 60_000 })
    expect(await report.locator(".blocklist-verdict").textContent()).toBe("Listed nowhere")
    expect(await report.locator("table caption").allTextContents()).toEqual([`Every answer (${DEFAULT_IP_ZONES.length + 1})`])

    await form.locator("[name=target]").fill("169.254.169.254")
    await form.getByRole("button", { name: "Run" }).click()
    const error = w.page.locator("#analysis-blocklist .error")
    await error.waitFor()
    const api = (await (await service.call("/v1/security/blocklist?target=169.254.169.254", { key })).json()) as any
    expect(api.error.code).toBe("target_forbidden")
    expect(await error.textContent()).toBe(api.error.message)
    await w.page.context().close()
  }, 120_000)
})

test("a blocklist monitor through its own form: the kind, its condition, an address target", async () => {
  const { key: pro } = await service.newKey("pro")
  const w = await openPage(browser)
  await signIn(w.page, service.baseUrl, pro)
  await w.page.getByRole("button", { name: "Monitors" }).click()
  await w.page.getByRole("heading", { name: "New monitor" }).waitFor()
  const form = w.page.locator("form.monitor-form")
  await form.getByLabel("Kind").selectOption("blocklist")
  await form.getByLabel("Name").fill("mail server reputation")
  await form.getByLabel("Target").fill(IP.mx1)
  expect(await form.getByLabel("Interval (seconds)").inputValue()).toBe("600")
  const flag = form.getByLabel("Newly listed on a blocklist")
  if (!(await flag.isChecked())) await flag.check()
  await form.getByRole("button", { name: "Create monitor" }).click()
  await w.page.locator("table").getByText("mail server reputation", { exact: true }).waitFor()
  const monitors = ((await (await service.call("/v1/monitors", { key: pro })).json()) as any).monitors
  expect(monitors).toHaveLength(1)
  expect(monitors[0]).toMatchObject({ kind: "blocklist", target: IP.mx1, interval_seconds: 600, conditions: { listed: true } })
  expect(w.cspViolations).toEqual([])
  expect(w.pageErrors).toEqual([])
  await w.page.context().close()
}, 60_000)
