import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api"
import { requestMeta } from "../http/RequestMeta"
import { WafDetection } from "./WafDetection"

export const WafLive = HttpApiBuilder.group(Api, "waf", (handlers) =>
  handlers.handle("wafDetection", ({ urlParams }) =>
    Effect.gen(function*() {
      const waf = yield* WafDetection
      const meta = yield* requestMeta
      return yield* waf.detect({
        domain: urlParams.domain,
        activeProbe: urlParams.active_probe ?? false,
        auditToken: meta?.auditToken
      })
    }))
)
