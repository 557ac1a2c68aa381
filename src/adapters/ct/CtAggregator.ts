/**
 * Certificate transparency through a crt.sh-compatible aggregator (`CT_AGGREGATOR_URL`):
 * `GET {base}/?q=<domain>&output=json`, deduplicated and sorted by `analyze.ts`.
 *
 * - Cache: one deduplicated result per domain for `CT_CACHE_TTL_S`, in the store (table
 *   `ct_cache`, shared by every instance); pages are cut from it, so paging never re-queries.
 *   Concurrent misses for one domain on one instance share one upstream query.
 * - The HTTP side is `crtsh.ts`: no redirect followed, status filter, Schema-decoded rows;
 *   transient failures (5xx, 429, timeouts, invalid JSON, connection errors) retried on a
 *   jittered Schedule that ends within `CT_BUDGET_MS`; then an expired cached result (up to 7
 *   days old) is served (outcome `stale`), else `UpstreamUnavailable` (502 upstream_unavailable).
 * - `embedded_sct`: the newest currently valid certificate is downloaded from the aggregator
 *   (`GET {base}/?d=<id>`, PEM), parsed with @peculiar/x509, and the SCTs in extension
 *   1.3.6.1.4.1.11129.2.4.2 counted. The aggregator, not a TLS handshake, so no connection is
 *   made to the audited domain and the answer matches the listed certificate.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../../platform/Config"
import { UpstreamUnavailable } from "../../kernel/errors"
import { makeSingleFlight } from "../../kernel/singleFlight"
import { countSctList, dedupe, issuerOrganization, sctCompliance, type CtEntry } from "./entries"
import { CrtShHttpLive, makeCrtShClient } from "./crtsh"
import { makeCtCache } from "./ctCache"
import { READ_CACHE_MAX_AGE_MS } from "../../platform/store/readCache"
import { setNewest } from "../../kernel/memo"

export type { CtEntry } from "./entries"

export const SCT_LIST_OID = "1.3.6.1.4.1.11129.2.4.2"
export const PRECERT_POISON_OID = "1.3.6.1.4.1.11129.2.4.3"

export interface CtLookup {
  readonly entries: ReadonlyArray<CtEntry>
  readonly outcome: "hit" | "miss" | "stale"
  /** Epoch ms when the aggregator answered this result. */
  readonly fetchedAt: number
  /** Rows merged away as precertificate/certificate duplicates. */
  readonly duplicates: number
  /** Rows dropped as unusable (no ID or logged time). */
  readonly dropped: number
  /** Set when a stale result is served: why the fresh query failed. */
  readonly upstreamError: string | null
}

export interface EmbeddedSct {
  readonly count: number
  readonly chrome_compliant: boolean
  readonly note: string
  readonly certificate_id: number
}

export interface CtAggregatorShape {
  /** Deduplicated entries for a domain, newest first, with how the cache served them. */
  readonly lookup: (domain: string) => Effect.Effect<CtLookup, UpstreamUnavailable>
  /** Deduplicated entries for a domain, newest first (cached; stale on upstream failure). */
  readonly search: (domain: string) => Effect.Effect<ReadonlyArray<CtEntry>, UpstreamUnavailable>
  /** SCT count of the newest currently valid certificate; null when none could be examined (reason in `note`). */
  readonly embeddedSct: (domain: string, entries: ReadonlyArray<CtEntry>) => Effect.Effect<SctVerdict>
  /** Issuer organisations of the currently valid certificates of a domain. */
  readonly currentIssuers: (domain: string) => Effect.Effect<ReadonlyArray<string>, UpstreamUnavailable>
}

export interface SctVerdict {
  readonly result: EmbeddedSct | null
  readonly note: string | null
}

const MAX_MEMO = 2000
const STALE_MAX_MS = 7 * 86_400_000
/** The certificate download for embedded_sct: short, so lookup + SCT fit in the operation's deadline margin. */
const SCT_TIMEOUT_MS = 2000

interface Result {
  readonly entries: ReadonlyArray<CtEntry>
  readonly fetchedAt: number
  readonly duplicates: number
  readonly dropped: number
}

