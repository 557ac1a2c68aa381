/**
 * Monthly quota per organization (SPEC.md Limits). The count of the current UTC month is loaded
 * once per organization from `quota_usage` (kept by the request-log writer), then kept in
 * memory and advanced on every counted request, so the check costs no I/O on the hot path.
 */
import { SqlClient } from "@effect/sql"
import { Cache, Clock, Duration, Effect } from "effect"
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

export type QuotaDecision =
  | { readonly _tag: "Allowed"; readonly limit: number; readonly remaining: number }
  | { readonly _tag: "Exceeded"; readonly limit: number; readonly retryAfterSeconds: number }

export class Quota extends Effect.Service<Quota>()("domain-intel/Quota", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // key: orgId|monthStart → mutable counter
    const counters = yield* Cache.make({
      capacity: 100_000,
      timeToLive: Duration.days(40),
      lookup: (key: string) =>
        Effect.gen(function*() {
          const [orgId, start] = key.split("|")
          const rows = yield* sql<{ used: number }>`
            SELECT used FROM quota_usage WHERE org_id = ${orgId} AND month = ${Number(start)}`
          return { used: rows[0]?.used ?? 0 }
        }).pipe(Effect.orDie)
    })

    /** Counts one request against the organization's quota, or refuses it. */
    // Untraced: it runs on every request.
    const consume = Effect.fnUntraced(function*(org: Organization) {
      const now = yield* Clock.currentTimeMillis
      const counter = yield* counters.get(`${org.id}|${monthStart(now)}`)
      const limit = monthlyQuota[org.plan]
      if (counter.used >= limit) {
        return {
          _tag: "Exceeded",
          limit,
          retryAfterSeconds: Math.max(1, Math.ceil((nextMonthStart(now) - now) / 1000))
        } satisfies QuotaDecision as QuotaDecision
      }
      counter.used += 1
      return { _tag: "Allowed", limit, remaining: limit - counter.used } satisfies QuotaDecision as QuotaDecision
    })

    /** Used so far this month (for the usage report). */
    const used = Effect.fn("Quota.used")(function*(org: Organization) {
      const now = yield* Clock.currentTimeMillis
      const counter = yield* counters.get(`${org.id}|${monthStart(now)}`)
      return { limit: monthlyQuota[org.plan], used: counter.used }
    })

    return { consume, used } as const
  })
}) {}
