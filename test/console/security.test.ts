/**
 * The TLS and HTTP security grade forms in the browser, against the real service and real servers
 * on loopback: `openssl s_server` with a PKI the test makes (the TLS lab of test/tls), and a Bun
 * HTTPS server with that PKI's leaf for the headers grade. Each rendered figure is compared with the
 * JSON the page itself received.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import type { Browser } from "playwright-core"
import { startService, type TestService } from "../support/service"
import { type Lab, makeLab, type SServer, startSServer } from "../tls/lab"
import { launch, openPage, signIn } from "./browser"

let lab: Lab
let service: TestService
let browser: Browser
let key: string
let tls: SServer
let site: ReturnType<typeof Bun.serve>

const SECURITY_TXT = "Contact: mailto:security@localhost\nExpires: 2099-01-01T00:00:00.000Z\n"

beforeAll(async () => {
  lab = makeLab()
  const leaf = lab.leaf("console", { names: ["localhost", "127.0.0.1"] })
  // TLS 1.0 to 1.2 with SHA-1 CBC suites only: two of SSL Labs' caps apply (old protocols, no AEAD).
  tls = await startSServer(lab.dir, ["-cert", leaf.cert, "-key", leaf.key, "-cert_chain", lab.intermediatePath, "-no_tls1_3", "-cipher", "ECDHE-RSA-AES128-SHA:AES128-SHA:@SECLEVEL=0"])
  const chain = (await Bun.file(leaf.cert).text()) + (await Bun.file(lab.intermediatePath).text())
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: chain, key: await Bun.file(leaf.key).text() },
    fetch: (req) =>
      new URL(req.url).pathname === "/.well-known/security.txt"
        ? new Response(SECURITY_TXT, { headers: { "content-type": "text/plain; charset=utf-8" } })
        : new Response("<!doctype html><title>shop</title><h1>Shop</h1>", {
            headers: {
              "content-type": "text/html",
              "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
              "strict-transport-security": "max-age=63072000",
              "x-content-type-options": "nosniff",
              "x-frame-options": "DENY",
              "referrer-policy": "no-referrer",
              // No Secure flag: the cookies test fails and its fix must be shown.
              "set-cookie": "sessionid=1; Path=/",
              "permissions-policy": "camera=(), geolocation=()",
              "cross-origin-opener-policy": "same-origin"
            }
          })
  })
  service = await startService({ extraCaCerts: Option.some(lab.rootPath) })
  key = (await service.newKey("developer")).key
  browser = await launch()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  site?.stop(true)
  tls?.stop()
  await service?.stop()
})

/** Fills the first input (and the port when given), runs, and returns the page with the JSON it received. */
const run = async (operation: string, tab: string, fill: Record<string, string>, path: string, shot: string, width = 1280) => {
  const w = await openPage(browser, width)
  await signIn(w.page, service.baseUrl, key)
  await w.page.getByRole("button", { name: "Run an analysis" }).click()
  await w.page.getByRole("button", { name: tab, exact: true }).click()
  const form = w.page.locator(`form[data-operation=${operation}]`)
  for (const [name, value] of Object.entries(fill)) await form.locator(`[name=${name}]`).fill(value)
  const answer = w.page.waitForResponse((r) => r.url().includes(path), { timeout: 60_000 })
  await form.getByRole("button", { name: "Run" }).click()
  const response = await answer
  expect(response.status()).toBe(200)
  const api = await response.json() as any
  const panel = w.page.locator(`#analysis-${operation}`)
  await panel.locator("details.raw, .error").first().waitFor()
  if (await panel.locator(".error").count()) throw new Error(`the console showed: ${await panel.locator(".error").textContent()}`)
  await w.shot(shot)
  return { w, api, report: panel.locator(".report") }
}

const captioned = (report: ReturnType<typeof run> extends Promise<infer R> ? R : never, caption: string) =>
  report.report.locator("table").filter({ has: report.w.page.locator("caption", { hasText: caption }) })

