import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../api/Api"
import { Caller } from "../../kernel/Caller"
import { InvalidRequest } from "../../kernel/errors"
import { normalizeDomain } from "../../kernel/domainParam"
import { ZoneHygiene } from "../../analyses/zone/ZoneHygiene"

export const DnsLive = HttpApiBuilder.group(Api, "dns", (handlers) =>
  handlers.handle("zoneHygiene", ({ urlParams }) =>
    Effect.gen(function*() {
      const domain = normalizeDomain(urlParams.domain)
      if (domain instanceof InvalidRequest) return yield* domain
      const zh = yield* ZoneHygiene
      const caller = yield* Caller
      return yield* zh.audit(domain, caller.org.id)
    })
  )
)
