/**
 * Bearer authentication, quota and plan enforcement for every /v1 operation.
 * Order: authenticate (401, not counted) → quota (429, not counted) → count → plan (403).
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import {
  PlanForbidden,
  PlanForbiddenWire,
  QuotaExceeded,
  QuotaExceededWire,
  Unauthorized,
  UnauthorizedWire
} from "../domain/errors"
import { type Plan, planAllows } from "../domain/plans"
import { requestMeta } from "../http/RequestMeta"
import { Quota } from "../metering/Quota"
import { KeyActivity } from "../account/KeyActivity"
import { type KeyHolder, Keys, type Organization } from "./Keys"

export class CurrentOrg extends Context.Tag("domain-intel/CurrentOrg")<CurrentOrg, Organization>() {}

export class Auth extends HttpApiMiddleware.Tag<Auth>()("domain-intel/Auth", {
  failure: Schema.Union(UnauthorizedWire, PlanForbiddenWire, QuotaExceededWire),
  provides: CurrentOrg,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** Operations that accept an audit token in place of an API key (SPEC.md Authentication 2). */
const auditTokenOperations = new Set(["wafDetection"])

export type BearerFailure = Unauthorized | QuotaExceeded | PlanForbidden

/** What an operation that is not an HttpApi endpoint (raw routes such as MCP) states about itself. */
export interface BearerOptions {
  /** Used when the route table gave the request no plan label. */
  readonly plan?: Plan
  readonly operation?: string
}

/**
 * The bearer check every /v1 operation runs: key (or audit token) → 401, quota → 429 (the
 * request is not counted), plan → 403. Fills the request's RequestMeta. Shared by the HttpApi
 * `Auth` middleware, the raw routes (which HttpApi middleware does not reach) and the fast path,
 * so all three see one memo of key lookups.
 */
export class Bearer extends Effect.Service<Bearer>()("domain-intel/Bearer", {
  effect: Effect.gen(function*() {
    const keys = yield* Keys
    const quota = yield* Quota
    // Key lookups are memoised briefly so a busy client costs one indexed read per 30 s. The memo
    // is dropped whenever the store-wide auth revision moves (revocation, rotation, plan change:
    // polled every 500 ms by KeyActivity) and an entry never outlives its key's expiry.
    const activity = yield* KeyActivity
    const freshness = { revision: activity.revision, validUntil: (v: Option.Option<KeyHolder>) => Option.isSome(v) ? v.value.keyExpiresAt : null }
    const byKey = memo(30_000, 10_000, (token: string) => keys.authenticate(token).pipe(Effect.orDie), freshness)
    const byAuditToken = memo(30_000, 10_000, (token: string) => keys.auditTokenOrg(token).pipe(Effect.orDie), freshness)

    const check = (rawToken: string, options: BearerOptions = {}): Effect.Effect<Organization, BearerFailure> =>
      Effect.gen(function*() {
        const token = rawToken.trim()
        const meta = yield* requestMeta
        const operation = meta?.operation && meta.operation !== "unknown" ? meta.operation : options.operation ?? "unknown"
        const plan = meta?.plan ?? options.plan
        if (token.length === 0) {
          return yield* new Unauthorized({ message: "missing API key: send Authorization: Bearer <key>" })
        }
        let org = yield* byKey.get(token)
        if (Option.isNone(org) && auditTokenOperations.has(operation) && token.startsWith("dia_")) {
          org = yield* byAuditToken.get(token)
          if (Option.isSome(org) && meta) meta.auditToken = token
        }
        if (Option.isNone(org)) return yield* new Unauthorized({ message: "unknown or malformed API key" })
        activity.touch(org.value.keyId, Date.now()) // last_used_at, written in batches
        if (meta) meta.org = org.value

        const decision = yield* quota.consume(org.value)
        if (decision._tag === "Exceeded") {
          return yield* new QuotaExceeded({
            message: `monthly quota of ${decision.limit} requests for the ${org.value.plan} plan is used up`,
            retryAfterSeconds: decision.retryAfterSeconds
          })
        }
        if (meta) meta.quota = { limit: decision.limit, remaining: decision.remaining }

        if (plan && !planAllows(org.value.plan, plan)) {
          return yield* new PlanForbidden({
            message: `${operation} needs the ${plan} plan or above; this key's organization is on ${org.value.plan}`
          })
        }
        return org.value
      })

    /**
     * The organization of an API key whose lookup is memoised and fresh, without I/O; undefined
     * when `check` has to decide (unknown key, expired memo, audit token).
     */
    const peekKey = (rawToken: string, now: number): Organization | undefined => {
      const hit = byKey.peek(rawToken.trim(), now)
      if (hit === undefined || Option.isNone(hit)) return undefined
      activity.touch(hit.value.keyId, now)
      return hit.value
    }

    return { check, peekKey } as const
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
  const current = () => {
    const r = freshness.revision()
    if (r !== seen) {
      seen = r
      entries.clear()
    }
  }
  const peek = (key: K, now: number): V | undefined => {
    current()
    const hit = entries.get(key)
    return hit !== undefined && hit.expires > now ? hit.value : undefined
  }
  const get = (key: K): Effect.Effect<V> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      current()
      const hit = entries.get(key)
      if (hit !== undefined && hit.expires > now) return Effect.succeed(hit.value)
      const asked = seen
      return Effect.tap(lookup(key), (value) =>
        Effect.sync(() => {
          if (asked !== seen) return // the revision moved while we read: do not keep a stale answer
          entries.delete(key)
          if (entries.size >= capacity) entries.delete(entries.keys().next().value as K)
          const until = freshness.validUntil(value)
          entries.set(key, { value, expires: until === null ? now + ttlMs : Math.min(now + ttlMs, until) })
        }))
    })
  return { get, peek }
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
