/**
 * The lookalike domains form in the browser, against the real service on the lookalikes lab
 * (NSD and Unbound, web servers on lab addresses): the count and risk tally first, one row per
 * registered lookalike riskiest first (Unicode and punycode, fuzzer, records, page similarity),
 * the permutations by fuzzer, the limitations; every figure compared with the JSON the page itself
 * received; readable at 390 px; an unknown fuzzer shows the API's message.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Browser } from "playwright-core"
import { parseResolverList } from "../../src/platform/Config"
import { DOMAIN, type LookalikeLab, startLookalikeLab } from "../analyses/lookalikes/lookalikeLab"
import { startService, type TestService } from "../support/service"
import { launch, openPage, signIn } from "./browser"

let lab: LookalikeLab
let service: TestService
let browser: Browser
let key: string

beforeAll(async () => {
  lab = await startLookalikeLab()
  service = await startService({ dnsResolvers: parseResolverList(lab.resolver), allowPrivateTargets: true })
  key = (await service.newKey("developer")).key
  browser = await launch()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await service?.stop()
  await lab?.stop()
})

// The fuzzers of the planted copies, mail servers and the SERVFAIL zone; not those of the slow site.
const FUZZERS = "cyrillic,homoglyph,hyphenation,addition,subdomain,vowel-swap"

const open = async (width = 1280) => {
  const w = await openPage(browser, width)
  await signIn(w.page, service.baseUrl, key)
  await w.page.getByRole("button", { name: "Run an analysis" }).click()
  await w.page.getByRole("button", { name: "Lookalike domains", exact: true }).click()
  return { w, form: w.page.locator("form[data-operation=lookalikes]") }
}

const run = async (width = 1280) => {
  const { w, form } = await open(width)
  await form.locator("[name=domain]").fill(DOMAIN)
  await form.locator("[name=fuzzers]").fill(FUZZERS)
  const answer = w.page.waitForResponse((r) => r.url().includes("/v1/security/lookalikes"), { timeout: 60_000 })
  await form.getByRole("button", { name: "Run" }).click()
  const response = await answer
  expect(response.status()).toBe(200)
  const api = (await response.json()) as any
  const panel = w.page.locator("#analysis-lookalikes")
  await panel.locator("details.raw, .error").first().waitFor()
  return { w, api, report: panel.locator(".report") }
}

describe("console: lookalike domains", () => {
  test("count and risks first, then each lookalike riskiest first with what it has, the fuzzers, the limitations", async () => {
    const { w, api, report } = await run()
    await w.shot("analysis-lookalikes")
    const count = (risk: string) => api.lookalikes.filter((l: any) => l.risk === risk).length
    expect(api.lookalikes.length).toBeGreaterThan(5)
    expect(await report.locator("[data-testid=lookalike-count]").textContent()).toBe(String(api.lookalikes.length))
    expect(await report.locator(".headline .score").textContent()).toContain(`${count("high")} high · ${count("medium")} medium · ${count("low")} low risk · ${api.permutations.toLocaleString("en-US")} permutations`)
    const rows = report.locator("table").filter({ hasText: "Registered lookalikes, riskiest first" }).locator("tbody tr")
    expect(await rows.count()).toBe(api.lookalikes.length)
    const risks = await rows.locator("[data-risk]").allTextContents()
    expect(risks).toEqual([...risks].sort((a, b) => ["high", "medium", "low"].indexOf(a) - ["high", "medium", "low"].indexOf(b)))
    for (const l of api.lookalikes) {
      const row = rows.filter({ has: w.page.locator(`[data-lookalike="${l.domain}"]`) })
      const cells = row.locator("td")
      expect(await cells.nth(0).textContent()).toBe(l.risk)
      expect(await cells.nth(1).locator("strong").textContent()).toBe(l.unicode)
      expect(await cells.nth(2).textContent()).toBe(l.fuzzer)
      expect(await cells.nth(4).textContent()).toBe(l.web_similarity === null ? "–" : `${l.web_similarity}%`)
      if (l.mail_capable) expect(await cells.nth(3).textContent()).toContain("(accepts mail)")
    }
    // The Cyrillic spelling: Unicode shown, punycode under it.
    const cyrillic = rows.filter({ has: w.page.locator('[data-lookalike="xn--80akujkc6ly7a.lab"]') })
    expect(await cyrillic.locator("td").nth(1).textContent()).toBe("асмеѕһор.labxn--80akujkc6ly7a.lab")
    const fuzzers = report.locator("table").filter({ hasText: "Permutations by fuzzer" }).locator("tbody tr")
    expect(await fuzzers.count()).toBe(Object.keys(api.by_fuzzer).length)
    const limitations = await report.locator(".report-list").filter({ hasText: "Limitations" }).locator("li").allTextContents()
    expect(limitations).toEqual(api.limitations)
    expect(w.cspViolations).toEqual([])
    expect(w.pageErrors).toEqual([])
    await w.page.context().close()
  }, 90_000)

  test("readable at 390 px: the report does not scroll the page sideways", async () => {
    const { w, api, report } = await run(390)
    await w.shot("analysis-lookalikes-390")
    expect(await report.locator("[data-testid=lookalike-count]").textContent()).toBe(String(api.lookalikes.length))
    expect(await w.page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBeLessThanOrEqual(0)
    await w.page.context().close()
  }, 90_000)

  test("an unknown fuzzer: the API's message", async () => {
    const { w, form } = await open()
    await form.locator("[name=domain]").fill(DOMAIN)
    await form.locator("[name=fuzzers]").fill("homoglyph,typo")
    await form.getByRole("button", { name: "Run" }).click()
    const error = w.page.locator("#analysis-lookalikes .error")
    await error.waitFor()
    const api = (await (await service.call(`/v1/security/lookalikes?domain=${DOMAIN}&fuzzers=homoglyph,typo`, { key })).json()) as any
    expect(await error.textContent()).toBe(api.error.message)
    await w.page.context().close()
  }, 30_000)
})