class Unexaminable {
  constructor(readonly reason: string) {}
}

export interface CtOptions {
  readonly baseUrl: string
  readonly ttlMs: number
  readonly budgetMs: number
}

/** Needs an HttpClient (CrtShHttpLive: no redirects followed) and the store (table ct_cache). */
export const makeCtAggregator = (opts: CtOptions) =>
  Effect.gen(function*() {
    const crtsh = yield* makeCrtShClient(opts.baseUrl)
    const store = yield* makeCtCache(STALE_MAX_MS)
    const flights = makeSingleFlight<Result, UpstreamUnavailable>()
    // Parsed results by domain, so a cache hit reuses one entries array (and its SCT verdict).
    // Not Effect's Cache: which result serves depends on rules of its own (fresh for the TTL,
    // confirmed against the shared store within READ_CACHE_MAX_AGE_MS, stale up to 7 days when
    // the aggregator fails), and upstream queries are shared by `flights` (src/kernel/singleFlight.ts).
    const memo = new Map<string, Result>()
    const sctMemo = new WeakMap<ReadonlyArray<CtEntry>, SctVerdict>()

    // When each memo entry was last read from (or written to) the store.
    const confirmed = new Map<string, number>()

    const remember = (domain: string, r: Result): Result => {
      const m = memo.get(domain)
      if (m && m.fetchedAt === r.fetchedAt) return m
      const evicted = setNewest(memo, domain, r, MAX_MEMO)
      if (evicted !== undefined) confirmed.delete(evicted[0])
      return r
    }

    const query = (domain: string) =>
      crtsh.search(domain, opts.budgetMs).pipe(
        Effect.mapError((e) =>
          new UpstreamUnavailable({
            message: e.retryable
              ? `CT aggregator unavailable after ${e.attempts} attempt${e.attempts === 1 ? "" : "s"} within ${opts.budgetMs} ms: ${e.reason}`
              : `CT aggregator: ${e.reason} for ${domain}`
          })
        )
      )

    /** One upstream query per domain at a time on this instance; the result goes to the store. */
    const refresh = (domain: string): Effect.Effect<Result, UpstreamUnavailable> =>
      flights.run(domain, query(domain).pipe(
        Effect.flatMap(({ rows, invalid }) =>
          Effect.map(Clock.currentTimeMillis, (fetchedAt): Result => {
            const d = dedupe(rows)
            return { entries: d.entries, duplicates: d.duplicates, dropped: d.dropped + invalid, fetchedAt }
          })
        ),
        Effect.tap((r) => store.write(domain, r)),
        Effect.map((r) => {
          confirmed.set(domain, r.fetchedAt)
          return remember(domain, r)
        })
      ))

    const domainKey = (domainIn: string) => domainIn.toLowerCase().replace(/\.$/, "")
    const view = (r: Result, outcome: CtLookup["outcome"], upstreamError: string | null): CtLookup =>
      ({ entries: r.entries, outcome, fetchedAt: r.fetchedAt, duplicates: r.duplicates, dropped: r.dropped, upstreamError })
    // A fresh result this instance read or wrote within READ_CACHE_MAX_AGE_MS needs no store
    // read: a change to the row by another instance is seen after that bound at the latest.
    const freshHeld = (domain: string, now: number): Result | undefined => {
      const r = memo.get(domain)
      return r !== undefined && now - r.fetchedAt < opts.ttlMs && now - (confirmed.get(domain) ?? 0) < READ_CACHE_MAX_AGE_MS ? r : undefined
    }

    const lookup = Effect.fnUntraced(function*(domainIn: string) {
      const domain = domainKey(domainIn)
      const now = yield* Clock.currentTimeMillis
      const held = freshHeld(domain, now)
      if (held !== undefined) return view(held, "hit", null)
      const stored = Option.map(yield* store.read(domain), (r) => remember(domain, { ...r, entries: r.entries as ReadonlyArray<CtEntry> }))
      if (Option.isSome(stored)) confirmed.set(domain, now)
      if (Option.isSome(stored) && now - stored.value.fetchedAt < opts.ttlMs) return view(stored.value, "hit", null)
      const fresh = yield* Effect.either(refresh(domain))
      if (fresh._tag === "Right") return view(fresh.right, "miss", null)
      if (Option.isSome(stored) && now - stored.value.fetchedAt < STALE_MAX_MS) return view(stored.value, "stale", fresh.left.message)
      return yield* fresh.left
    })

    const search = (domain: string) => Effect.map(lookup(domain), (l) => l.entries)

    const examine = (id: number) =>
      Effect.gen(function*() {
        const pem = yield* crtsh.certificate(id, Math.min(SCT_TIMEOUT_MS, opts.budgetMs)).pipe(Effect.mapError((e) => new Unexaminable(e.reason.startsWith("certificate") ? e.reason : `certificate ${id}: ${e.reason}`)))
        // The x509 stack is loaded when the first certificate is examined, not at start-up.
        const { asn1, x509 } = yield* Effect.promise(() => import("../pkix/peculiar"))
        const cert = yield* Effect.try({ try: () => new x509.X509Certificate(pem.trim()), catch: (e) => new Unexaminable(`certificate ${id} is not parseable: ${(e as Error).message}`) })
        if (cert.getExtension(PRECERT_POISON_OID)) return { precert: true as const, cert, count: 0 }
        const ext = cert.getExtension(SCT_LIST_OID)
        if (!ext) return { precert: false as const, cert, count: 0 }
        const tls = yield* Effect.try({
          try: () => new Uint8Array(asn1.AsnConvert.parse(ext.value, asn1.OctetString).buffer),
          catch: () => new Unexaminable(`certificate ${id}: SCT list extension is not an OCTET STRING`)
        })
        const count = countSctList(tls)
        if (count === undefined) return yield* Effect.fail(new Unexaminable(`certificate ${id}: malformed SCT list`))
        return { precert: false as const, cert, count }
      })

    const embeddedSct = Effect.fnUntraced(function*(_domain: string, entries: ReadonlyArray<CtEntry>) {
      const known = sctMemo.get(entries)
      if (known) return known
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      const current = entries
        .filter((e) => e.not_after !== null && e.not_after > now && (e.not_before === null || e.not_before <= now))
        .sort((a, b) => ((b.not_before ?? "") > (a.not_before ?? "") ? 1 : (b.not_before ?? "") < (a.not_before ?? "") ? -1 : b.id - a.id))[0]
      let out: { result: EmbeddedSct | null; note: string | null }
      if (!current) {
        out = { result: null, note: "no currently valid certificate in the CT results" }
      } else {
        out = { result: null, note: `certificate ${current.id}: only the precertificate is logged; SCTs are embedded in the final certificate` }
        // The final certificate carries the SCTs; try the newest-logged member first.
        for (const id of [...current.ids].sort((a, b) => b - a)) {
          const r = yield* Effect.either(examine(id))
          if (r._tag === "Left") {
            out = { result: null, note: r.left.reason }
            continue
          }
          if (r.right.precert) continue
          const c = sctCompliance(r.right.count, r.right.cert.notBefore, r.right.cert.notAfter)
          out = { result: { count: r.right.count, chrome_compliant: c.chrome_compliant, note: c.note, certificate_id: id }, note: null }
          break
        }
      }
      sctMemo.set(entries, out)
      return out
    })

    const currentIssuers = (domain: string) =>
      Effect.gen(function*() {
        const entries = yield* search(domain)
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        return [...new Set(entries.filter((e) => e.not_after !== null && e.not_after > now).map((e) => issuerOrganization(e.issuer)))]
      })

    return { lookup, search, embeddedSct, currentIssuers } satisfies CtAggregatorShape
  })

export class CtAggregator extends Context.Tag("domain-intel/CtAggregator")<CtAggregator, CtAggregatorShape>() {
  /** Needs AppConfig and the store (SqlClient); brings its own HttpClient (no redirects). */
  static readonly Live = Layer.effect(
    this,
    Effect.flatMap(AppConfig, (c) => makeCtAggregator({ baseUrl: c.ctAggregatorUrl, ttlMs: c.ctCacheTtlS * 1000, budgetMs: c.ctBudgetMs }))
  ).pipe(Layer.provide(CrtShHttpLive))
}
