/**
 * The console: sign-in with an API key, then one view at a time (overview, performance, cache,
 * alerts, analyses, the domain audit, monitors when the API has them). Every figure comes from the public API.
 */
import { ApiError, get, messageOf, request, session, setUnauthorizedHandler } from "./api"
import { errorBox, field, h, replace } from "./dom"
import { alertsView } from "./views/alerts"
import { analysesView } from "./views/analyses"
import { auditView } from "./views/audit"
import { cacheView } from "./views/cache"
import { monitorsView } from "./views/monitors"
import { overviewView } from "./views/overview"
import { performanceView } from "./views/performance"
import type { Ctx, Period, View } from "./views/types"

const VIEWS: ReadonlyArray<{ id: string; label: string; view: View; periodic: boolean; needsMonitors?: boolean }> = [
  { id: "overview", label: "Overview", view: overviewView, periodic: true },
  { id: "performance", label: "Performance", view: performanceView, periodic: true },
  { id: "cache", label: "Cache", view: cacheView, periodic: true },
  { id: "alerts", label: "Alerts", view: alertsView, periodic: false },
  { id: "analyses", label: "Run an analysis", view: analysesView, periodic: false },
  { id: "audit", label: "Audit", view: auditView, periodic: false },
  { id: "monitors", label: "Monitors", view: monitorsView, periodic: true, needsMonitors: true }
]

const app = () => document.getElementById("app")!

/** Checks a key: /v1/account when the service has it, else the usage report (free plan). */
const probeKey = async (key: string): Promise<Ctx["account"]> => {
  try {
    return await request("GET", "/v1/account", undefined, key)
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 405)) {
      await request("GET", "/v1/analytics/usage?period=current", undefined, key)
      return null
    }
    throw e
  }
}

const signIn = (message?: string) => {
  const input = h("input", { type: "password", name: "api-key", autocomplete: "off", spellcheck: "false", required: true, placeholder: "di_…" })
  const status = h("div", { class: "signin-status", "aria-live": "polite" }, message ? errorBox(message) : null)
  const submit = h("button", { type: "submit", class: "primary" }, "Sign in")
  const form = h(
    "form",
    {
      class: "card signin",
      onsubmit: async (e: Event) => {
        e.preventDefault()
        const key = input.value.trim()
        if (!key) return
        submit.disabled = true
        replace(status, h("p", {}, "Checking the key…"))
        try {
          const account = await probeKey(key)
          session.set(key)
          input.value = ""
          await shell(account)
        } catch (err) {
          replace(status, errorBox(messageOf(err)))
          submit.disabled = false
          input.focus()
        }
      }
    },
    h("h1", {}, "domain-intel console"),
    h("p", {}, "Sign in with an API key. The key stays in this tab only (session storage) and is sent to the API alone."),
    field("API key", input),
    submit,
    status
  )
  replace(app(), h("main", { id: "main", class: "signin-page" }, form))
  input.focus()
}

const shell = async (account: Ctx["account"]) => {
  const monitorsAvailable = await get("/v1/monitors").then(() => true, () => false)
  const ctx: Ctx = { period: "7d", account, monitorsAvailable }
  const views = VIEWS.filter((v) => !v.needsMonitors || monitorsAvailable)
  const content = h("section", { class: "content", "aria-live": "polite" })
  const periodSelect = h(
    "select",
    { id: "period", name: "period" },
    (["7d", "30d", "current"] as const).map((p) =>
      h("option", { value: p }, p === "current" ? "This month (billing period)" : `Last ${p.replace("d", " days")}`)
    )
  )
  const periodField = h("div", { class: "period" }, h("label", { for: "period" }, "Period"), periodSelect)
  let current = views[0]
  const buttons = views.map((v) =>
    h("button", { type: "button", class: "tab", "data-view": v.id, onclick: () => show(v) }, v.label)
  )
  const show = async (v: (typeof views)[number]) => {
    current = v
    for (const b of buttons) b.setAttribute("aria-current", b.dataset.view === v.id ? "page" : "false")
    periodField.hidden = !v.periodic
    // Each showing renders into a holder of its own: a view still loading when another is chosen
    // writes into its detached holder, not over the view shown now.
    const holder = h("div", {}, h("p", { class: "loading" }, "Loading…"))
    replace(content, holder)
    try {
      await v.view(holder, ctx)
    } catch (e) {
      replace(holder, errorBox(messageOf(e)))
    }
  }
  periodSelect.addEventListener("change", () => {
    ctx.period = periodSelect.value as Period
    void show(current)
  })
  const who = account ? `${account.org} · ${account.plan} plan` : "Signed in"
  const signOut = h("button", { type: "button", class: "secondary", onclick: () => { session.clear(); signIn() } }, "Sign out")
  replace(
    app(),
    h(
      "header",
      { class: "top" },
      h("div", { class: "brand" }, "domain-intel"),
      h("nav", { "aria-label": "Console sections" }, buttons),
      h("div", { class: "who" }, h("span", {}, who), signOut)
    ),
    h("main", { id: "main" }, periodField, content)
  )
  await show(current)
  buttons[0]?.focus()
}

setUnauthorizedHandler((message) => {
  session.clear()
  signIn(message)
})

const start = async () => {
  const key = session.get()
  if (!key) return signIn()
  try {
    await shell(await probeKey(key))
  } catch (e) {
    session.clear()
    signIn(messageOf(e))
  }
}

void start()
