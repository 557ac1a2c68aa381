import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Lookalikes } from "../../analyses/lookalikes/Lookalikes"
import { isFuzzerName } from "../../analyses/lookalikes/permutations"
import { Api } from "../api/Api"
import type { LookalikesInputs } from "../api/lookalikes"

/**
 * Lookalike domains from their decoded inputs (the domain normalised, every fuzzer name known):
 * what the REST operation and the MCP tool `lookalike_domains` both run.
 */
export const lookalikeDomains = (inputs: typeof LookalikesInputs.json.Type) =>
  Effect.flatMap(Lookalikes, (svc) =>
    svc.find({
      domain: inputs.domain,
      // An empty list (`fuzzers=`) names none: the default, all of them.
      fuzzers: inputs.fuzzers !== undefined && inputs.fuzzers.length > 0 ? inputs.fuzzers.filter(isFuzzerName) : undefined
    }))

export const LookalikesLive = HttpApiBuilder.group(Api, "lookalikes", (handlers) =>
  handlers.handle("lookalikeDomains", ({ urlParams }) => lookalikeDomains(urlParams))
)
