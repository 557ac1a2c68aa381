/**
 * Own resolver health: can the service's recursive resolvers (DNS_RESOLVERS) answer for the root
 * zone? Every DNS-using operation asks here before it concludes something negative about a
 * target (the name does not exist, a lookup failed, a DNSSEC chain does not validate): when the
 * root's NS set (and, where DNSSEC matters, its DNSKEY set) cannot be read through those same
 * resolvers, the fault is the service's own and the answer is `502 upstream_unavailable` with one
 * message, never a 404 or a finding against the target (docs/dns.md, "Own resolver health").
 *
 * Only negative or failing answers lead here, so the common path (a working resolver, a name
 * that exists) costs nothing. The verdict is cached in an Effect `Cache` on `Clock`: a healthy
 * one for HEALTHY_TTL, a failing one for FAILING_TTL (shorter, so a repaired resolver is noticed
 * soon); a burst of requests against a broken resolver asks the root once.
 */
import { Cache, Context, Duration, Effect, Exit, Fiber, Layer } from "effect"
import { UpstreamUnavailable } from "../../kernel/errors"
import { DnsResolver, type DnsError, type DnsResolverShape } from "./DnsResolver"

export const HEALTHY_TTL = Duration.seconds(5)
export const FAILING_TTL = Duration.seconds(2)

/** What the resolvers answered for the root: why each set could not be read, or null when it was. */
export interface RootVerdict {
  readonly ns: string | null
  readonly dnskey: string | null
}

export interface HealthOptions {
  /** The operation judges DNSSEC: the root's DNSKEY set must be readable too. */
  readonly dnssec?: boolean
}

/**
 * The service's own resolvers failed, not the target: a 502 `upstream_unavailable` on every
 * surface (it is an `UpstreamUnavailable`); monitor runs tell it apart to record nothing against
 * the target (docs/monitors.md).
 */
export class OwnResolversDown extends UpstreamUnavailable {}

/** The one message of that failure. */
export const ownResolversDown = (target: string, reason: string) =>
  new OwnResolversDown({
    message: `the service's DNS resolvers cannot answer for the root zone (${reason}); no report can be made for ${target}`
  })

/** Why the root's verdict fails for an operation (null: the root answers). */
export const failureOf = (v: RootVerdict, options?: HealthOptions): string | null => v.ns ?? (options?.dnssec ? v.dnskey : null)

const errorText = (e: DnsError): string =>
  e._tag === "DnsTimeout" ? "no answer" : e._tag === "DnsRcode" ? e.rcode : e._tag === "DnsMalformed" ? "malformed answer" : e.reason

/** One of the root's RRsets through the recursive resolvers: null when read, else why not. */
const readRoot = (resolver: DnsResolverShape, type: "NS" | "DNSKEY"): Effect.Effect<string | null> =>
  resolver.query({ name: ".", type, dnssec: type === "DNSKEY" }).pipe(
    Effect.map((ans) =>
      ans.rcode !== "NOERROR"
        ? `${type} of the root: ${ans.rcode}`
        : ans.answers.some((r) => r.type === type && r.name === ".")
        ? null
        : `${type} of the root: empty answer`
    ),
    Effect.catchAll((e) => Effect.succeed(`${type} of the root: ${errorText(e)}`))
  )

export interface ResolverHealthShape {
  /** The root's verdict (cached). */
  readonly root: Effect.Effect<RootVerdict>
  /**
   * Call where an answer about `target` is negative or failing, before blaming the target:
   * succeeds when the resolvers answer for the root (the answer is the target's own), else fails
   * with OwnResolversDown.
   */
  readonly confirm: (target: string, options?: HealthOptions) => Effect.Effect<void, OwnResolversDown>
  /**
   * `self`, with `confirm` asked when it fails or when `negative` holds for its result (its own
   * failure or result passes on unchanged when the root answers). A positive result asks nothing.
   */
  readonly guard: <A, E, R>(
    target: string,
    self: Effect.Effect<A, E, R>,
    negative?: (a: A) => boolean,
    options?: HealthOptions
  ) => Effect.Effect<A, E | OwnResolversDown, R>
}

export const makeResolverHealth = Effect.gen(function*() {
  const resolver = yield* DnsResolver
  const cache = yield* Cache.makeWith({
    capacity: 1,
    lookup: (_: ".") =>
      Effect.all({ ns: readRoot(resolver, "NS"), dnskey: readRoot(resolver, "DNSKEY") }, { concurrency: 2 }).pipe(
        Effect.tap((v) =>
          v.ns === null && v.dnskey === null ? Effect.void : Effect.logWarning(`the service's DNS resolvers cannot answer for the root zone: ${v.ns ?? v.dnskey}`)
        )
      ),
    timeToLive: (exit: Exit.Exit<RootVerdict>) =>
      Exit.isSuccess(exit) && exit.value.ns === null && exit.value.dnskey === null ? HEALTHY_TTL : FAILING_TTL
  })
  // The lookup runs in a daemon fiber: a caller interrupted by its deadline must not interrupt
  // the lookup that other callers wait for (Cache hands an interrupted lookup to every waiter).
  const root = Effect.flatMap(Effect.forkDaemon(cache.get(".")), Fiber.join)
  const confirm = Effect.fn("ResolverHealth.confirm")(function*(target: string, options?: HealthOptions) {
    const reason = failureOf(yield* root, options)
    if (reason !== null) return yield* ownResolversDown(target, reason)
  })
  const guard = <A, E, R>(target: string, self: Effect.Effect<A, E, R>, negative: (a: A) => boolean = () => false, options?: HealthOptions) =>
    self.pipe(
      Effect.tapError(() => confirm(target, options)),
      Effect.tap((a) => (negative(a) ? confirm(target, options) : Effect.void))
    )
  return { root, confirm, guard } satisfies ResolverHealthShape
})

export class ResolverHealth extends Context.Tag("domain-intel/ResolverHealth")<ResolverHealth, ResolverHealthShape>() {
  static readonly Live = Layer.effect(this, makeResolverHealth)
}
