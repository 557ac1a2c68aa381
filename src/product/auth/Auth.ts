/**
 * Bearer authentication, quota and plan enforcement for every /v1 operation.
 * Order: operation (404 when the matched route declares none: fail closed) → authenticate
 * (401, not counted) → quota (429, not counted) → count → plan (403).
 *
 * The plan comes only from the route the router matched (src/platform/http/Operation.ts); the caller
 * leaves as a `Caller` value, provided to handlers by the `Auth` middleware.
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Clock, Effect, Layer, Option, Redacted, Schema } from "effect"
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
import { nowIn } from "../../kernel/fiberClock"
import { planAllows } from "../../kernel/plans"
import type { Plan } from "../../kernel/plans"
import { type OperationInfo, Operations } from "../../platform/http/Operation"
import { attributeIn, factsIn, type RequestFacts } from "../../platform/http/RequestFacts"
import { Quota, type QuotaDecision } from "../metering/Quota"
import { Caller, type CallerShape } from "../../kernel/Caller"
import { KeyActivity } from "../accounts/KeyActivity"
import { type AuthenticatedAuditToken, type AuthenticatedKey, Keys } from "../accounts/Keys"
import { setNewest } from "../../kernel/memo"

export class Auth extends HttpApiMiddleware.Tag<Auth>()("domain-intel/Auth", {
  failure: Schema.Union(UnauthorizedWire, PlanForbiddenWire, QuotaExceededWire, NotFoundWire),
  provides: Caller,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** Operations that accept an audit token in place of an API key (SPEC.md Authentication 2). */
const auditTokenOperations = new Set(["wafDetection"])

export type BearerFailure = Unauthorized | QuotaExceeded | PlanForbidden | NotFound

/**
 * The bearer check every /v1 operation runs, for the route the router matched: key (or audit
 * token) → 401, quota → 429 (nothing is counted), plan → 403. `units`: how many requests this
 * one counts as (MCP: one per tools/call). Shared by the HttpApi `Auth` middleware and the raw
 * routes (which HttpApi middleware does not reach), so both see one memo of key lookups.
 */
