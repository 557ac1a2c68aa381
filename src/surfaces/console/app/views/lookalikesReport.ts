/**
 * Lookalike domains as a person reads them (field names are the REST report's,
 * docs/operations/lookalikes.md): how many were found and how risky, then one row per registered
 * lookalike, riskiest first: its name (and Unicode form), the fuzzer that made it, what it has
 * (addresses, mail, name servers) and how alike its page is to the domain's own.
 */
import { fmt, h, table } from "../dom"
import { list } from "./reports"

const RISKS = ["high", "medium", "low"] as const
const rank = (risk: string) => RISKS.indexOf(risk as (typeof RISKS)[number])

/** The badge classes of findings: high risk reads as a high finding, medium as medium, low as low. */
const riskBadge = (risk: string) => h("span", { class: `badge sev-${risk}`, "data-risk": risk }, risk)

const records = (l: any) =>
  h(
    "ul",
    { class: "plain" },
    (l.a ?? []).length + (l.aaaa ?? []).length > 0 ? h("li", {}, `address ${[...(l.a ?? []), ...(l.aaaa ?? [])].join(", ")}`) : null,
    (l.mx ?? []).length > 0 ? h("li", { class: l.mail_capable ? "bad-text" : "" }, `MX ${l.mx.join(", ")}${l.mail_capable ? " (accepts mail)" : " (null MX: no mail)"}`) : null,
    (l.ns ?? []).length > 0 ? h("li", { class: "muted small" }, `NS ${l.ns.join(", ")}`) : null
  )

const similarity = (s: number | null) =>
  s === null ? h("span", { class: "muted" }, "–") : h("span", { class: s >= 80 ? "bad-text" : "" }, `${s}%`)

export const lookalikesReport = (r: any) => {
  const lookalikes: Array<any> = [...(r.lookalikes ?? [])].sort((a, b) => rank(a.risk) - rank(b.risk) || a.domain.localeCompare(b.domain))
  const count = (risk: string) => lookalikes.filter((l) => l.risk === risk).length
  const fuzzers = Object.entries(r.by_fuzzer ?? {}) as Array<[string, number]>
  return h(
    "div",
    {},
    h(
      "div",
      { class: "headline" },
      h("div", { class: `grade ${count("high") > 0 ? "bad" : count("medium") > 0 ? "warn" : "good"}`, "data-testid": "lookalike-count", "aria-label": `${lookalikes.length} registered lookalikes` }, String(lookalikes.length)),
      h(
        "div",
        {},
        h("div", { class: "headline-title" }, `Registered lookalikes of ${r.domain}`),
        h("div", { class: "score" }, `${count("high")} high · ${count("medium")} medium · ${count("low")} low risk · ${fmt.num(r.permutations)} permutations checked in ${fmt.ms(r.timings_ms?.total ?? null)} · ${fmt.date(r.checked_at)}`)
      )
    ),
    lookalikes.length > 0
      ? table(
        ["Risk", "Lookalike", "Fuzzer", "Records", "Page alike"],
        lookalikes.map((l) => [
          riskBadge(l.risk),
          h("div", { "data-lookalike": l.domain }, h("strong", {}, l.unicode), l.unicode !== l.domain ? h("div", { class: "muted small" }, l.domain) : null),
          l.fuzzer,
          records(l),
          similarity(l.web_similarity)
        ]),
        "Registered lookalikes, riskiest first"
      )
      : h("p", { class: "muted" }, "None of the permutations is registered."),
    list("Findings", (r.findings ?? []).map((f: any) => h("span", {}, h("span", { class: `badge sev-${f.severity}` }, f.severity), " ", f.message)), "findings"),
    list("Recommendations", r.recommendations ?? []),
    table(["Fuzzer", "Permutations"], fuzzers.map(([name, n]) => [name, fmt.num(n)]), "Permutations by fuzzer"),
    list("Limitations", r.limitations ?? [])
  )
}
