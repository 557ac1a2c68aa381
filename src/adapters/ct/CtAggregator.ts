/**
 * Certificate transparency from the aggregators of CT_SOURCES (crt.sh's JSON, `crtsh.ts`;
 * SSLMate's Cert Spotter API, `certspotter.ts`): asked at once for a domain, merged into one
 * entry per certificate (`merge.ts`), each source's status kept (`result.ts`). The one CT
 * service: the CT Logs operation and MCP tool, the `ct_new_certificate` monitor, the CT history
 * of ssl_certificate, Zone Hygiene's CAA check and the names other operations read all use it.
 *
 * - Cache: one merged result per domain for `CT_CACHE_TTL_S` (a result in which a source failed
 *   or was skipped: at most DEGRADED_TTL_MS, so the source is asked again soon), in the store
 *   (table `ct_cache`, shared by every instance); pages are cut from it, so paging never
 *   re-queries. Concurrent misses for one domain on one instance share one round of queries.
 * - Failures: each source retries transient failures within `CT_BUDGET_MS` (`upstream.ts`). When
 *   some source answers, the result is fresh and names the others' failures; when none does, an
 *   expired cached result (up to 7 days old) is served (outcome `stale`), else
 *   `UpstreamUnavailable` (502 upstream_unavailable).
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { AppConfig, type AppConfigShape } from "../../platform/Config"
import { UpstreamUnavailable } from "../../kernel/errors"
import { makeSingleFlight } from "../../kernel/singleFlight"
import { issuerOrganization, type CtEntry } from "./entries"
import { CrtShHttpLive } from "./crtsh"
import { makeCtCache, type SourceState } from "./ctCache"
import { makeSources, type SourceAnswer, type SourcesOptions } from "./sources"
import { resultOf, type Result, staleSources } from "./result"
import { makeSctExaminer, type SctVerdict } from "./sct"
import { READ_CACHE_MAX_AGE_MS } from "../../platform/store/readCache"
import { setNewest } from "../../kernel/memo"

export type { CtEntry } from "./entries"
export type { SourceState } from "./ctCache"
export { PRECERT_POISON_OID, SCT_LIST_OID, type EmbeddedSct, type SctVerdict } from "./sct"

export interface CtLookup {
  readonly entries: ReadonlyArray<CtEntry>
  readonly outcome: "hit" | "miss" | "stale"
  /** Epoch ms when the sources answered this result. */
  readonly fetchedAt: number
  /** Rows merged away as precertificate/certificate duplicates. */
  readonly duplicates: number
  /** Rows dropped as unusable (no ID or logged time). */
  readonly dropped: number
  /** Certificates listed by more than one source, merged. */
  readonly overlap: number
  /** Each configured source: its status in this result and the certificates it listed. */
  readonly sources: ReadonlyArray<SourceState>
  /** Caveats of the result: failed or skipped sources, bounds reached, stand-in fields. */
  readonly limitations: ReadonlyArray<string>
  /** Set when a stale result is served: why the fresh query failed. */
  readonly upstreamError: string | null
  /** Cert Spotter ID → SCTs embedded in its certificate (see sct.ts). */
  readonly scts: Readonly<Record<string, number>>
}

export interface CtAggregatorShape {
  /** Merged entries for a domain, newest first, with how the cache served them and each source's status. */
  readonly lookup: (domain: string) => Effect.Effect<CtLookup, UpstreamUnavailable>
  /** Merged entries for a domain, newest first (cached; stale on upstream failure). */
  readonly search: (domain: string) => Effect.Effect<ReadonlyArray<CtEntry>, UpstreamUnavailable>
  /** Every DNS name the certificates of a domain name (subject names, wildcards as `*.x`), sorted, once each. */
  readonly names: (domain: string) => Effect.Effect<ReadonlyArray<string>, UpstreamUnavailable>
  /** SCT count of the newest currently valid certificate of a lookup; null when none could be examined (reason in `note`). */
  readonly embeddedSct: (domain: string, lookup: CtLookup) => Effect.Effect<SctVerdict>
  /** Issuer organisations of the currently valid certificates of a domain. */
  readonly currentIssuers: (domain: string) => Effect.Effect<ReadonlyArray<string>, UpstreamUnavailable>
}

const MAX_MEMO = 2000
const STALE_MAX_MS = 7 * 86_400_000
/** How long a result in which a source failed or was skipped stays fresh (at most the TTL). */
export const DEGRADED_TTL_MS = 5 * 60_000
/** The certificate download for embedded_sct: short, so lookup + SCT fit in the operation's deadline margin. */
const SCT_TIMEOUT_MS = 2000

export interface CtOptions extends SourcesOptions {
  readonly ttlMs: number
  readonly budgetMs: number
}

/** Every source failed or was skipped: each one's answer, and the message naming them. */
class NoSourceAnswered {
  readonly message: string
  constructor(readonly answers: ReadonlyArray<SourceAnswer>) {
    const why = answers.flatMap((a) => (a._tag === "ok" ? [] : [a.detail]))
    this.message = why.length === 1 ? why[0] : `no CT source answered: ${why.join("; ")}`
  }
}

const degraded = (r: Result) => r.sources.some((s) => s.status !== "ok")

