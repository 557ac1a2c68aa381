/**
 * Locations in the console (Chromium headless via playwright-core) against two real instances
 * in two locations (`default` and `eu-west`) on one SQLite file: the locations line (live ones
 * with their instances, a stale one), a monitor created through the form to run from both, its
 * combined state and each location's last run in the list (ok, then not ok once the target
 * fails), and the runs per location in its details; the API agrees, no CSP violation or page error.
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { until } from "../support/process"
import { startService, type TestService } from "../support/service"
import { tempDir } from "../support/tmp"
import { launch, openPage, signIn } from "./browser"

let home: TestService
let away: TestService
let browser: Browser
let target: ReturnType<typeof Bun.serve>
let healthy = true

beforeAll(async () => {
  const config = { databaseUrl: `sqlite:${join(tempDir("di-console-locations-"), "store.db")}`, monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000 }
  home = await startService(config)
  away = await startService({ ...config, instanceLocation: "eu-west" })
  target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (healthy ? new Response("ok") : new Response("down", { status: 503 })) })
  browser = await launch()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  target?.stop(true)
  await away?.stop()
  await home?.stop()
})

test("the locations, a monitor run from two of them, each location's state and runs", async () => {
  const { key } = await home.newKey("pro")
  // a location whose instances stopped long ago: known, stale
  await home.sql("INSERT INTO locations (name, first_seen_at, last_seen_at) VALUES ('ap-south', ?, ?)", [Date.now() - 7_200_000, Date.now() - 3_600_000])
  await until(async () => ((await home.sql("SELECT name FROM locations")).length === 3 ? true : undefined), "both heartbeats", 10_000)

  const w = await openPage(browser)
  await signIn(w.page, home.baseUrl, key)
  await w.page.getByRole("button", { name: "Monitors" }).click()
  const where = w.page.getByRole("list", { name: "Locations" })
  await where.waitFor()
  expect(await where.getByRole("listitem").allTextContents()).toEqual([
    "ap-south: stale, 0 instances",
    "default: live, 1 instance",
    "eu-west: live, 1 instance"
  ])

  // create, run from default and eu-west (quorum blank: a majority, 2)
  const form = w.page.locator("form.monitor-form")
  await form.getByLabel("Kind").selectOption("http_check")
  await form.getByLabel("Name").fill("two places")
  await form.getByLabel("Target").fill(`http://127.0.0.1:${target.port}/`)
  await form.getByLabel("Interval (seconds)").fill("1")
  await form.getByLabel("Status is not 2xx").check()
  expect(await form.getByLabel("ap-south (stale)").isChecked()).toBe(false)
  await form.getByLabel("default", { exact: true }).check()
  await form.getByLabel("eu-west", { exact: true }).check()
  await form.getByRole("button", { name: "Create monitor" }).click()
  await w.page.locator("table").getByText("two places", { exact: true }).waitFor()
  const api = async () => ((await (await home.call("/v1/monitors", { key })).json()) as any).monitors[0]
  expect(await api()).toMatchObject({ locations: ["default", "eu-west"], quorum: 2 })

  // both locations run it; the list shows the combined state and each location's last run
  const cell = w.page.getByLabel("Locations of two places")
  const shows = async (state: string, chips: ReadonlyArray<string>) =>
    until(async () => {
      await w.page.getByRole("button", { name: "Monitors" }).click()
      await cell.waitFor()
      const text = (await cell.locator(".loc-state").textContent()) ?? ""
      const got = await cell.getByRole("listitem").allTextContents()
      return text === state && JSON.stringify(got) === JSON.stringify(chips) ? true : undefined
    }, `${state} ${chips.join(", ")}`, 20_000)
  await shows("OK", ["default: ok", "eu-west: ok"])
  expect((await api()).state).toBe("ok")
  healthy = false
  await shows("Not OK", ["default: not ok", "eu-west: not ok"])
  expect((await api()).state).toBe("not_ok")
  await w.shot("monitors-locations")

  // the details: runs per location, agreeing with the uptime report
  await w.page.getByRole("button", { name: "Runs of two places" }).click()
  const table = w.page.locator("table.by-location")
  await table.waitFor()
  const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.querySelector("td")?.textContent))
  expect(rows).toEqual(["default", "eu-west"])
  const id = (await api()).id
  const uptime = (await (await home.call(`/v1/monitors/${id}/uptime?period=7d`, { key })).json()) as any
  expect(uptime.by_location.map((l: any) => l.location)).toEqual(["default", "eu-west"])
  for (const l of uptime.by_location) expect(l.runs).toBeGreaterThan(0)

  expect(w.cspViolations).toEqual([])
  expect(w.pageErrors).toEqual([])
}, 120_000)
