/** Alerts: rules (create, edit, pause/resume, test, rotate the secret, delete) and the history. */
import { del, get, messageOf, patch, post } from "../api"
import { errorBox, h, replace, table } from "../dom"
import { historySection } from "./alertHistory"
import { channelText, OPERATORS, type Rule, ruleForm } from "./ruleForm"
import type { View } from "./types"

/** The signing secret is shown once, in a box the user dismisses. */
const secretBox = (title: string, secret: string, onDone: () => void) => {
  const code = h("code", { class: "secret" }, secret)
  return h(
    "div",
    { class: "notice", role: "status" },
    h("strong", {}, title),
    h("p", {}, "Copy this webhook signing secret now: it is shown only once."),
    code,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "secondary", onclick: () => void navigator.clipboard?.writeText(secret).catch(() => {}) }, "Copy"),
      h("button", { type: "button", class: "secondary", onclick: onDone }, "I have saved it")
    )
  )
}

export const alertsView: View = async (root) => {
  const notices = h("div", { class: "notices", "aria-live": "polite" })
  const rulesBox = h("div")
  const history = h("section", { class: "card" })
  const formBox = h("div")
  const rulesById = new Map<string, Rule>()

  const notify = (node: HTMLElement) => notices.replaceChildren(node)
  const clearNotice = () => notices.replaceChildren()

  const loadRules = async () => {
    const { rules } = await get<{ rules: ReadonlyArray<Rule> }>("/v1/alerts/rules")
    rulesById.clear()
    for (const r of rules) rulesById.set(r.id, r)
    replace(
      rulesBox,
      rules.length === 0
        ? h("p", { class: "empty" }, "No alert rules yet.")
        : table(
            ["Rule", "Condition", "Channels", "Cooldown", "State", "Actions"],
            rules.map((r) => [
              h("span", { class: "rule-name" }, r.name),
              `${r.metric} ${OPERATORS[r.operator]} ${r.threshold_value} over ${r.window_minutes} min`,
              r.channels.length === 0 ? h("span", { class: "muted" }, "none") : h("ul", { class: "plain" }, r.channels.map((c) => h("li", {}, `${c.type}: ${channelText(c)}`))),
              `${r.cooldown_minutes} min`,
              h("span", { class: `badge ${r.enabled ? "ok" : "paused"}` }, r.enabled ? "Active" : "Paused"),
              ruleActions(r)
            ])
          )
    )
  }

  const act = async (what: () => Promise<void>) => {
    try {
      await what()
    } catch (e) {
      notify(errorBox(messageOf(e)))
    }
  }

  const ruleActions = (r: Rule) => {
    const label = (verb: string) => ({ "aria-label": `${verb} ${r.name}` })
    const remove = h("button", { type: "button", class: "danger", ...label("Delete") }, "Delete")
    remove.addEventListener("click", () =>
      act(async () => {
        if (remove.dataset.confirm !== "yes") {
          remove.dataset.confirm = "yes"
          remove.textContent = "Confirm delete"
          return
        }
        await del(`/v1/alerts/rules/${encodeURIComponent(r.id)}`)
        notify(h("p", { class: "ok-text" }, `Deleted “${r.name}”.`))
        await loadRules()
      })
    )
    return h(
      "div",
      { class: "row-actions" },
      h("button", { type: "button", class: "secondary", ...label("Edit"), onclick: () => edit(r) }, "Edit"),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          ...label(r.enabled ? "Pause" : "Resume"),
          onclick: () =>
            act(async () => {
              await patch(`/v1/alerts/rules/${encodeURIComponent(r.id)}`, { enabled: !r.enabled })
              clearNotice()
              await loadRules()
            })
        },
        r.enabled ? "Pause" : "Resume"
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          ...label("Send a test notification for"),
          onclick: () =>
            act(async () => {
              const { deliveries } = await post<{ deliveries: ReadonlyArray<{ channel: any; delivered: boolean; http_status: number | null; error: string | null }> }>(
                `/v1/alerts/rules/${encodeURIComponent(r.id)}/test`
              )
              notify(
                h(
                  "div",
                  { class: "notice", role: "status" },
                  h("strong", {}, `Test notification for “${r.name}”`),
                  deliveries.length === 0
                    ? h("p", {}, "The rule has no channels.")
                    : h("ul", {}, deliveries.map((d) => h("li", {}, `${d.channel?.type ?? "channel"} ${channelText(d.channel)}: `, d.delivered ? `delivered (HTTP ${d.http_status})` : `failed${d.http_status ? ` (HTTP ${d.http_status})` : ""}${d.error ? `: ${d.error}` : ""}`)))
                )
              )
            })
        },
        "Test"
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          ...label("Rotate the signing secret of"),
          onclick: () =>
            act(async () => {
              const { signing_secret } = await post<{ signing_secret: string }>(`/v1/alerts/rules/${encodeURIComponent(r.id)}/rotate-secret`)
              notify(secretBox(`New signing secret for “${r.name}”`, signing_secret, clearNotice))
            })
        },
        "Rotate secret"
      ),
      remove
    )
  }

  const showCreate = () =>
    replace(
      formBox,
      h("h3", {}, "New rule"),
      ruleForm({
        onSubmit: async (body) => {
          const created = await post<{ rule: Rule; signing_secret?: string }>("/v1/alerts/rules", body)
          if (created.signing_secret) notify(secretBox(`Rule “${created.rule.name}” created`, created.signing_secret, clearNotice))
          else notify(h("p", { class: "ok-text", role: "status" }, `Rule “${created.rule.name}” created.`))
          showCreate()
          await loadRules()
        }
      })
    )

  const edit = (r: Rule) => {
    replace(
      formBox,
      h("h3", {}, `Edit “${r.name}”`),
      ruleForm({
        rule: r,
        onSubmit: async (body) => {
          await patch(`/v1/alerts/rules/${encodeURIComponent(r.id)}`, body)
          notify(h("p", { class: "ok-text", role: "status" }, `Rule “${body.name}” saved.`))
          showCreate()
          await loadRules()
        },
        onCancel: showCreate
      })
    )
    formBox.querySelector("input")?.focus()
  }

  replace(
    root,
    h("h2", {}, "Alerts"),
    notices,
    h("section", { class: "card" }, h("h3", {}, "Rules"), rulesBox),
    h("section", { class: "card" }, formBox),
    history
  )
  showCreate()
  await loadRules()
  await historySection(history, (id) => rulesById.get(id)?.name)
}

