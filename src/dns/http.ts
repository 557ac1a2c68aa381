import { group } from "../http/group"
import { Effect } from "effect"
import { Api } from "../Api"
import { Caller } from "../auth/Caller"
import { InvalidRequest } from "../domain/errors"
import { reportFacts } from "../http/RequestFacts"
import { normalizeDomain } from "../kernel/domainParam"
import { ZoneHygiene } from "./zone/ZoneHygiene"

export const DnsLive = group(Api, "dns", (handlers) =>
  handlers.handle("zoneHygiene", ({ urlParams }) =>
    Effect.gen(function*() {
      const domain = normalizeDomain(urlParams.domain)
      if (domain instanceof InvalidRequest) return yield* domain
      const zh = yield* ZoneHygiene
      const caller = yield* Caller
      return yield* zh.audit(domain, caller.org.id).pipe(
        Effect.tapError((e) =>
          e._tag === "RateLimited" ? reportFacts((facts) => { facts.retryAfterSeconds = e.retryAfterSeconds }) : Effect.void
        )
      )
    })
  )
)
