/**
 * The console inside the single binary from `bun build --compile`, run from an empty directory
 * with no node_modules: the page, bundle and stylesheet are embedded, and Chromium signs in and
 * draws a chart from them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { appJs } from "../../src/surfaces/console/generated/assets"
import { buildBinary } from "../support/binary"
import { startServe, waitUntilUp } from "../support/process"
import { launch, openPage, signIn } from "./browser"
import { tempDir } from "../support/tmp"

const work = tempDir("di-console-bin-")
const binary = join(work, "domain-intel")
let browser: Browser

beforeAll(async () => {
  await buildBinary(binary) // the flags of `npm run build`
  browser = await launch()
}, 180_000)
afterAll(async () => {
  await browser?.close()
})

test("the compiled binary serves the console, and it works in a browser", async () => {
  const env = { PATH: "/usr/bin:/bin", HOME: work, DATABASE_URL: `sqlite:${join(work, "db.sqlite")}` }
  const { child, port, stdout } = await startServe(binary, ["serve"], { cwd: work, env })
  try {
    const base = `http://127.0.0.1:${port}`
    expect(await waitUntilUp(`${base}/healthz`)).toBe(true)
    const key = stdout().trim().split("\n").pop()!
    const js = await fetch(`${base}/console/app.js`)
    expect(js.headers.get("content-security-policy")).toContain("script-src 'self'")
    expect(await js.text()).toBe(appJs)

    const w = await openPage(browser)
    await signIn(w.page, base, key)
    await w.page.getByRole("heading", { name: "Overview" }).waitFor()
    await w.page.locator(".chart canvas").first().waitFor()
    await w.shot("binary-overview")
    expect(w.cspViolations).toEqual([])
    expect(w.pageErrors).toEqual([])
    await w.page.context().close()
  } finally {
    child.kill("SIGKILL")
  }
}, 30_000)
