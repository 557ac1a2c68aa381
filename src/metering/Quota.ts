/**
 * Monthly quota per organization (SPEC.md Limits). The count of the current UTC month is loaded
 * once per organization from `quota_usage` (kept by the request-log writer), then kept in
 * memory and advanced on every counted request, so the check costs no I/O on the hot path.
 *
 * Public interface: `consume(org, units = 1)` (check and count in one step; an MCP request
 * counts one unit per tools/call) and `used(org)`.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import type { Organization } from "../auth/Keys"
import { monthlyQuota } from "../domain/plans"

export const monthStart = (ms: number): number => {
  const d = new Date(ms)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}
export const nextMonthStart = (ms: number): number => {
  const d = new Date(ms)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}

/** Requests refused before or at the quota gate (401, 429) never count. */
export const countsAgainstQuota = (status: number) => status !== 401 && status !== 429

/** `resetAt`: Unix seconds of the next period's start (X-RateLimit-Reset). */
export type QuotaDecision =
  | { readonly _tag: "Allowed"; readonly limit: number; readonly remaining: number; readonly resetAt: number }
  | { readonly _tag: "Exceeded"; readonly limit: number; readonly retryAfterSeconds: number; readonly resetAt: number }

interface Counter {
  used: number
}

/** Organizations × months kept in memory; the oldest loaded counter goes first beyond this. */
const capacity = 100_000

export class Quota extends Effect.Service<Quota>()("domain-intel/Quota", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const counters = new Map<string, Counter>()
    // The month's bounds, recomputed only when `now` leaves them (this runs on every request).
    let month = 0
    let next = 0
    const monthOf = (now: number) => {
      if (now < month || now >= next) {
        month = monthStart(now)
        next = nextMonthStart(now)
      }
      return month
    }
    const keyOf = (org: Organization, now: number) => `${org.id}|${monthOf(now)}`

    /** The month's counter, read from the store on first use (concurrent first uses share one). */
    const counter = (org: Organization, now: number): Effect.Effect<Counter> => {
      const key = keyOf(org, now)
      const hit = counters.get(key)
      if (hit !== undefined) return Effect.succeed(hit)
      return sql<{ used: number }>`SELECT used FROM quota_usage WHERE org_id = ${org.id} AND month = ${monthOf(now)}`
        .pipe(
          Effect.orDie,
          Effect.map((rows) => {
            const raced = counters.get(key)
            if (raced !== undefined) return raced
            if (counters.size >= capacity) counters.delete(counters.keys().next().value as string)
            const loaded = { used: rows[0]?.used ?? 0 }
            counters.set(key, loaded)
            return loaded
          })
        )
    }

    /** Refuses when fewer than `units` are left (nothing is counted then), else counts them. */
    const decide = (c: Counter, org: Organization, now: number, units: number): QuotaDecision => {
      const limit = monthlyQuota[org.plan]
      const reset = nextMonthStart(now)
      const resetAt = Math.floor(reset / 1000)
      if (c.used + units > limit) {
        return { _tag: "Exceeded", limit, retryAfterSeconds: Math.max(1, Math.ceil((reset - now) / 1000)), resetAt }
      }
      c.used += units
      return { _tag: "Allowed", limit, remaining: limit - c.used, resetAt }
    }

    /** Counts `units` requests (default 1) against the organization's quota, or refuses them all. */
    const consume = (org: Organization, units = 1): Effect.Effect<QuotaDecision> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.map(counter(org, now), (c) => decide(c, org, now, units)))

    /** Used so far this month (for the usage report). */
    const used = (org: Organization) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.map(counter(org, now), (c) => ({ limit: monthlyQuota[org.plan], used: c.used })))

    return { consume, used } as const
  })
}) {}
