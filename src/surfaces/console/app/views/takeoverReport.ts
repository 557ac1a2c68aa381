/**
 * The subdomain takeover report as a person reads it: grade first, then each candidate with its
 * confidence, CNAME chain and evidence, then where the names came from and what could not be
 * judged. Field names are the REST report's (docs/operations/takeover.md).
 */
import { type Child, fmt, h, table } from "../dom"
import { headline, kv, list } from "./reports"

/** Confidence as a severity badge: confirmed is critical, potential high, unlikely low (the report's findings). */
const CONFIDENCE_TONE: Record<string, string> = { confirmed: "critical", potential: "high", unlikely: "low" }

const confidence = (c: string) => h("span", { class: `badge sev-${CONFIDENCE_TONE[c] ?? "info"}`, "data-confidence": c }, c)

const TYPE_LABEL: Record<string, string> = {
  cname_unclaimed: "CNAME to an unclaimed resource",
  cname_dangling: "CNAME under an unregistered domain",
  ns_dangling: "Dangling delegation",
  mx_dangling: "MX host under an unregistered domain",
  spf_dangling: "SPF include under an unregistered domain"
}

const chainOf = (c: any): Child =>
  (c.chain ?? []).length === 0 ? h("code", {}, c.target) : h("ol", { class: "plain chain" }, c.chain.map((hop: string) => h("li", {}, h("code", {}, hop))))

export const takeoverReport = (r: any) => {
  const candidates: ReadonlyArray<any> = r.candidates ?? []
  const s = r.sources ?? {}
  return h(
    "div",
    {},
    headline(r.grade, r.score, `Subdomain takeover: ${r.domain}`, h("div", { class: "score" }, `${r.names_checked} names checked · ${r.providers_known} services known · checked ${fmt.date(r.checked_at)}`)),
    candidates.length > 0
      ? table(
        ["Confidence", "Name", "Type", "Points to", "Service", "Evidence"],
        candidates.map((c) => [
          confidence(c.confidence),
          h("code", { "data-candidate": c.name }, c.name),
          h("span", { title: c.type }, TYPE_LABEL[c.type] ?? c.type),
          chainOf(c),
          c.provider ?? "–",
          h("span", { class: "small" }, c.evidence)
        ]),
        `Candidates (${candidates.length})`
      )
      : h("p", { class: "ok-text no-candidates" }, "No takeover candidate."),
    kv([
      ["Names from CT logs", String(s.ct ?? 0)],
      ["Names from a zone transfer", String(s.zone_transfer ?? 0)],
      ["Names from the word list", String(s.wordlist ?? 0)],
      ["Names given", String(s.given ?? 0)]
    ]),
    list("Recommendations", r.recommendations ?? []),
    list("Limitations", r.limitations ?? [])
  )
}
