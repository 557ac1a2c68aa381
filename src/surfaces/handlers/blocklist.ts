import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { parseTarget as parseAddress, vetTarget } from "../../adapters/probe/guard"
import { Blocklist } from "../../analyses/blocklist/Blocklist"
import { ipItem } from "../../analyses/blocklist/query"
import { TargetForbidden } from "../../kernel/errors"
import { Api } from "../api/Api"
import type { BlocklistInputs } from "../api/blocklist"

/**
 * An address target is judged by the target guard, as every operation's targets are: a private,
 * loopback or special-purpose address is refused (400 target_forbidden) unless
 * ALLOW_PRIVATE_TARGETS. No list is contacted about it: no public list lists such an address, and
 * the question would tell the list's operator an address of the caller's network
 * (docs/operations/blocklist.md, "What is asked").
 */
export const vetBlocklistTarget = (target: string) => {
  const ip = ipItem(target)
  if (ip === null) return Effect.void
  const parsed = parseAddress(ip.kind === "ipv6" ? `http://[${ip.value}]/` : `http://${ip.value}/`)
  if (!("url" in parsed)) return Effect.fail(parsed)
  return vetTarget(parsed).pipe(
    Effect.asVoid,
    Effect.catchAll((e) =>
      e instanceof TargetForbidden
        ? Effect.fail(new TargetForbidden({ message: `${e.message}: public blocklists list only public addresses` }))
        : Effect.void)
  )
}

/**
 * A blocklist check from its decoded inputs (the target in its canonical spelling): what the
 * REST operation and the MCP tool `blocklist` both run.
 */
export const blocklistCheck = (inputs: typeof BlocklistInputs.json.Type) =>
  Effect.zipRight(vetBlocklistTarget(inputs.target), Effect.flatMap(Blocklist, (svc) => svc.check(inputs.target)))

export const BlocklistLive = HttpApiBuilder.group(Api, "blocklist", (handlers) =>
  handlers.handle("blocklistCheck", ({ urlParams }) => blocklistCheck(urlParams))
)
