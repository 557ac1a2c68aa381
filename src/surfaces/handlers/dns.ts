import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../api/Api"
import { Caller } from "../../kernel/Caller"
import { ZoneHygiene } from "../../analyses/zone/ZoneHygiene"

export const DnsLive = HttpApiBuilder.group(Api, "dns", (handlers) =>
  handlers.handle("zoneHygiene", ({ urlParams }) =>
    Effect.gen(function*() {
      const zh = yield* ZoneHygiene
      const caller = yield* Caller
      // The domain parameter's schema has normalised the zone name.
      return yield* zh.audit(urlParams.domain, caller.org.id)
    })
  )
)
