/**
 * The outbound limits of Zone Hygiene (issue 11 item 9): one audit must not be an amplifier.
 * - `capTargets`: at most N nameserver addresses are queried directly per audit, taken round
 *   robin so every nameserver gets one address before any gets a second.
 * - `makeDestinationLimiter`: a token bucket per destination address shared by every audit of
 *   the instance; a query that would wait longer than `maxWaitMs` fails instead.
 * - `makeAuditSlots`: concurrent audits per organization and overall; a caller waits up to
 *   `queueMs` for a slot, then gets 429 (RateLimited with Retry-After).
 * Every wait is an Effect sleep or timeout, so TestClock drives it.
 */
import { Clock, Data, Duration, Effect } from "effect"
import { RateLimited } from "../../../kernel/errors"
import { makeSingleFlight } from "../../../kernel/singleFlight"
import { setNewest } from "../../../kernel/memo"

/** Round robin over the nameservers' addresses, at most `max` in all. */
export const capTargets = <T>(perNameserver: ReadonlyArray<ReadonlyArray<T>>, max: number): { readonly chosen: ReadonlyArray<T>; readonly total: number } => {
  const total = perNameserver.reduce((n, xs) => n + xs.length, 0)
  const chosen: Array<T> = []
  for (let round = 0; chosen.length < Math.min(max, total); round++) {
    for (const xs of perNameserver) {
      if (round < xs.length && chosen.length < max) chosen.push(xs[round])
    }
  }
  return { chosen, total }
}

export class DestinationRateLimited extends Data.TaggedError("DestinationRateLimited")<{ readonly destination: string }> {
  get message() { return `query rate limit for ${this.destination} reached` }
}

export interface DestinationLimiter {
  /** Waits for a token for `destination`, or fails when the wait would exceed the limit. */
  readonly take: (destination: string) => Effect.Effect<void, DestinationRateLimited>
}

export const makeDestinationLimiter = (opts: { readonly perSecond: number; readonly burst: number; readonly maxWaitMs: number }): DestinationLimiter => {
  const buckets = new Map<string, { tokens: number; at: number }>()
  const refill = (b: { tokens: number; at: number }, now: number) => Math.min(opts.burst, b.tokens + ((now - b.at) * opts.perSecond) / 1000)
  const take = (destination: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (buckets.size > 10_000) {
        for (const [k, b] of buckets) if (refill(b, now) >= opts.burst) buckets.delete(k)
      }
      const b = buckets.get(destination) ?? { tokens: opts.burst, at: now }
      const after = refill(b, now) - 1 // a negative balance is a reservation of a future token
      const waitMs = after >= 0 ? 0 : (-after * 1000) / opts.perSecond
      if (waitMs > opts.maxWaitMs) return Effect.fail(new DestinationRateLimited({ destination }))
      buckets.set(destination, { tokens: after, at: now })
      return waitMs === 0 ? Effect.void : Effect.sleep(Duration.millis(waitMs))
    })
  return { take }
}

export interface AuditSlots {
  /** Runs `work` holding one of the organization's slots (a caller's own wait or audit). */
  readonly withOrgSlot: <A, E, R>(orgId: string, work: Effect.Effect<A, E, R>) => Effect.Effect<A, E | RateLimited, R>
  /** Runs `work` holding one of the instance's slots (an audit itself, shared by its joiners). */
  readonly withInstanceSlot: <A, E, R>(work: Effect.Effect<A, E, R>) => Effect.Effect<A, E | RateLimited, R>
}

export const makeAuditSlots = (opts: { readonly overall: number; readonly perOrg: number; readonly queueMs: number }) =>
  Effect.gen(function*() {
    const overall = yield* Effect.makeSemaphore(opts.overall)
    const orgs = new Map<string, Effect.Semaphore>()
    const busy = (what: string) =>
      new RateLimited({
        message: `too many zone audits running ${what}; retry in a few seconds (cached zones are answered at once)`,
        retryAfterSeconds: Math.max(1, Math.ceil(opts.queueMs / 1000))
      })
    const orgSemaphore = (orgId: string) =>
      Effect.sync(() => {
        const existing = orgs.get(orgId)
        if (existing) return existing
        const s = Effect.unsafeMakeSemaphore(opts.perOrg)
        orgs.set(orgId, s)
        return s
      })
    // The wait for a permit stays interruptible (so the timeout can end it: inside
    // acquireUseRelease's acquire it could not, and a full semaphore would hang the caller).
    const holding = <A, E, R>(s: Effect.Semaphore, what: string, work: Effect.Effect<A, E, R>) =>
      Effect.uninterruptibleMask((restore) =>
        restore(s.take(1)).pipe(
          Effect.timeoutFail({ duration: Duration.millis(opts.queueMs), onTimeout: () => busy(what) }),
          Effect.zipRight(restore(work).pipe(Effect.ensuring(s.release(1))))
        )
      )
    const withOrgSlot = <A, E, R>(orgId: string, work: Effect.Effect<A, E, R>) =>
      Effect.flatMap(orgSemaphore(orgId), (org) => holding(org, "for this organization", work))
    const withInstanceSlot = <A, E, R>(work: Effect.Effect<A, E, R>) => holding(overall, "on this instance", work)
    return { withOrgSlot, withInstanceSlot } satisfies AuditSlots
  })

export interface SharedCache<A, E> {
  /**
   * The cached value of `key` when younger than the TTL, else the value being computed for it,
   * else `compute` run once for every concurrent caller. The computation runs in its own fiber:
   * a caller that goes away does not cancel it for the others. Failures are not cached.
   * `gate` wraps each caller's own wait for a computation (not a cached answer): a limit it
   * enforces (audit slots) is the caller's, so one organization's refusal is never shared
   * with another that joins the same computation.
   */
  readonly get: <R, E2 = never>(
    key: string,
    compute: Effect.Effect<A, E, R>,
    gate?: <B>(wait: Effect.Effect<B, E, R>) => Effect.Effect<B, E | E2, R>
  ) => Effect.Effect<{ readonly value: A; readonly at: number; readonly cached: boolean }, E | E2, R>
}

/**
 * A TTL map over `makeSingleFlight` rather than Effect's `Cache`, whose lookup is cancelled for
 * every waiter when its first caller goes away (src/kernel/singleFlight.ts), and which has no
 * per-caller `gate`.
 */
export const makeSharedCache = <A, E>(opts: { readonly ttlMs: number; readonly capacity: number }): SharedCache<A, E> => {
  const done = new Map<string, { readonly value: A; readonly at: number }>()
  const flights = makeSingleFlight<{ readonly value: A; readonly at: number }, E>()
  const get = <R, E2 = never>(
    key: string,
    compute: Effect.Effect<A, E, R>,
    gate: <B>(wait: Effect.Effect<B, E, R>) => Effect.Effect<B, E | E2, R> = (wait) => wait
  ) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const hit = done.get(key)
      if (hit && now - hit.at < opts.ttlMs) return { ...hit, cached: true }
      const entry = yield* gate(flights.run(key, compute.pipe(
        Effect.map((value) => ({ value, at: now })),
        Effect.tap((entry) =>
          Effect.sync(() => {
            if (opts.ttlMs > 0) setNewest(done, key, entry, opts.capacity)
            else done.delete(key)
          })
        )
      )))
      return { ...entry, cached: false }
    })
  return { get }
}
