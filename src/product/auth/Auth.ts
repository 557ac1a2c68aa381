/**
 * Bearer authentication, quota and plan enforcement for every /v1 operation, on every surface.
 * Order: operation (404 when it declares no plan: fail closed) → authenticate (401, not
 * counted) → quota (429, not counted) → count → plan (403).
 *
 * `Bearer.admit` takes the operation explicitly: the MCP server over stdio names its own. Over
 * HTTP, `Bearer.check` takes the route the router matched (src/platform/http/Operation.ts): the
 * `Auth` middleware of the HttpApi groups and the MCP route (which HttpApi middleware does not
 * reach) both call it. The caller leaves as a `Caller` value, provided to handlers by `Auth`;
 * the caller and its quota are noted on the request (src/platform/http/CurrentRequest.ts) for
 * the request log and the `X-RateLimit-*` headers.
 */
import { HttpApiMiddleware, HttpApiSecurity, HttpRouter } from "@effect/platform"
import { Cache, Clock, Duration, Effect, Exit, Layer, Option, Redacted, Schema } from "effect"
import {
  NotFound,
  NotFoundWire,
  PlanForbidden,
  PlanForbiddenWire,
  QuotaExceeded,
  QuotaExceededWire,
  Unauthorized,
  UnauthorizedWire
} from "../../kernel/errors"
import { type Plan, planAllows } from "../../kernel/plans"
import { noteCaller } from "../../platform/http/CurrentRequest"
import { type OperationInfo, Operations } from "../../platform/http/Operation"
import { Quota } from "../metering/Quota"
import { Caller, type CallerShape } from "../../kernel/Caller"
import { KeyActivity } from "../accounts/KeyActivity"
import { type AuthenticatedAuditToken, type AuthenticatedKey, Keys } from "../accounts/Keys"

