/** `GET /v1/security/lookalikes`: developer plan, category `security`, metered. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { FUZZERS, isFuzzerName } from "../../analyses/lookalikes/permutations"
import { LookalikesReport } from "../../analyses/lookalikes/schema"
import { DomainParam } from "../../kernel/domainParam"
import { UpstreamUnavailableWire } from "../../kernel/errors"
import { PlanLabel } from "../../platform/http/Operation"
import { Auth } from "../../product/auth/Auth"
import { operationInputs, Param } from "./inputs"

/** One fuzzer's name; an unknown one is refused with the list of those that exist. */
const FuzzerParam = Schema.String.pipe(
  Schema.filter((s: string): boolean => isFuzzerName(s), { message: (issue) => `unknown fuzzer ${JSON.stringify(issue.actual)}; the fuzzers are ${FUZZERS.join(", ")}` })
)

/** `GET /v1/security/lookalikes` and the MCP tool `lookalike_domains` (which takes `domain` only). */
export const LookalikesInputs = operationInputs({
  domain: Param.text(DomainParam, { description: "The domain whose lookalikes are wanted, e.g. example.com" }),
  fuzzers: Param.list({
    item: FuzzerParam,
    maxItems: FUZZERS.length,
    tooMany: `at most ${FUZZERS.length} fuzzers`,
    optional: true,
    description: `The fuzzers to run (a comma list in a query string; default all): ${FUZZERS.join(", ")}`
  })
})

export class LookalikesApi extends HttpApiGroup.make("lookalikes")
  .annotate(PlanLabel, "developer")
  .add(
    HttpApiEndpoint.get("lookalikeDomains", "/v1/security/lookalikes")
      .annotate(OpenApi.Summary, "Lookalike domains: the typosquats and homographs of a domain that someone has registered")
      .annotate(
        OpenApi.Description,
        "Generates every permutation dnstwist makes (addition, bitsquatting, cyrillic, homoglyph, hyphenation, insertion, omission, repetition, replacement, subdomain, transposition, vowel-swap, various) plus plural and tld-swap, resolves each (A, AAAA, MX, NS) through the service's resolvers, fetches the home page of each registered one and compares it with the domain's own (ssdeep, 0-100, as dnstwist --ssdeep), and rates each: high (accepts mail, or a copy of the page), medium (serves a page), low (registered, serves nothing). Permutations whose lookups failed or were not made within the deadline are counted in `limitations`, never reported as registered or free. A domain that does not exist still gets its lookalikes (the report says it does not exist). 502 `upstream_unavailable` only when the service's own resolvers cannot answer for the root zone."
      )
      .setUrlParams(LookalikesInputs.query)
      .addSuccess(LookalikesReport)
      .addError(UpstreamUnavailableWire)
  )
  .middleware(Auth)
{}
