import { group } from "../http/group"
import { Effect } from "effect"
import { Api } from "../Api"
import { Caller } from "../auth/Caller"
import { WafDetection } from "./WafDetection"

export const WafLive = group(Api, "waf", (handlers) =>
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
