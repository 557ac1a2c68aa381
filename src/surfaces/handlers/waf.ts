import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../api/Api"
import { Caller } from "../../kernel/Caller"
import { WafDetection } from "../../analyses/waf/WafDetection"

export const WafLive = HttpApiBuilder.group(Api, "waf", (handlers) =>
  handlers.handle("wafDetection", ({ urlParams }) =>
    Effect.gen(function*() {
      const waf = yield* WafDetection
      const caller = yield* Caller
      return yield* waf.detect({
        domain: urlParams.domain,
        activeProbe: urlParams.active_probe ?? false,
        auditToken: caller.auditToken ?? undefined
      })
    }))
)
