/**
 * The MCP tool `lookalike_domains {domain}`: GET /v1/security/lookalikes's inputs (domain only:
 * every fuzzer runs) and report, through the very function the REST handler calls, so its
 * `structuredContent` is the REST report and its failures carry the REST codes (docs/mcp.md,
 * "One contract").
 */
import { Duration, Effect } from "effect"
import { Lookalikes } from "../../analyses/lookalikes/Lookalikes"
import { LookalikesReport } from "../../analyses/lookalikes/schema"
import { AppConfig } from "../../platform/Config"
import { LookalikesInputs } from "../api/lookalikes"
import { lookalikeDomains } from "../handlers/lookalikes"
import { defineTool } from "./tool"

export const makeLookalikeTool = Effect.gen(function*() {
  const context = yield* Effect.context<Lookalikes>()
  const config = yield* AppConfig
  return defineTool({
    name: "lookalike_domains",
    title: "Lookalike domains (typosquats, homographs)",
    description:
      "Find the lookalikes of a domain that someone has registered: every permutation dnstwist makes (typos, keyboard slips, bit flips, homoglyphs, a Cyrillic spelling, hyphens, subdomains, the suffix written into the name) plus plurals and popular other TLDs, each resolved (A, AAAA, MX, NS); for each registered one, whether it accepts mail and how alike its home page is to the domain's own (0-100, ssdeep as dnstwist --ssdeep). Use it to find phishing and brand-impersonation domains. Takes a few seconds (thousands of lookups in parallel). Main fields: `lookalikes[]` ({domain, unicode, fuzzer, a, aaaa, mx, ns, mail_capable, web_similarity, risk}; risk high = accepts mail or copies the page, medium = serves a page, low = registered, serves nothing), `findings[]`, `permutations` and `by_fuzzer`, and `limitations` (names that could not be resolved: neither registered nor free).",
    input: LookalikesInputs.pick("domain").json,
    output: LookalikesReport,
    run: (args) => lookalikeDomains(args).pipe(Effect.provide(context)),
    summary: (r) => {
      const by = (risk: string) => r.lookalikes.filter((l) => l.risk === risk).length
      return `Lookalikes of ${r.domain}: ${r.lookalikes.length} registered of ${r.permutations} permutations (${by("high")} high, ${by("medium")} medium, ${by("low")} low risk)${r.lookalikes.filter((l) => l.risk === "high").slice(0, 10).map((l) => `; ${l.domain} (${l.fuzzer}${l.mail_capable ? ", accepts mail" : ""}${l.web_similarity !== null ? `, page ${l.web_similarity}% alike` : ""})`).join("")}${r.limitations.length > 0 ? `. Limitations: ${r.limitations.length}` : ""}`
    },
    // The operation bounds itself within OPERATION_DEADLINE_MS; the tool waits that long.
    timeout: () => Duration.millis(config.operationDeadlineMs)
  })
})
