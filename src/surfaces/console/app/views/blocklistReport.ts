/**
 * The blocklist (DNSBL) report as a person reads it: where the target is listed first, with the
 * list's return codes and reason, then every list's answer for every item (an `error` says why
 * the answer cannot be used: it is never "not listed"), the addresses asked and the limitations.
 * Field names are the REST report's (docs/operations/blocklist.md).
 */
import { fmt, h, table } from "../dom"
import { kv, list } from "./reports"

/** Listed reads as a high finding, an unusable answer as a medium one, not listed as fine. */
const STATUS_TONE: Record<string, string> = { listed: "sev-high", error: "sev-medium", not_listed: "ok" }
const STATUS_LABEL: Record<string, string> = { listed: "listed", not_listed: "not listed", error: "error" }

const status = (s: string) => h("span", { class: `badge ${STATUS_TONE[s] ?? ""}`, "data-status": s }, STATUS_LABEL[s] ?? s)

export const blocklistReport = (r: any) => {
  const entries: ReadonlyArray<any> = r.lists ?? []
  const listed = entries.filter((e) => e.status === "listed")
  const errors = entries.filter((e) => e.status === "error").length
  const lists = new Set(entries.map((e) => e.zone)).size
  return h(
    "div",
    {},
    h(
      "div",
      { class: "headline" },
      h(
        "div",
        {},
        h("div", { class: "headline-title" }, `Blocklists: ${r.target}`),
        h("div", { class: `score blocklist-verdict ${listed.length > 0 ? "bad-text" : "ok-text"}` }, listed.length === 0 ? "Listed nowhere" : `Listed ${listed.length} time${listed.length === 1 ? "" : "s"}`),
        h("div", { class: "score" }, `${entries.length} answers from ${lists} lists${errors > 0 ? `, ${errors} unusable` : ""} · checked ${fmt.date(r.checked_at)}`)
      )
    ),
    listed.length > 0
      ? table(
        ["Item", "List", "Codes", "Reason"],
        listed.map((e) => [h("code", { class: "item", "data-listed": `${e.item} ${e.zone}` }, e.item), e.zone, e.codes.join(", "), e.reason ?? "–"]),
        `Listings (${listed.length})`
      )
      : null,
    table(
      ["List", "Item", "Status", "Codes", "Reason"],
      entries.map((e) => [e.zone, h("code", { class: "item" }, e.item), status(e.status), e.codes.length > 0 ? e.codes.join(", ") : "–", h("span", { class: "small" }, e.reason ?? "–")]),
      `Every answer (${entries.length})`
    ),
    kv([
      ["Target", `${r.target} (${r.kind === "ip" ? "address" : "domain"})`],
      ["Addresses asked of the IP lists", (r.ips ?? []).length > 0 ? r.ips.join(", ") : "none"]
    ]),
    list("Limitations", r.limitations ?? [])
  )
}