export class Auth extends HttpApiMiddleware.Tag<Auth>()("domain-intel/Auth", {
  failure: Schema.Union(UnauthorizedWire, PlanForbiddenWire, QuotaExceededWire, NotFoundWire),
  provides: Caller,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** Operations that accept an audit token in place of an API key (docs/operating.md, "Keys, organizations and audit tokens"). */
const auditTokenOperations = new Set(["wafDetection"])

export type BearerFailure = Unauthorized | QuotaExceeded | PlanForbidden | NotFound

/** How long a key lookup is kept, and how many are kept. */
const LOOKUP_TTL_MS = 30_000
const LOOKUP_CAPACITY = 10_000

/**
 * Credential lookups kept briefly, so a busy client costs one indexed read per 30 s (Effect's
 * `Cache`: concurrent misses for one token share one read). The cache key carries the
 * store-wide auth revision (a revocation, rotation or plan change moves it; KeyActivity polls
 * it every 500 ms), so every lookup made under an older revision is unreachable at once, a
 * lookup still running when the revision moves included. An entry never outlives its
 * credential's expiry; failed lookups are not kept.
 */
const lookupCache = <V extends { readonly expiresAt: number | null }>(lookup: (token: string) => Effect.Effect<Option.Option<V>>) =>
  Cache.makeWith({
    capacity: LOOKUP_CAPACITY,
    lookup: (key: string) => Effect.zip(lookup(key.slice(key.indexOf(" ") + 1)), Clock.currentTimeMillis),
    timeToLive: (exit: Exit.Exit<readonly [Option.Option<V>, number]>) => {
      if (Exit.isFailure(exit)) return Duration.zero
      const [found, at] = exit.value
      const until = Option.isSome(found) ? found.value.expiresAt : null
      return Duration.millis(until === null ? LOOKUP_TTL_MS : Math.max(0, Math.min(LOOKUP_TTL_MS, until - at)))
    }
  })

export class Bearer extends Effect.Service<Bearer>()("domain-intel/Bearer", {
  effect: Effect.gen(function*() {
    const keys = yield* Keys
    const quota = yield* Quota
    const operations = yield* Operations
    const activity = yield* KeyActivity
    const byKey = yield* lookupCache((token) => Effect.orDie(keys.authenticate(token)))
    const byAuditToken = yield* lookupCache((token) => Effect.orDie(keys.auditTokenOrg(token)))
    const cacheKey = (token: string) => `${activity.revision()} ${token}`

    /** The caller a key stands for (one value per cached key); its use noted (last_used_at, written in batches). */
    const callers = new WeakMap<AuthenticatedKey, CallerShape>()
    const callerOfKey = (key: AuthenticatedKey, now: number): CallerShape => {
      activity.touch(key.keyId, now)
      let caller = callers.get(key)
      if (caller === undefined) {
        caller = { org: key.org, plan: key.org.plan, keyId: key.keyId, auditToken: null }
        callers.set(key, caller)
      }
      return caller
    }

    /** A key, else (for the operations that take one) an audit token. */
    const lookup = (token: string, operation: string): Effect.Effect<Option.Option<CallerShape>> =>
      Effect.flatMap(byKey.get(cacheKey(token)), ([key]) => {
        if (Option.isSome(key)) return Effect.map(Clock.currentTimeMillis, (now) => Option.some(callerOfKey(key.value, now)))
        if (!auditTokenOperations.has(operation) || !token.startsWith("dia_")) return Effect.succeed(Option.none())
        return Effect.map(byAuditToken.get(cacheKey(token)), ([found]) =>
          Option.map(found, ({ org }: AuthenticatedAuditToken) => ({ org, plan: org.plan, keyId: null, auditToken: token })))
      })

    /** Quota (429, nothing counted) then plan (403), for an authenticated caller. */
    const admitCaller = (caller: CallerShape, operation: string, plan: Plan, units: number) =>
      Effect.flatMap(quota.consume(caller.org, units), (decision): Effect.Effect<CallerShape, BearerFailure> => {
        if (decision._tag === "Exceeded") {
          return Effect.zipRight(
            noteCaller(caller, { limit: decision.limit, remaining: 0, resetAt: decision.resetAt }),
            Effect.fail(new QuotaExceeded({
              message: `monthly quota of ${decision.limit} requests for the ${caller.plan} plan is used up`,
              retryAfterSeconds: decision.retryAfterSeconds
            }))
          )
        }
        const noted = noteCaller(caller, { limit: decision.limit, remaining: decision.remaining, resetAt: decision.resetAt })
        if (!planAllows(caller.plan, plan)) {
          return Effect.zipRight(noted, Effect.fail(new PlanForbidden({
            message: `${operation} needs the ${plan} plan or above; this key's organization is on ${caller.plan}`
          })))
        }
        return Effect.as(noted, caller)
      })

    /**
     * The check for `operation` (undefined: a route that is no operation). `units`: how many
     * requests this one counts as (MCP: one per tools/call).
     */
    const admit = (rawToken: string, operation: OperationInfo | undefined, units = 1): Effect.Effect<CallerShape, BearerFailure> => {
      // Fail closed: a route that declares no plan is not an operation a key may reach.
      const plan = operation?.plan
      if (operation === undefined || plan === undefined) return Effect.fail(new NotFound({ message: "no such operation" }))
      const token = rawToken.trim()
      if (token.length === 0) return Effect.fail(new Unauthorized({ message: "missing API key: send Authorization: Bearer <key>" }))
      return Effect.flatMap(lookup(token, operation.operation), (found) =>
        Option.isNone(found)
          ? Effect.fail(new Unauthorized({ message: "unknown or malformed API key" }))
          : admitCaller(found.value, operation.operation, plan, units))
    }

    /** `admit` for the route the router matched. */
    const check = (rawToken: string, units = 1): Effect.Effect<CallerShape, BearerFailure> =>
      Effect.flatMap(Effect.serviceOption(HttpRouter.RouteContext), (route) =>
        admit(rawToken, Option.isSome(route) ? operations.ofRoute(route.value.route) : undefined, units))

    return { admit, check } as const
  })
}) {}

/** The bearer token of an Authorization header value ("" when absent or not Bearer). */
export const bearerToken = (header: string | undefined): string => {
  const m = /^\s*Bearer\s+(.*)$/i.exec(header ?? "")
  return m ? m[1].trim() : ""
}

export const AuthLive = Layer.effect(
  Auth,
  Effect.map(Bearer, (bearer) => ({
    bearer: (redacted: Redacted.Redacted<string>) => bearer.check(Redacted.value(redacted))
  }))
)