/** Needs an HttpClient (CrtShHttpLive: no redirects followed) and the store (table ct_cache). */
export const makeCtAggregator = (opts: CtOptions) =>
  Effect.gen(function*() {
    const sources = yield* makeSources(opts)
    const store = yield* makeCtCache(STALE_MAX_MS)
    const flights = makeSingleFlight<Result, NoSourceAnswered>()
    const examine = makeSctExaminer(sources.certificate, Math.min(SCT_TIMEOUT_MS, opts.budgetMs))
    // Results by domain, so a cache hit reuses one entries array (and its SCT verdict).
    // Not Effect's Cache: which result serves depends on rules of its own (fresh for the TTL,
    // confirmed against the shared store within READ_CACHE_MAX_AGE_MS, stale up to 7 days when
    // every source fails), and queries are shared by `flights` (src/kernel/singleFlight.ts).
    const memo = new Map<string, Result>()
    const sctMemo = new WeakMap<ReadonlyArray<CtEntry>, SctVerdict>()
    // When each memo entry was last read from (or written to) the store.
    const confirmed = new Map<string, number>()
    const ttlOf = (r: Result) => (degraded(r) ? Math.min(opts.ttlMs, DEGRADED_TTL_MS) : opts.ttlMs)

    const remember = (domain: string, r: Result): Result => {
      const m = memo.get(domain)
      if (m && m.fetchedAt === r.fetchedAt) return m
      const evicted = setNewest(memo, domain, r, MAX_MEMO)
      if (evicted !== undefined) confirmed.delete(evicted[0])
      return r
    }

    /** Every source asked; their answers as one result, or NoSourceAnswered. */
    const query = (domain: string, previous: Result | undefined) =>
      Effect.gen(function*() {
        const answers = yield* sources.askAll(domain, opts.budgetMs)
        if (!answers.some((a) => a._tag === "ok")) return yield* Effect.fail(new NoSourceAnswered(answers))
        return resultOf(answers, previous, yield* Clock.currentTimeMillis, sources.sources, STALE_MAX_MS)
      })

    /** One round of queries per domain at a time on this instance; the result goes to the store. */
    const refresh = (domain: string, previous: Result | undefined): Effect.Effect<Result, NoSourceAnswered> =>
      flights.run(domain, query(domain, previous).pipe(
        Effect.tap((r) => store.write(domain, r)),
        Effect.map((r) => {
          confirmed.set(domain, r.fetchedAt)
          return remember(domain, r)
        })
      ))

    const domainKey = (domainIn: string) => domainIn.toLowerCase().replace(/\.$/, "")
    const view = (r: Result, outcome: CtLookup["outcome"], upstreamError: string | null): CtLookup => ({ ...r, outcome, upstreamError })
    // A fresh result this instance read or wrote within READ_CACHE_MAX_AGE_MS needs no store
    // read: a change to the row by another instance is seen after that bound at the latest.
    const freshHeld = (domain: string, now: number): Result | undefined => {
      const r = memo.get(domain)
      return r !== undefined && now - r.fetchedAt < ttlOf(r) && now - (confirmed.get(domain) ?? 0) < READ_CACHE_MAX_AGE_MS ? r : undefined
    }

    const lookup = Effect.fnUntraced(function*(domainIn: string) {
      const domain = domainKey(domainIn)
      const now = yield* Clock.currentTimeMillis
      const held = freshHeld(domain, now)
      if (held !== undefined) return view(held, "hit", null)
      const stored = Option.map(yield* store.read(domain), (r) => remember(domain, { ...r, entries: r.entries as ReadonlyArray<CtEntry> }))
      if (Option.isSome(stored)) confirmed.set(domain, now)
      if (Option.isSome(stored) && now - stored.value.fetchedAt < ttlOf(stored.value)) return view(stored.value, "hit", null)
      const fresh = yield* Effect.either(refresh(domain, Option.getOrUndefined(stored)))
      if (fresh._tag === "Right") return view(fresh.right, "miss", null)
      const failure = fresh.left
      if (Option.isSome(stored) && now - stored.value.fetchedAt < STALE_MAX_MS) {
        return { ...view(stored.value, "stale", failure.message), sources: staleSources(stored.value, failure.answers) }
      }
      return yield* new UpstreamUnavailable({ message: failure.message })
    })

    const search = (domain: string) => Effect.map(lookup(domain), (l) => l.entries)

    const names = (domain: string) =>
      Effect.map(search(domain), (entries) => [...new Set(entries.flatMap((e) => e.names))].sort())

    const embeddedSct = Effect.fnUntraced(function*(_domain: string, l: CtLookup) {
      const known = sctMemo.get(l.entries)
      if (known) return known
      const crtshAnswered = l.sources.some((s) => s.name === "crtsh" && s.status === "ok")
      const out = yield* examine(l.entries, l.scts, crtshAnswered)
      sctMemo.set(l.entries, out)
      return out
    })

    const currentIssuers = (domain: string) =>
      Effect.gen(function*() {
        const entries = yield* search(domain)
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        return [...new Set(entries.filter((e) => e.not_after !== null && e.not_after > now).map((e) => issuerOrganization(e.issuer)))]
      })

    return { lookup, search, names, embeddedSct, currentIssuers } satisfies CtAggregatorShape
  })

export class CtAggregator extends Context.Tag("domain-intel/CtAggregator")<CtAggregator, CtAggregatorShape>() {
  /**
   * Needs AppConfig and the store (SqlClient); brings its own HttpClient (no redirects).
   * `budgetMs` chooses the retry budget from the configuration (default CT_BUDGET_MS).
   */
  static readonly layer = (budgetMs: (c: AppConfigShape) => number = (c) => c.ctBudgetMs) =>
    Layer.effect(
      this,
      Effect.flatMap(AppConfig, (c) =>
        makeCtAggregator({
          sources: c.ctSources,
          crtshUrl: c.ctAggregatorUrl,
          certspotterUrl: c.ctCertspotterUrl,
          certspotterToken: c.ctCertspotterToken,
          ttlMs: c.ctCacheTtlS * 1000,
          budgetMs: budgetMs(c)
        }))
    ).pipe(Layer.provide(CrtShHttpLive))

  static readonly Live = CtAggregator.layer()
}
