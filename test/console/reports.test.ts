/**
 * Analyses as a person reads them, in the browser: content freshness (grade and score first,
 * dates as a table, recommendations as a list) and WAF detection against a loopback page; zone
 * hygiene (grade, score, findings by severity) against a loopback nameserver.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Browser } from "playwright-core"
import { ROOT_RECORDS, startDnsServer, type TestDnsServer } from "../support/dnsServer"
import { startService, type TestService } from "../support/service"
import { launch, openPage, signIn } from "./browser"

let service: TestService
let browser: Browser
let site: ReturnType<typeof Bun.serve>
let key: string
let dns: TestDnsServer

beforeAll(async () => {
  dns = await startDnsServer(ROOT_RECORDS)
  const z = "console.zone.test"
  dns.set(z, "NS", [`ns1.${z}`])
  dns.set(z, "SOA", [{ mname: `ns1.${z}`, rname: `h.${z}`, serial: 1, refresh: 60, retry: 7200, expire: 1209600, minimum: 3600 }])
  dns.set(`ns1.${z}`, "A", ["127.0.0.1"])
  service = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: dns.port }], dnsAuthPort: dns.port, dnsTimeoutMs: 500, ctBudgetMs: 300 })
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      new Response(
        `<html><head><meta property="article:published_time" content="2026-01-15T08:00:00Z"><meta property="article:modified_time" content="2026-02-01T08:00:00Z"></head><body><h1>News</h1></body></html>`,
        { headers: { "content-type": "text/html", server: "cloudflare", "cf-ray": "8a1b2c3d4e5f-LHR", "cache-control": "no-store" } }
      )
  })
  key = (await service.newKey("developer")).key
  browser = await launch()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  site?.stop(true)
  await service?.stop()
  await dns?.close()
})

const run = async (operation: string, tab: string, value: string, name: string) => {
  const w = await openPage(browser)
  await signIn(w.page, service.baseUrl, key)
  await w.page.getByRole("button", { name: "Run an analysis" }).click()
  await w.page.getByRole("button", { name: tab }).click()
  const form = w.page.locator(`form[data-operation=${operation}]`)
  await form.locator("input").first().fill(value)
  await form.getByRole("button", { name: "Run" }).click()
  const panel = w.page.locator(`#analysis-${operation}`)
  await panel.locator("details.raw, .error").first().waitFor()
  if (await panel.locator(".error").count()) throw new Error(`the console showed: ${await panel.locator(".error").textContent()}`)
  await w.shot(name)
  return w
}

describe("console reports", () => {
  test("content freshness: grade and score first, dates as a table, recommendations as a list", async () => {
    const w = await run("freshness", "Content freshness", `http://127.0.0.1:${site.port}/`, "analysis-freshness")
    const report = w.page.locator("#analysis-freshness .report")
    const api = await (await service.call(`/v1/domain/content-freshness?domain=${encodeURIComponent(`http://127.0.0.1:${site.port}/`)}`, { key })).json() as any
    // The first thing in the report is the grade, then the score.
    expect(await report.locator(".headline .grade").first().textContent()).toBe(api.grade)
    expect(await report.locator(".headline .score").first().textContent()).toBe(`Score ${api.score} / 100`)
    const dates = report.locator("table").filter({ has: w.page.locator("caption", { hasText: "Dates found" }) })
    expect(await dates.locator("tbody tr").count()).toBe(api.allDatesFound.length)
    expect(await dates.textContent()).toContain("2026-01-15 08:00 UTC")
    const recs = report.locator(".report-list").filter({ hasText: "Recommendations" }).locator("li")
    expect(await recs.count()).toBe(api.recommendations.length)
    expect(w.cspViolations).toEqual([])
    await w.page.context().close()
  }, 30_000)

  test("WAF detection names the provider and lists its evidence", async () => {
    const w = await run("waf", "WAF detection", `http://127.0.0.1:${site.port}/`, "analysis-waf")
    const report = w.page.locator("#analysis-waf .report")
    expect(await report.locator(".headline-title").textContent()).toBe("Protected by Cloudflare")
    expect(await report.locator("table").textContent()).toContain("server: Server: cloudflare")
    expect(w.cspViolations).toEqual([])
    await w.page.context().close()
  }, 30_000)

  test("zone hygiene: grade and score first, findings with their severity, checks as a table", async () => {
    const w = await run("zone", "Zone hygiene", "console.zone.test", "analysis-zone")
    const report = w.page.locator("#analysis-zone .report")
    const api = await (await service.call("/v1/dns/zone-hygiene?domain=console.zone.test", { key })).json() as any
    expect(await report.locator(".headline .grade").textContent()).toBe(api.hygiene_grade)
    expect(await report.locator(".headline .score").first().textContent()).toBe(`Score ${api.hygiene_score} / 100`)
    const findings = report.locator(".report-list.findings li")
    expect(api.findings.length).toBeGreaterThan(0) // one nameserver, SOA refresh 60: at least those
    expect(await findings.count()).toBe(api.findings.length)
    expect(await findings.first().locator(".badge").textContent()).toBe(api.findings[0].severity)
    expect(await report.locator("table tbody tr").count()).toBe(api.checks.length)
    expect(w.cspViolations).toEqual([])
    await w.page.context().close()
  }, 45_000)
})
