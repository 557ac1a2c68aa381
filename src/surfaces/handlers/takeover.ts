import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SubdomainTakeover } from "../../analyses/takeover/SubdomainTakeover"
import { Api } from "../api/Api"
import type { TakeoverInputs } from "../api/takeover"

/**
 * A takeover check from its decoded inputs (the domain normalised, at most 100 names): what the
 * REST operation and the MCP tool `subdomain_takeover` both run.
 */
export const subdomainTakeover = (inputs: typeof TakeoverInputs.json.Type) =>
  Effect.flatMap(SubdomainTakeover, (svc) => svc.check({ domain: inputs.domain, names: inputs.names ?? [] }))

export const TakeoverLive = HttpApiBuilder.group(Api, "takeover", (handlers) =>
  handlers.handle("subdomainTakeover", ({ urlParams }) => subdomainTakeover(urlParams))
)
