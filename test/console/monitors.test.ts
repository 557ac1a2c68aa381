/**
 * Monitors in the browser (Chromium headless via playwright-core) against the real service:
 * create an http_check monitor of a loopback target with its conditions through the form, see
 * its runs on the timeline (ok, then not ok once the target fails) and its uptime, edit it,
 * create a dns_records monitor (a form of its own), pause and resume, delete; the API agrees
 * at each step and no CSP violation or page error happens.
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import type { Browser } from "playwright-core"
import { startService, type TestService } from "../support/service"
import { launch, openPage, signIn } from "./browser"

let service: TestService
let browser: Browser
let target: ReturnType<typeof Bun.serve>
let healthy = true

beforeAll(async () => {
  service = await startService({ monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000 })
  target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (healthy ? new Response("ok") : new Response("down", { status: 503 })) })
  browser = await launch()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  target?.stop(true)
  await service?.stop()
})

test("create, watch the runs, edit, pause, resume and delete monitors in the console", async () => {
  const { key } = await service.newKey("pro")
  const api = async () => ((await (await service.call("/v1/monitors", { key })).json()) as any).monitors as Array<any>
  const w = await openPage(browser)
  await signIn(w.page, service.baseUrl, key)
  await w.page.getByRole("button", { name: "Monitors" }).click()
  await w.page.getByRole("heading", { name: "New monitor" }).waitFor()

  // http_check through its own form: target, interval, the kind's conditions
  let form = w.page.locator("form.monitor-form")
  await form.getByLabel("Kind").selectOption("http_check")
  await form.getByLabel("Name").fill("site health")
  await form.getByLabel("Target").fill(`http://127.0.0.1:${target.port}/health`)
  await form.getByLabel("Interval (seconds)").fill("1")
  await form.getByLabel("Status is not 2xx").check()
  await form.getByLabel("Total time above (ms)").fill("5000")
  await form.getByRole("button", { name: "Create monitor" }).click()
  await w.page.locator("table").getByText("site health", { exact: true }).waitFor()
  let [site] = await api()
  expect(site).toMatchObject({ kind: "http_check", target: `http://127.0.0.1:${target.port}/health`, interval_seconds: 1, conditions: { status_not_ok: true, total_ms_gt: 5000 }, enabled: true })

  // a bad input answer is shown in the form, nothing is created
  form = w.page.locator("form.monitor-form")
  await form.getByLabel("Kind").selectOption("dnssec")
  await form.getByLabel("Name").fill("too often")
  await form.getByLabel("Target").fill("example.com")
  await form.getByLabel("Interval (seconds)").fill("5")
  await form.getByRole("button", { name: "Create monitor" }).click()
  await form.getByRole("alert").filter({ hasText: "interval_seconds for dnssec must be at least 10" }).waitFor()
  expect((await api()).length).toBe(1)

  // the runs: ok ones, then not ok once the target fails
  await Bun.sleep(2500)
  healthy = false
  await Bun.sleep(2500)
  await w.page.getByRole("button", { name: "Runs of site health" }).click()
  const marks = w.page.getByRole("list", { name: "Recent runs, oldest first" }).getByRole("listitem")
  await marks.first().waitFor()
  const labels = await marks.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""))
  expect(labels.some((l) => /: ok, [\d.]+ ms$/.test(l))).toBe(true)
  expect(labels.some((l) => /: not ok, [\d.]+ ms$/.test(l))).toBe(true)
  // the timeline is the API's runs, oldest first (runs stored since the page loaded come after)
  const results = ((await (await service.call(`/v1/monitors/${site.id}/results?limit=60`, { key })).json()) as any).results
  const fromApi = [...results].reverse().map((r: any) => (r.ok ? "ok" : "not ok"))
  expect(labels.map((l) => /: (ok|not ok), /.exec(l)![1])).toEqual(fromApi.slice(0, labels.length))
  await w.page.getByText(/of \d+ runs ok/).waitFor()
  await w.page.getByRole("cell", { name: "status 503 is not 2xx" }).first().waitFor()
  await w.shot("monitors-runs")

  // edit: name, interval and conditions; the kind stays
  await w.page.getByRole("button", { name: "Edit site health" }).click()
  form = w.page.locator("form.monitor-form")
  expect(await form.getByLabel("Kind").isDisabled()).toBe(true)
  expect(await form.getByLabel("Status is not 2xx").isChecked()).toBe(true)
  await form.getByLabel("Name").fill("site health (edited)")
  await form.getByLabel("Interval (seconds)").fill("120")
  await form.getByLabel("Total time above (ms)").fill("800")
  await form.getByRole("button", { name: "Save monitor" }).click()
  await w.page.locator("table").getByText("site health (edited)", { exact: true }).waitFor()
  ;[site] = await api()
  expect(site).toMatchObject({ name: "site health (edited)", interval_seconds: 120, conditions: { status_not_ok: true, total_ms_gt: 800 } })

  // dns_records: its own conditions (record type, changed, expected answer)
  form = w.page.locator("form.monitor-form")
  await form.getByLabel("Kind").selectOption("dns_records")
  await form.getByLabel("Name").fill("www address")
  await form.getByLabel("Target").fill("www.example.com")
  await form.getByLabel("Record type (default A)").selectOption("AAAA")
  await form.getByLabel("Expected answer").fill("2001:db8::1\n2001:db8::2")
  await form.getByRole("button", { name: "Create monitor" }).click()
  await w.page.locator("table").getByText("www address", { exact: true }).waitFor()
  const dns = (await api()).find((m) => m.name === "www address")
  expect(dns).toMatchObject({ kind: "dns_records", interval_seconds: 60, conditions: { record_type: "AAAA", expected: ["2001:db8::1", "2001:db8::2"] } })

  // pause and resume
  await w.page.getByRole("button", { name: "Pause www address" }).click()
  await w.page.getByRole("button", { name: "Resume www address" }).waitFor()
  expect((await api()).find((m) => m.id === dns.id)).toMatchObject({ enabled: false, status: "paused" })
  expect(await w.page.locator("tr").filter({ hasText: "www address" }).locator(".badge").textContent()).toBe("Paused")
  await w.page.getByRole("button", { name: "Resume www address" }).click()
  await w.page.getByRole("button", { name: "Pause www address" }).waitFor()
  expect((await api()).find((m) => m.id === dns.id).enabled).toBe(true)

  // delete asks for a confirmation
  await w.page.getByRole("button", { name: "Delete www address" }).click()
  expect((await api()).length).toBe(2)
  await w.page.getByRole("button", { name: "Delete www address" }).click()
  await w.page.getByText("Deleted “www address”.").waitFor()
  expect((await api()).map((m) => m.name)).toEqual(["site health (edited)"])
  expect((await service.call(`/v1/monitors/${dns.id}`, { key })).status).toBe(404)
  await w.shot("monitors-list")

  expect(w.cspViolations).toEqual([])
  expect(w.pageErrors).toEqual([])
}, 120_000)
