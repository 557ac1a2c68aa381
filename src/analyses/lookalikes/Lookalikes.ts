/**
 * Lookalike domains (docs/operations/lookalikes.md): the permutations of a domain
 * (permutations.ts), each resolved through the service's resolvers (resolve.ts), the home page
 * of each registered one that has an address compared with the domain's own (pages.ts,
 * similarity.ts), then risk and findings (risk.ts).
 *
 * How one call runs, all within the operation's deadline:
 * - first, at once: whether the service's own resolvers answer for the root (when they do not,
 *   502: adapters/dns/ResolverHealth.ts; asked before the sweep, not after it, since nearly every
 *   permutation answers NXDOMAIN), the domain's own A lookup (a domain that does not exist
 *   still has lookalikes: the report says so in `limitations`), and the domain's home page;
 * - then the sweep: every permutation resolved, LOOKALIKES_DNS_CONCURRENCY lookups in flight on
 *   this instance (one semaphore shared by every call, so concurrent calls share the resolver's
 *   capacity instead of multiplying it); a registered name with an address has its home page
 *   fetched as soon as it is found, beside the sweep (at most PAGE_CONCURRENCY at once);
 * - the permutations left unresolved (a timeout, a SERVFAIL) are asked once more while time
 *   remains;
 * - the sweep stops when the time left is what a page needs; what was not resolved by then is
 *   counted in `limitations`, as are pages not fetched by the end. The answer is always a report,
 *   never a 502 for lack of time.
 */
import { Clock, Context, Duration, Effect, Exit, Fiber, Layer, Option } from "effect"
import { DnsResolver } from "../../adapters/dns/DnsResolver"
import { ResolverHealth } from "../../adapters/dns/ResolverHealth"
import { HttpProbe } from "../../adapters/probe/HttpProbe"
import { InvalidRequest, type UpstreamUnavailable } from "../../kernel/errors"
import { AppConfig } from "../../platform/Config"
import { type HomePage, homePage, PAGE_TIMEOUT_MS } from "./pages"
import { FUZZERS, type FuzzerName, permutations } from "./permutations"
import { resolveName, type Resolution } from "./resolve"
import { assessLookalike, lookalikesReport } from "./risk"
import type { LookalikesReport } from "./schema"
import { sweepLimitations } from "./limitations"
import { fuzzyCompare } from "./ssdeep"

export interface LookalikesRequest {
  /** A host name, normalised (kernel/domainParam.ts). */
  readonly domain: string
  /** The fuzzers to run (default all). */
  readonly fuzzers?: ReadonlyArray<FuzzerName>
}

export interface LookalikesShape {
  readonly find: (req: LookalikesRequest) => Effect.Effect<LookalikesReport, InvalidRequest | UpstreamUnavailable>
}

/** Home pages fetched at once per call (each a short HTTP exchange; lookups are the sweep's cost). */
export const PAGE_CONCURRENCY = 16

/**
 * The part of OPERATION_DEADLINE_MS the sweep and the pages may use: the rest (a tenth, at least
 * 0.5 s and at most 2 s) is kept for what comes before (authentication) and after (the report's
 * encoding and the answer), so the operation answers with its report before the deadline's 502.
 */
export const budgetOf = (deadlineMs: number) => deadlineMs - Math.min(2000, Math.max(500, Math.round(deadlineMs / 10)))