describe("console security reports", () => {
  test("TLS: grade and its caps first, protocol badges, suites in order, certificate, findings with fixes", async () => {
    const r = await run("tls", "TLS", { host: "localhost", port: String(tls.port) }, "/v1/security/tls", "analysis-tls")
    const { api, report } = r
    expect(api.grade).toBe("B")
    expect(await report.locator(".headline .grade").textContent()).toBe("B")
    expect(await report.locator(".headline .score").first().textContent()).toBe(`Score ${api.score} / 100`)
    const caps = await report.locator(".report-list.caps li").allTextContents()
    expect(caps.some((c) => c.startsWith("TLS 1.0/1.1 supported") && c.includes("capped at B"))).toBe(true)
    expect(caps.some((c) => c.startsWith("no AEAD cipher suites"))).toBe(true)
    expect(await report.locator('[data-protocol="TLS 1.0"]').textContent()).toBe("TLS 1.0 on")
    expect(await report.locator('[data-protocol="TLS 1.2"]').textContent()).toBe("TLS 1.2 on")
    expect(await report.locator('[data-protocol="TLS 1.3"]').textContent()).toBe("TLS 1.3 off")
    expect(await report.locator('[data-protocol="SSL 3.0"]').textContent()).toBe("SSL 3.0 off")
    expect(await report.locator('[data-protocol="TLS 1.0"]').getAttribute("class")).toContain("on-bad")
    const suites12 = captioned(r, "TLS 1.2 cipher suites")
    expect(await suites12.locator("tbody td code").allTextContents()).toEqual(api.cipher_suites.tls1_2)
    expect([...api.cipher_suites.tls1_2].sort()).toEqual(["TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"])
    expect(await captioned(r, "TLS 1.3 cipher suites").count()).toBe(0)
    const cert = report.locator("dl.kv").filter({ hasText: "Chain trusted" })
    expect(await cert.textContent()).toContain("CN=localhost")
    expect(await cert.locator("dt:has-text('Days left') + dd").textContent()).toBe(String(api.certificate.days_left))
    expect(await cert.locator("dt:has-text('Chain trusted') + dd").textContent()).toBe("yes")
    expect(await cert.locator("dt:has-text('Hostname match') + dd").textContent()).toBe("yes")
    expect(await cert.locator("dt:has-text('SCTs embedded') + dd").textContent()).toBe("0")
    expect(await report.locator("dt:has-text('Heartbleed') + dd").textContent()).toBe("not vulnerable")
    // openssl s_server answers no ALPN and no HTTPS: the page says what the API says.
    const yes = (b: boolean) => (b ? "yes" : "no")
    expect(await report.locator("dt:has-text('Post-quantum key exchange') + dd").textContent()).toBe(yes(api.key_exchange.post_quantum))
    expect(await report.locator("dt:has-text('HTTP/2 (ALPN h2)') + dd").textContent()).toBe(yes(api.alpn.http2))
    expect(await report.locator("dt:has-text('HTTP/3 advertised') + dd").textContent()).toBe(yes(api.http3.advertised))
    expect([api.key_exchange.post_quantum, api.alpn.http2, api.http3.advertised]).toEqual([false, false, false])
    const findings = captioned(r, "Findings").locator("tbody tr")
    expect(await findings.count()).toBe(api.findings.length)
    const capRow = findings.filter({ hasText: 'rating rule "TLS 1.0/1.1 supported"' })
    expect(await capRow.locator("td").nth(3).textContent()).toBe("Disable TLS 1.0 and TLS 1.1; keep TLS 1.2 and TLS 1.3.")
    expect(r.w.cspViolations).toEqual([])
    expect(r.w.pageErrors).toEqual([])
    await r.w.page.context().close()
  }, 90_000)

  test("HTTP security grade: grade and score first, the ten tests with a failing one's fix, the extras", async () => {
    const url = `https://localhost:${site.port}/`
    const r = await run("headers", "HTTP security grade", { url }, "/v1/security/headers", "analysis-headers")
    const { api, report } = r
    expect(await report.locator(".headline .grade").textContent()).toBe(api.grade)
    expect(await report.locator(".headline .score").first().textContent()).toContain(`Score ${api.score} · ${api.tests_passed} of 10 tests passed`)
    const rows = captioned(r, "Tests").locator("tbody tr")
    expect(await rows.count()).toBe(10)
    for (const [name, t] of Object.entries(api.tests) as Array<[string, any]>) {
      const cells = rows.filter({ has: r.w.page.locator(`[data-test="${name}"]`) }).locator("td")
      expect(await cells.nth(1).textContent()).toBe(t.pass ? "pass" : "fail")
      expect(await cells.nth(2).locator("code").textContent()).toBe(t.result)
      expect(await cells.nth(3).textContent()).toBe(t.score_modifier > 0 ? `+${t.score_modifier}` : String(t.score_modifier))
      expect(await cells.nth(4).textContent()).toBe(!t.pass && t.recommendation ? t.recommendation : "–")
    }
    // The cookie without Secure fails, and the row says how to fix it.
    expect(api.tests.cookies.pass).toBe(false)
    const cookie = rows.filter({ has: r.w.page.locator('[data-test="cookies"]') }).locator("td")
    expect(await cookie.nth(4).textContent()).toContain("Secure")
    // A passing test's advice is not a fix: it sits, marked optional, under the outcome.
    expect(api.tests["strict-transport-security"].pass).toBe(true)
    const hsts = rows.filter({ has: r.w.page.locator('[data-test="strict-transport-security"]') }).locator("td")
    expect(api.tests["strict-transport-security"].recommendation).not.toBe("")
    expect(await hsts.nth(2).locator(".advice").textContent()).toBe(`Optional: ${api.tests["strict-transport-security"].recommendation}`)
    expect(await cookie.nth(2).locator(".advice").count()).toBe(0)
    const extras = captioned(r, "Extras").locator("tbody tr")
    expect(await extras.nth(0).textContent()).toContain("features: camera, geolocation")
    expect(await extras.nth(1).locator("td").nth(1).textContent()).toBe("yes")
    expect(await extras.nth(1).textContent()).toContain("same-origin")
    expect(await extras.nth(2).locator("td").nth(1).textContent()).toBe("no")
    expect(api.extras.security_txt.present).toBe(true)
    expect(await extras.nth(3).textContent()).toContain("Contact: mailto:security@localhost")
    expect(await extras.nth(3).locator("td").nth(3).textContent()).toBe(api.extras.security_txt.valid ? "yes" : "no")
    expect(r.w.cspViolations).toEqual([])
    expect(r.w.pageErrors).toEqual([])
    await r.w.page.context().close()
  }, 60_000)

  test("readable at 390 px: neither report scrolls the page sideways", async () => {
    for (const [op, tab, fill, path] of [
      ["tls", "TLS", { host: "localhost", port: String(tls.port) }, "/v1/security/tls"],
      ["headers", "HTTP security grade", { url: `https://localhost:${site.port}/` }, "/v1/security/headers"]
    ] as const) {
      const r = await run(op, tab, fill, path, `analysis-${op}-390`, 390)
      expect(await r.report.locator(".headline .grade").textContent()).toBe(r.api.grade)
      expect(await r.w.page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth")).toBeLessThanOrEqual(0)
      await r.w.page.context().close()
    }
  }, 90_000)

  test("the TLS form shows the API's message for a port nothing listens on", async () => {
    const w = await openPage(browser)
    await signIn(w.page, service.baseUrl, key)
    await w.page.getByRole("button", { name: "Run an analysis" }).click()
    await w.page.getByRole("button", { name: "TLS", exact: true }).click()
    const form = w.page.locator("form[data-operation=tls]")
    await form.locator("[name=host]").fill("127.0.0.1")
    await form.locator("[name=port]").fill("9")
    await form.getByRole("button", { name: "Run" }).click()
    const error = w.page.locator("#analysis-tls .error")
    await error.waitFor()
    const api = await (await service.call("/v1/security/tls?host=127.0.0.1&port=9", { key })).json() as any
    expect(await error.textContent()).toBe(api.error.message)
    await w.page.context().close()
  }, 30_000)
})
