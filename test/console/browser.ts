/**
 * Debian's Chromium, headless, through playwright-core; every page records CSP violations and
 * uncaught errors so a test can assert there were none. Screenshots go to test-artifacts/console/.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"

export const ARTIFACTS = join(import.meta.dir, "..", "..", "test-artifacts", "console")

export const launch = (): Promise<Browser> =>
  chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
  })

export interface WatchedPage {
  readonly page: Page
  /** Console messages and page errors that mention the Content Security Policy. */
  readonly cspViolations: Array<string>
  readonly pageErrors: Array<string>
  readonly shot: (name: string) => Promise<void>
}

export const openPage = async (browser: Browser, width = 1280, height = 900): Promise<WatchedPage> => {
  const context = await browser.newContext({ viewport: { width, height } })
  const page = await context.newPage()
  const cspViolations: Array<string> = []
  const pageErrors: Array<string> = []
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text())
  })
  page.on("pageerror", (e) => pageErrors.push(String(e)))
  // Violations that do not reach the console (reports) are caught by the DOM event.
  await page.addInitScript(
    'document.addEventListener("securitypolicyviolation", (e) => console.error("Refused to (CSP event) " + e.violatedDirective + " " + e.blockedURI))'
  )
  mkdirSync(ARTIFACTS, { recursive: true })
  return {
    page,
    cspViolations,
    pageErrors,
    shot: async (name) => {
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true })
    }
  }
}

export const signIn = async (page: Page, baseUrl: string, key: string) => {
  await page.goto(`${baseUrl}/console`)
  await page.getByLabel("API key").fill(key)
  await page.getByRole("button", { name: "Sign in" }).click()
}