export class Bearer extends Effect.Service<Bearer>()("domain-intel/Bearer", {
  effect: Effect.gen(function*() {
    const keys = yield* Keys
    const quota = yield* Quota
    const operations = yield* Operations
    // Key lookups are memoised briefly so a busy client costs one indexed read per 30 s. The memo
    // is dropped whenever the store-wide auth revision moves (revocation, rotation, plan change:
    // polled every 500 ms by KeyActivity) and an entry never outlives its key's expiry.
    const activity = yield* KeyActivity
    const freshness = {
      revision: activity.revision,
      validUntil: (v: Option.Option<AuthenticatedKey | AuthenticatedAuditToken>) => (Option.isSome(v) ? v.value.expiresAt : null)
    }
    const byKey = memo(30_000, 10_000, (token: string) => keys.authenticate(token).pipe(Effect.orDie), freshness)
    const byAuditToken = memo(30_000, 10_000, (token: string) => keys.auditTokenOrg(token).pipe(Effect.orDie), freshness)

    /** The caller a key stands for (one value per memoised key), with the key's use noted; or none. */
    const callers = new WeakMap<AuthenticatedKey, Option.Option<CallerShape>>()
    const callerOfKey = (key: Option.Option<AuthenticatedKey>): Option.Option<CallerShape> => {
      if (Option.isNone(key)) return Option.none()
      activity.touch(key.value.keyId, Date.now()) // last_used_at, written in batches
      let caller = callers.get(key.value)
      if (caller === undefined) {
        caller = Option.some({ org: key.value.org, plan: key.value.org.plan, keyId: key.value.keyId, auditToken: null })
        callers.set(key.value, caller)
      }
      return caller
    }

    /** A key, else (for the operations that take one) an audit token; at `now`. */
    const lookup = (token: string, operation: string, now: number): Effect.Effect<Option.Option<CallerShape>> => {
      const memoised = byKey.peek(token, now)
      const keyed = memoised !== undefined ? Effect.succeed(memoised.value) : byKey.load(token, now)
      return Effect.flatMap(keyed, (key: Option.Option<AuthenticatedKey>) => {
        if (Option.isSome(key)) return Effect.succeed(callerOfKey(key))
        if (!auditTokenOperations.has(operation) || !token.startsWith("dia_")) return Effect.succeed(Option.none())
        return Effect.map(byAuditToken.get(token), Option.map(({ org }: AuthenticatedAuditToken) => ({ org, plan: org.plan, keyId: null, auditToken: token })))
      })
    }

    /** Quota (429, nothing counted) then plan (403), for an authenticated caller. */
    const admit = (
      caller: CallerShape,
      op: OperationInfo & { readonly plan: Plan },
      decision: QuotaDecision,
      facts: RequestFacts | undefined
    ): Effect.Effect<CallerShape, BearerFailure> => {
      if (decision._tag === "Exceeded") {
        if (facts !== undefined) {
          facts.quota = { limit: decision.limit, remaining: 0, resetAt: decision.resetAt }
        }
        return Effect.fail(new QuotaExceeded({
          message: `monthly quota of ${decision.limit} requests for the ${caller.plan} plan is used up`,
          retryAfterSeconds: decision.retryAfterSeconds
        }))
      }
      if (facts !== undefined) facts.quota = { limit: decision.limit, remaining: decision.remaining, resetAt: decision.resetAt }
      if (!planAllows(caller.plan, op.plan)) {
        return Effect.fail(new PlanForbidden({
          message: `${op.operation} needs the ${op.plan} plan or above; this key's organization is on ${caller.plan}`
        }))
      }
      return Effect.succeed(caller)
    }

    // Every request runs this: the common case (a memoised key, quota units held) decides in one
    // synchronous step at the fiber's clock, with no further Effect.
    const check = (rawToken: string, units = 1): Effect.Effect<CallerShape, BearerFailure> =>
      Effect.withFiberRuntime((fiber) => {
        const facts = factsIn(fiber.currentContext)
        const op = attributeIn(operations, fiber.currentContext)
        // Fail closed: a route that declares no plan is not an operation a key may reach.
        if (op?.plan === undefined) return Effect.fail(new NotFound({ message: "no such operation" }))
        const operation = op as OperationInfo & { readonly plan: Plan }
        const token = rawToken.trim()
        if (token.length === 0) {
          return Effect.fail(new Unauthorized({ message: "missing API key: send Authorization: Bearer <key>" }))
        }
        const now = nowIn(fiber)
        const decide = (found: Option.Option<CallerShape>): Effect.Effect<CallerShape, BearerFailure> => {
          if (Option.isNone(found)) return Effect.fail(new Unauthorized({ message: "unknown or malformed API key" }))
          const caller = found.value
          if (facts !== undefined) facts.caller = caller
          const decision = quota.consumeAt(caller.org, units, now)
          return Effect.isEffect(decision)
            ? Effect.flatMap(decision, (d) => admit(caller, operation, d, facts))
            : admit(caller, operation, decision, facts)
        }
        const memoised = byKey.peek(token, now)
        if (memoised !== undefined && Option.isSome(memoised.value)) return decide(callerOfKey(memoised.value))
        return Effect.flatMap(lookup(token, op.operation, now), decide)
      })

    return { check } as const
  })
}) {}

/**
 * Memoises an effectful lookup for `ttlMs`: a hit costs one Map read (this runs on every
 * request, where Effect's Cache costs several times more); the oldest entry goes at capacity.
 */
const memo = <K, V>(
  ttlMs: number,
  capacity: number,
  lookup: (key: K) => Effect.Effect<V>,
  freshness: { readonly revision: () => number; readonly validUntil: (value: V) => number | null }
) => {
  const entries = new Map<K, { readonly value: V; readonly expires: number }>()
  let seen = freshness.revision()
  /** The memoised value at `now`, if any (no Effect: this runs on every request). */
  const peek = (key: K, now: number): { readonly value: V } | undefined => {
    const r = freshness.revision()
    if (r !== seen) {
      seen = r // a revocation, rotation or plan change somewhere: forget every lookup
      entries.clear()
    }
    const hit = entries.get(key)
    return hit !== undefined && hit.expires > now ? hit : undefined
  }
  /** Looks `key` up (a miss at `now`) and keeps the answer. */
  const load = (key: K, now: number): Effect.Effect<V> => {
    const asked = seen
    return Effect.tap(lookup(key), (value) =>
      Effect.sync(() => {
        if (asked !== seen) return // the revision moved while we read: do not keep a stale answer
        const until = freshness.validUntil(value)
        setNewest(entries, key, { value, expires: until === null ? now + ttlMs : Math.min(now + ttlMs, until) }, capacity)
      }))
  }
  const get = (key: K): Effect.Effect<V> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const hit = peek(key, now)
      return hit !== undefined ? Effect.succeed(hit.value) : load(key, now)
    })
  return { peek, load, get }
}

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
