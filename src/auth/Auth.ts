/**
 * Bearer authentication, quota and plan enforcement for every /v1 operation.
 * Order: authenticate (401, not counted) → quota (429, not counted) → count → plan (403).
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Cache, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import {
  PlanForbidden,
  PlanForbiddenWire,
  QuotaExceeded,
  QuotaExceededWire,
  Unauthorized,
  UnauthorizedWire
} from "../domain/errors"
import { planAllows } from "../domain/plans"
import { requestMeta } from "../http/RequestMeta"
import { Quota } from "../metering/Quota"
import { Keys, type Organization } from "./Keys"

export class CurrentOrg extends Context.Tag("domain-intel/CurrentOrg")<CurrentOrg, Organization>() {}

export class Auth extends HttpApiMiddleware.Tag<Auth>()("domain-intel/Auth", {
  failure: Schema.Union(UnauthorizedWire, PlanForbiddenWire, QuotaExceededWire),
  provides: CurrentOrg,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** Operations that accept an audit token in place of an API key (SPEC.md Authentication 2). */
const auditTokenOperations = new Set(["wafDetection"])

export const AuthLive = Layer.effect(
  Auth,
  Effect.gen(function*() {
    const keys = yield* Keys
    const quota = yield* Quota
    // Key lookups are memoised briefly so a busy client costs one indexed read per 30 s.
    const byKey = yield* Cache.make({
      capacity: 10_000,
      timeToLive: Duration.seconds(30),
      lookup: (token: string) => keys.authenticate(token).pipe(Effect.orDie)
    })
    const byAuditToken = yield* Cache.make({
      capacity: 10_000,
      timeToLive: Duration.seconds(30),
      lookup: (token: string) => keys.auditTokenOrg(token).pipe(Effect.orDie)
    })

    return {
      bearer: (redacted: Redacted.Redacted<string>) =>
        Effect.gen(function*() {
          const token = Redacted.value(redacted).trim()
          const meta = yield* requestMeta
          if (token.length === 0) {
            return yield* new Unauthorized({ message: "missing API key: send Authorization: Bearer <key>" })
          }
          let org = yield* byKey.get(token)
          if (Option.isNone(org) && meta && auditTokenOperations.has(meta.operation) && token.startsWith("dia_")) {
            org = yield* byAuditToken.get(token)
            if (Option.isSome(org)) meta.auditToken = token
          }
          if (Option.isNone(org)) return yield* new Unauthorized({ message: "unknown or malformed API key" })
          if (meta) meta.org = org.value

          const decision = yield* quota.consume(org.value)
          if (decision._tag === "Exceeded") {
            if (meta) meta.quotaRefused = true
            return yield* new QuotaExceeded({
              message: `monthly quota of ${decision.limit} requests for the ${org.value.plan} plan is used up`,
              retryAfterSeconds: decision.retryAfterSeconds
            })
          }
          if (meta) meta.quota = { limit: decision.limit, remaining: decision.remaining }

          if (meta?.plan && !planAllows(org.value.plan, meta.plan)) {
            return yield* new PlanForbidden({
              message: `${meta.operation} needs the ${meta.plan} plan or above; this key's organization is on ${org.value.plan}`
            })
          }
          return org.value
        })
    }
  })
)
