import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api"
import { CurrentOrg } from "../auth/Auth"
import { InvalidRequest } from "../domain/errors"
import { normalizeDomain } from "./domainParam"
import { ZoneHygiene } from "./zone/ZoneHygiene"

export const DnsLive = HttpApiBuilder.group(Api, "dns", (handlers) =>
  handlers.handle("zoneHygiene", ({ urlParams }) =>
    Effect.gen(function*() {
      const domain = normalizeDomain(urlParams.domain)
      if (domain instanceof InvalidRequest) return yield* domain
      const zh = yield* ZoneHygiene
      const org = yield* CurrentOrg
      return yield* zh.audit(domain, org.id)
    })
  )
)
