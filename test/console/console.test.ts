/**
 * The console in a real browser (Chromium headless via playwright-core) against the real service
 * in-process on loopback: sign-in, charts drawn from traffic the test made, alert rules and
 * alerts, an http-check against a loopback target, and no CSP violation anywhere.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Browser } from "playwright-core"
import { makeRows, startCrtSh, type FakeCrtSh } from "../ct/crtsh"
import { startService, type TestService } from "../support/service"
import { consoleHeaders } from "../../src/surfaces/console/page"
import { launch, openPage, signIn, type WatchedPage } from "./browser"

let service: TestService
let browser: Browser
let target: ReturnType<typeof Bun.serve>
let key: string
let crt: FakeCrtSh

beforeAll(async () => {
  crt = startCrtSh()
  crt.set("paged.example", { kind: "rows", rows: makeRows("paged.example", 25) })
  service = await startService({ alertEvalIntervalMs: 250, ctAggregatorUrl: crt.url, ctBudgetMs: 2000 })
  target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new URL(req.url).pathname === "/missing"
        ? new Response("gone", { status: 404 })
        : new Response("<html><body>hello</body></html>", {
            headers: { "content-type": "text/html", "x-content-type-options": "nosniff", "strict-transport-security": "max-age=600" }
          })
  })
  key = (await service.newKey("enterprise")).key
  // Traffic the charts will show: successes and client errors in several categories.
  for (let i = 0; i < 6; i++) {
    await service.call(`/v1/network/http-check?url=${encodeURIComponent(`http://127.0.0.1:${target.port}/`)}`, { key })
  }
  await service.call(`/v1/network/http-check?url=${encodeURIComponent(`http://127.0.0.1:${target.port}/missing`)}`, { key })
  await service.call("/v1/network/http-check", { key }) // 400: no url
  await service.call("/v1/analytics/usage", { key })
  // CT answers are cached: a miss, then two hits for the cache report.
  for (let i = 0; i < 3; i++) await service.call("/v1/domain/ct-logs?domain=paged.example&limit=5", { key })
  await service.flushLog()
  browser = await launch()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  target?.stop(true)
  await service?.stop()
  await crt?.stop()
})

const clean = (w: WatchedPage) => {
  expect(w.cspViolations).toEqual([])
  expect(w.pageErrors).toEqual([])
}

describe("console", () => {
  test("every /console response carries the CSP (404 and 405 too); the page holds no inline script or style", async () => {
    for (const path of ["/console", "/console/app.js", "/console/app.css", "/console/nope"]) {
      const res = await fetch(service.baseUrl + path)
      const csp = res.headers.get("content-security-policy") ?? ""
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("style-src 'self'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).not.toContain("unsafe-inline")
      if (path === "/console") {
        const html = await res.text()
        expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i)
        expect(html).not.toMatch(/\sstyle=|<style/i)
        expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/)
      }
      if (path === "/console/nope") expect(res.status).toBe(404)
      else expect(res.status).toBe(200)
    }
    const post = await fetch(`${service.baseUrl}/console`, { method: "POST" })
    expect(post.status).toBe(405)
    expect(post.headers.get("allow")).toBe("GET, HEAD")
    expect(post.headers.get("content-security-policy")).toContain("default-src 'none'")
  }, 30_000)

  test("the CSP watcher can fail: an inline script and style under the console's headers are reported", async () => {
    const bad = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response(`<!doctype html><p style="color:red">x</p><script>document.title = "ran"</script>`, { headers: consoleHeaders("text/html") })
    })
    try {
      const w = await openPage(browser)
      await w.page.goto(`http://127.0.0.1:${bad.port}/`)
      await w.page.waitForTimeout(200)
      expect(await w.page.title()).not.toBe("ran")
      expect(w.cspViolations.some((m) => m.includes("script-src"))).toBe(true)
      expect(w.cspViolations.some((m) => m.includes("style-src"))).toBe(true)
      await w.page.context().close()
    } finally {
      bad.stop(true)
    }
  }, 30_000)

  test("a wrong key shows the API's 401 message and stores nothing", async () => {
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, "di_wrong_key")
    const alert = w.page.getByRole("alert")
    await alert.waitFor()
    const text = (await alert.textContent()) ?? ""
    const api = await (await service.call("/v1/analytics/usage", { key: "di_wrong_key" })).json() as any
    expect(text).toBe(api.error.message)
    expect(await w.page.evaluate(() => sessionStorage.length)).toBe(0)
    await w.shot("wrong-key")
    clean(w)
    await w.page.context().close()
  }, 30_000)

  test("overview, performance and cache draw the test's traffic; sign-out clears the key", async () => {
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("heading", { name: "Overview" }).waitFor()
    expect(await w.page.evaluate(() => Object.values(sessionStorage))).toHaveLength(1)
    expect(w.page.url()).not.toContain("di_")
    await w.page.locator(".chart canvas").first().waitFor()
    const categories = await w.page.locator("section.card table").first().textContent()
    expect(categories).toContain("network")
    expect(await w.page.locator(".stat-value").nth(3).textContent()).toMatch(/^\d+$/)
    await w.shot("overview-1280")

    await w.page.getByRole("button", { name: "Performance" }).click()
    await w.page.getByRole("heading", { name: "Performance" }).waitFor()
    await w.page.locator(".chart canvas").nth(2).waitFor()
    expect(await w.page.locator(".chart canvas").count()).toBe(3)
    // The error-rate series has a point above zero: 2 of the requests were 4xx.
    expect(await w.page.locator(".stat").filter({ hasText: "Error rate" }).locator(".stat-value").textContent()).not.toBe("0 %")
    await w.shot("performance-1280")

    await w.page.getByRole("button", { name: "Cache" }).click()
    await w.page.getByRole("heading", { name: "Cache" }).waitFor()
    const endpoints = w.page.locator("section.card table")
    await endpoints.waitFor()
    expect(await endpoints.textContent()).toContain("/v1/domain/ct-logs")
    expect(await w.page.locator(".stat").filter({ hasText: "Hit rate" }).locator(".stat-value").textContent()).toBe("66.7 %")
    await w.shot("cache-1280")

    // A key the service stops accepting mid-session (here: replaced in storage) brings back the
    // sign-in form with the API's message, and the stored key is gone.
    await w.page.evaluate(`sessionStorage.setItem(sessionStorage.key(0), "di_0000000000000000_revoked")`)
    await w.page.getByRole("button", { name: "Overview" }).click()
    await w.page.getByLabel("API key").waitFor()
    const refusal = await (await service.call("/v1/analytics/usage", { key: "di_0000000000000000_revoked" })).json() as any
    expect(await w.page.getByRole("alert").textContent()).toBe(refusal.error.message)
    expect(await w.page.evaluate(() => sessionStorage.length)).toBe(0)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("heading", { name: "Overview" }).waitFor()

    await w.page.getByRole("button", { name: "Sign out" }).click()
    await w.page.getByLabel("API key").waitFor()
    expect(await w.page.evaluate(() => sessionStorage.length)).toBe(0)
    clean(w)
    await w.page.context().close()
  }, 30_000)

  test("CT logs page through the aggregator's certificates", async () => {
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("button", { name: "Run an analysis" }).click()
    await w.page.getByRole("button", { name: "CT logs" }).click()
    const form = w.page.locator("form[data-operation=ct]")
    await form.getByLabel("Domain").fill("paged.example")
    await form.getByLabel("Page size").fill("10")
    await form.getByRole("button", { name: "Run" }).click()
    const rows = w.page.locator("#analysis-ct tbody tr")
    await w.page.getByText(/entries 1–10 \(more available\)/).waitFor()
    expect(await rows.count()).toBe(10)
    await w.page.getByRole("button", { name: "Next page" }).click()
    await w.page.getByText(/entries 11–20/).waitFor()
    await w.page.getByRole("button", { name: "Next page" }).click()
    await w.page.getByText(/entries 21–25 ·/).waitFor()
    expect(await rows.count()).toBe(5)
    expect(await w.page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true)
    await w.shot("analysis-ct-logs")
    clean(w)
    await w.page.context().close()
  }, 30_000)

  test("readable at 390 px: no view scrolls the page sideways", async () => {
    const w = await openPage(browser, 390, 844)
    await signIn(w.page, service.baseUrl, key)
    await w.page.locator(".chart canvas").first().waitFor()
    const overflow = () => w.page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    expect(await overflow()).toBeLessThanOrEqual(0)
    await w.shot("overview-390")
    for (const [view, heading] of [["Performance", "Performance"], ["Cache", "Cache"], ["Alerts", "History"], ["Run an analysis", "HTTP check"]] as const) {
      await w.page.getByRole("button", { name: view, exact: true }).click()
      await w.page.getByRole("heading", { name: heading, exact: true }).waitFor()
      await w.page.waitForTimeout(100)
      expect(await overflow()).toBeLessThanOrEqual(0)
      await w.shot(`${view.toLowerCase().replace(/ /g, "-")}-390`)
    }
    clean(w)
    await w.page.context().close()
  }, 30_000)
})
