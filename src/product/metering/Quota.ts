/**
 * Monthly quota per organization (docs/postgres.md, "Quotas"), exact across any number of instances on one
 * database (docs/postgres.md, "Quotas").
 *
 * The count lives in `quota_usage (org_id, month, used)` and only this service writes it: the
 * check and the count are one conditional upsert (`reserve`), which never lets `used` pass the
 * plan's limit. To keep the hot path free of I/O, an instance reserves a block of units at once
 * and hands them out from memory (`held`); blocks shrink as the month's count nears the limit
 * (down to one unit), so the last units are never parked in an instance that gets no traffic,
 * and held units are given back when an organization goes idle and at shutdown. A killed
 * instance loses at most its held blocks (counted, never served): never more than the quota.
 *
 * Public interface: `consume(org, units = 1)` (check and count in one step; an MCP request
 * counts one unit per tools/call) and `used(org)`. A request served from held units costs no
 * I/O. Idle units go back on Effect's `Clock`, when they are due.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect, Queue } from "effect"
import type { Organization } from "../accounts/Keys"
import { monthlyQuota } from "../../kernel/plans"
import { makeVersionedCache } from "../../platform/store/readCache"
import { setNewest } from "../../kernel/memo"

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

/** The most units an instance reserves at once (and so the most a killed instance can strand). */
export const MAX_BLOCK = 500
/**
 * Units to reserve when `remaining` units of the month are left in the store: a sixteenth of
 * them, at most MAX_BLOCK, at least one. Pure; the rule for every instance.
 */
export const blockSize = (remaining: number): number => Math.max(1, Math.min(MAX_BLOCK, Math.floor(remaining / 16)))

/** How long an organization's held units may sit unused before they go back to the store. */
const IDLE_MS = 1_000
/**
 * How long a refusal is remembered: a client hammering a used-up quota costs one statement per
 * this interval, not one per request. Shorter than IDLE_MS, so units another instance gives back
 * are seen before anyone could notice.
 */
const REFUSAL_MS = 250
/** A counter holding nothing is dropped from memory after this long unused. */
const FORGET_MS = 60_000

interface Counter {
  readonly orgId: string
  readonly month: number
  /** Units reserved in the store by this instance and not yet handed out. */
  held: number
  /** `used` as the store last reported it (every instance's reservations). */
  storeUsed: number
  lastUse: number
  /** After a refusal: until then, a request needing at least `refusedNeed` is refused without I/O. */
  refusedUntil: number
  refusedNeed: number
  readonly lock: Effect.Semaphore
}

/** Organizations × months kept in memory; the oldest counter goes first beyond this. */
const capacity = 100_000