export const makeLookalikes = Effect.gen(function*() {
  const config = yield* AppConfig
  const resolver = yield* DnsResolver
  const health = yield* ResolverHealth
  const probe = yield* HttpProbe
  const ports = { https: config.pageHttpsPort, http: config.pageHttpPort }
  const lookups = yield* Effect.makeSemaphore(config.lookalikesDnsConcurrency)

  const find = Effect.fn("Lookalikes.find")(function*(req: LookalikesRequest) {
    const t0 = yield* Clock.currentTimeMillis
    const checkedAt = new Date(t0).toISOString()
    const budget = budgetOf(config.operationDeadlineMs)
    const pageMs = Math.min(PAGE_TIMEOUT_MS, Math.floor(budget / 3))
    const set = permutations(req.domain, req.fuzzers ?? FUZZERS)
    if (set === null) {
      return yield* new InvalidRequest({ message: `domain must be a host name of at least two labels (letters, digits and hyphens): ${JSON.stringify(req.domain)}` })
    }
    const domain = set.domain.ascii
    const perms = set.permutations
    const timings: Record<string, number> = {}
    const since = () => Effect.map(Clock.currentTimeMillis, (t) => t - t0)
    timings.generation = yield* since()

    // Lookups of one operation share their answers (the guard's lookups of each page's host).
    const shared = { ...probe, fetch: yield* probe.sharingLookups }
    const pageSlots = yield* Effect.makeSemaphore(PAGE_CONCURRENCY)
    const page = (host: string) => pageSlots.withPermits(1)(homePage(shared, host, ports, pageMs))

    const [, own] = yield* Effect.all([health.confirm(domain), Effect.either(resolver.query({ name: domain, type: "A" }))], { concurrency: 2 })
    const ownExists = !(own._tag === "Right" && own.right.rcode === "NXDOMAIN" && own.right.answers.length === 0)
    // The site of a domain without an address of its own is at www (as the audit's web host).
    const noAddress = own._tag === "Right" && own.right.rcode === "NOERROR" && !own.right.answers.some((r) => r.type === "A")
    const ownPage = ownExists ? yield* Effect.forkScoped(page(noAddress ? `www.${domain}` : domain)) : null

    // The sweep. Each permutation's outcome is written at its index by the fiber that resolved
    // it; an index left empty was not resolved in time.
    const results: Array<Resolution | undefined> = new Array(perms.length)
    const pages = new Map<number, Fiber.RuntimeFiber<HomePage>>()
    const one = (i: number) =>
      Effect.flatMap(lookups.withPermits(1)(resolveName(resolver, perms[i].domain)), (r) => {
        results[i] = r
        if (r._tag !== "Registered" || r.a.length + r.aaaa.length === 0 || pages.has(i)) return Effect.void
        return Effect.map(Effect.forkScoped(page(perms[i].domain)), (f) => void pages.set(i, f))
      })
    const sweepEnd = t0 + budget - pageMs
    const sweep = (indices: ReadonlyArray<number>) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.forEach(indices, one, { concurrency: config.lookalikesDnsConcurrency, discard: true }).pipe(
          Effect.timeoutOption(Duration.millis(Math.max(0, sweepEnd - now)))
        ))
    yield* sweep(perms.map((_, i) => i))
    // One more try for what failed, while a lookup still has time to finish.
    const again = perms.flatMap((_, i) => (results[i]?._tag === "Unresolved" ? [i] : []))
    const retried = again.length > 0 && sweepEnd - (yield* Clock.currentTimeMillis) > config.dnsTimeoutMs
    if (retried) yield* sweep(again)
    timings.resolution = yield* since()

    // The pages: whatever is done by the end of the budget.
    const waitFor = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.forEach([...(ownPage ? [ownPage] : []), ...pages.values()], Fiber.await, { concurrency: "unbounded", discard: true }).pipe(
        Effect.timeoutOption(Duration.millis(Math.max(0, t0 + budget - now)))
      ))
    yield* waitFor
    const done = (f: Fiber.RuntimeFiber<HomePage>) =>
      Effect.map(Fiber.poll(f), (o) => (Option.isSome(o) && Exit.isSuccess(o.value) ? o.value.value : null))
    const ownHome = ownPage === null ? null : yield* done(ownPage)
    const homes = new Map<number, HomePage | null>()
    for (const [i, f] of pages) homes.set(i, yield* done(f))
    timings.pages = yield* since()

    const toDomain = new Set<string>()
    const lookalikes = perms.flatMap((p, i) => {
      const r = results[i]
      if (r?._tag !== "Registered") return []
      const home = homes.get(i) ?? null
      const sameAsOwn = home?.served === true && ownHome?.served === true && home.finalUrl === ownHome.finalUrl
      if (sameAsOwn) toDomain.add(p.domain)
      const similarity = home?.served && ownHome?.served && !sameAsOwn ? fuzzyCompare(ownHome.digest!, home.digest!) : null
      return [assessLookalike({ permutation: p, a: r.a, aaaa: r.aaaa, mx: r.mx, ns: r.ns, serves_web: home?.served === true, web_similarity: similarity })]
    })
    const limitations = sweepLimitations({
      domain,
      ownExists,
      ownHome: ownPage === null ? "absent" : ownHome,
      truncated: set.truncated,
      permutations: perms.map((p) => p.domain),
      results,
      pagesUnfinished: [...homes.entries()].flatMap(([i, h]) => (h === null ? [perms[i].domain] : [])),
      deadlineMs: config.operationDeadlineMs,
      retried
    })
    timings.total = yield* since()
    return lookalikesReport({ checked_at: checkedAt, timings_ms: timings, set, lookalikes, limitations, toDomain })
  }, Effect.scoped)

  return { find } satisfies LookalikesShape
})

export class Lookalikes extends Context.Tag("domain-intel/Lookalikes")<Lookalikes, LookalikesShape>() {
  static readonly Live = Layer.effect(this, makeLookalikes)
}