export class Quota extends Effect.Service<Quota>()("domain-intel/Quota", {
  scoped: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const scope = yield* Effect.scope
    // Signalled when a counter reserves units: the give-back below waits for it while none holds any.
    const holding = yield* Queue.sliding<void>(1)
    const counters = new Map<string, Counter>()
    // Reservations and returns by this instance so far: the version of the store's count (below).
    let writes = 0
    const wrote = Effect.sync(() => {
      writes++
    })
    // `used` reads of the store's count ("orgId|month"), served until this instance writes it again.
    const storeReads = yield* makeVersionedCache((key: string) => {
      const [orgId, m] = key.split("|")
      return sql<{ used: number }>`SELECT used FROM quota_usage WHERE org_id = ${orgId} AND month = ${Number(m)}`.pipe(
        Effect.map((rows) => rows[0]?.used ?? 0),
        Effect.orDie
      )
    })
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

    /**
     * Check and count in one statement: adds `n` units to the month's count unless that would
     * pass `limit`. Returns the new count, or undefined when refused.
     */
    const reserveInStore = (orgId: string, m: number, n: number, limit: number) =>
      sql<{ used: number }>`INSERT INTO quota_usage (org_id, month, used) VALUES (${orgId}, ${m}, ${n})
        ON CONFLICT (org_id, month) DO UPDATE SET used = quota_usage.used + excluded.used
        WHERE quota_usage.used + excluded.used <= ${limit}
        RETURNING used`.pipe(Effect.map((rows) => rows[0]?.used), Effect.ensuring(wrote))

    /** Gives `n` unused units back to the month's count. */
    const returnToStore = (orgId: string, m: number, n: number) =>
      sql`UPDATE quota_usage SET used = used - ${n} WHERE org_id = ${orgId} AND month = ${m} AND used >= ${n}`.pipe(Effect.ensuring(wrote))

    /** Hands this counter's held units back (idle organization, eviction, shutdown). */
    const release = (c: Counter) =>
      Effect.suspend(() => {
        const n = c.held
        if (n === 0) return Effect.void
        c.held = 0
        c.storeUsed -= n
        return returnToStore(c.orgId, c.month, n).pipe(
          Effect.catchAllCause((cause) =>
            // Still ours: keep them for the next attempt.
            Effect.zipRight(Effect.sync(() => { c.held += n; c.storeUsed += n }), Effect.logWarning("quota release failed", cause)))
        )
      })

    /** The organization's counter for the month of `now`, and the counter it pushed out, if any. */
    const counterOf = (org: Organization, now: number): readonly [Counter, Counter | undefined] => {
      const m = monthOf(now)
      const key = `${org.id}|${m}`
      let c = counters.get(key)
      let evicted: Counter | undefined
      if (c === undefined) {
        c = {
          orgId: org.id,
          month: m,
          held: 0,
          storeUsed: 0,
          lastUse: now,
          refusedUntil: 0,
          refusedNeed: 0,
          lock: Effect.unsafeMakeSemaphore(1)
        }
        evicted = setNewest(counters, key, c, capacity)?.[1]
      }
      c.lastUse = now
      return [c, evicted]
    }

    const exceeded = (limit: number, now: number): QuotaDecision => ({
      _tag: "Exceeded",
      limit,
      retryAfterSeconds: Math.max(1, Math.ceil((nextMonthStart(now) - now) / 1000)),
      resetAt: Math.floor(nextMonthStart(now) / 1000)
    })

    /** Hands out `units` held units (the caller checked there are enough). */
    const takeHeld = (c: Counter, limit: number, units: number, now: number): QuotaDecision & { _tag: "Allowed" } => {
      c.held -= units
      c.lastUse = now
      return {
        _tag: "Allowed" as const,
        limit,
        remaining: Math.max(0, limit - (c.storeUsed - c.held)),
        resetAt: Math.floor((c.month === month ? next : nextMonthStart(c.month)) / 1000)
      }
    }

    /** Reserves at least `units` more (a block when there is room for one); false when refused. */
    const reserve = (c: Counter, limit: number, units: number, now: number) =>
      Effect.gen(function*() {
        const need = units - c.held
        const block = Math.min(limit, Math.max(need, blockSize(limit - c.storeUsed)))
        let granted = block
        let used = yield* reserveInStore(c.orgId, c.month, block, limit)
        if (used === undefined && block > need) {
          granted = need
          used = yield* reserveInStore(c.orgId, c.month, need, limit)
        }
        if (used === undefined) {
          // Refused: fewer than `need` units are left to this instance.
          c.storeUsed = Math.max(c.storeUsed, limit - need + 1)
          c.refusedUntil = now + REFUSAL_MS
          c.refusedNeed = need
          return false
        }
        c.storeUsed = used
        c.held += granted
        yield* Queue.offer(holding, undefined)
        return true
      })

    /** The decision at `now`: from held units when there are enough, else after reserving more. */
    const decide = (c: Counter, limit: number, units: number, now: number): Effect.Effect<QuotaDecision> => {
      if (c.held >= units) return Effect.succeed(takeHeld(c, limit, units, now))
      if (units > limit) return Effect.succeed(exceeded(limit, now))
      // One reservation at a time per counter: concurrent requests wait for it, then share it.
      return c.lock.withPermits(1)(Effect.suspend(() => {
        if (c.held >= units) return Effect.succeed(takeHeld(c, limit, units, now))
        if (now < c.refusedUntil && units - c.held >= c.refusedNeed) return Effect.succeed(exceeded(limit, now))
        return reserve(c, limit, units, now).pipe(
          Effect.map((ok) => (ok ? takeHeld(c, limit, units, now) : exceeded(limit, now)))
        )
      })).pipe(Effect.orDie)
    }

    /** Counts `units` (default 1) against the organization's quota, or refuses them all. */
    const consume = (org: Organization, units = 1): Effect.Effect<QuotaDecision> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const [c, evicted] = counterOf(org, now)
        const decision = decide(c, monthlyQuota[org.plan], units, now)
        // The counter pushed out of memory gives its held units back to the store, in the background.
        return evicted !== undefined && evicted.held > 0 ? Effect.zipRight(Effect.forkIn(release(evicted), scope), decision) : decision
      })

    /**
     * Counted so far this month, by every instance (for the usage report and alert metrics): the
     * store's count less the units this instance holds unserved. The store's count is read at most
     * once per READ_CACHE_MAX_AGE_MS, and again after this instance wrote it (src/platform/store/readCache.ts).
     */
    const figures = (org: Organization, key: string, stored: number) => ({
      limit: monthlyQuota[org.plan],
      used: Math.max(0, stored - (counters.get(key)?.held ?? 0))
    })
    const used = (org: Organization) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const key = `${org.id}|${monthOf(now)}`
        return Effect.map(storeReads.get(key, writes), (stored) => figures(org, key, stored))
      })

    /**
     * Gives back the units of counters idle for IDLE_MS and forgets counters long unused; returns
     * the ms until the next counter holding units can be idle (undefined: none holds any).
     */
    const releaseIdle = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      let next: number | undefined
      for (const [key, c] of counters) {
        if (c.held > 0 && now - c.lastUse >= IDLE_MS) yield* c.lock.withPermits(1)(release(c))
        // Long unused and holding nothing: forget it (a request since would have touched lastUse).
        else if (c.held === 0 && now - c.lastUse >= FORGET_MS) counters.delete(key)
        // Still holding (in use, or its give-back failed and is tried again).
        if (c.held > 0) next = Math.min(next ?? IDLE_MS, Math.max(IDLE_MS / 10, c.lastUse + IDLE_MS - now))
      }
      return next
    })
    // On Effect's Clock, woken when it is due rather than on a fixed tick: a server holding no
    // units does nothing, and a test that moves a TestClock by days wakes it a few times, not
    // once per tick of those days.
    yield* releaseIdle.pipe(
      Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("quota release failed", cause), IDLE_MS)),
      Effect.flatMap((next) => (next === undefined ? Queue.take(holding) : Clock.sleep(Duration.millis(next)))),
      Effect.forever,
      Effect.forkScoped
    )
    // Clean shutdown: every held unit goes back, so a restart loses none.
    yield* Effect.addFinalizer(() =>
      Effect.forEach(counters.values(), (c) => release(c), { discard: true }).pipe(Effect.ignore)
    )

    return { consume, used } as const
  })
}) {}
