/**
 * Certificate transparency through a crt.sh-compatible aggregator (`CT_AGGREGATOR_URL`):
 * `GET {base}/?q=<domain>&output=json`, deduplicated and sorted by `analyze.ts`.
 *
 * - Cache: one deduplicated result per domain for `CT_CACHE_TTL_S`; pages are cut from it, so
 *   paging never re-queries. Concurrent misses for one domain share one upstream query.
 * - Upstream failures (5xx, 429, timeouts, invalid JSON, connection errors) are retried with
 *   exponential backoff within `CT_BUDGET_MS`; then an expired cached result is served
 *   (outcome `stale`), else `UpstreamUnavailable` (502 upstream_unavailable).
 * - `embedded_sct`: the newest currently valid certificate is downloaded from the aggregator
 *   (`GET {base}/?d=<id>`, PEM), parsed with @peculiar/x509, and the SCTs in extension
 *   1.3.6.1.4.1.11129.2.4.2 counted. The aggregator, not a TLS handshake, so no connection is
 *   made to the audited domain and the answer matches the listed certificate.
 */
import "reflect-metadata"
import { AsnConvert, OctetString } from "@peculiar/asn1-schema"
import { X509Certificate } from "@peculiar/x509"
import { Clock, Context, Deferred, Duration, Effect, Exit, FiberId, Layer } from "effect"
import { AppConfig } from "../Config"
import { UpstreamUnavailable } from "../domain/errors"
import { countSctList, dedupe, issuerOrganization, sctCompliance, type CtEntry } from "./analyze"

export type { CtEntry } from "./analyze"

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
  readonly embeddedSct: (domain: string, entries: ReadonlyArray<CtEntry>) => Effect.Effect<{ readonly result: EmbeddedSct | null; readonly note: string | null }>
  /** Issuer organisations of the currently valid certificates of a domain. */
  readonly currentIssuers: (domain: string) => Effect.Effect<ReadonlyArray<string>, UpstreamUnavailable>
}

class Retryable {
  constructor(readonly reason: string) {}
}
class Fatal {
  constructor(readonly reason: string) {}
}

const MAX_BODY = 64 * 1024 * 1024
const MAX_CACHE = 2000
const STALE_MAX_MS = 7 * 86_400_000

interface CacheEntry {
  readonly entries: ReadonlyArray<CtEntry>
  readonly fetchedAt: number
  readonly duplicates: number
  readonly dropped: number
  sct?: { readonly result: EmbeddedSct | null; readonly note: string | null }
}

export interface CtOptions {
  readonly baseUrl: string
  readonly ttlMs: number
  readonly budgetMs: number
}

export const makeCtAggregator = (opts: CtOptions): CtAggregatorShape => {
  const base = opts.baseUrl.replace(/\/+$/, "")
  const cache = new Map<string, CacheEntry>()
  const inflight = new Map<string, Deferred.Deferred<CacheEntry, UpstreamUnavailable>>()

  const fetchText = (url: string, timeoutMs: number) =>
    Effect.tryPromise({
      try: async (signal) => {
        const ctl = new AbortController()
        const onAbort = () => ctl.abort()
        signal.addEventListener("abort", onAbort)
        const timer = setTimeout(() => ctl.abort(), timeoutMs)
        try {
          const res = await fetch(url, { signal: ctl.signal, headers: { accept: "application/json, application/x-pem-file, */*" }, redirect: "follow" })
          const reader = res.body?.getReader()
          const chunks: Array<Uint8Array> = []
          let size = 0
          if (reader) {
            for (;;) {
              const { done, value } = await reader.read()
              if (done) break
              size += value.length
              if (size > MAX_BODY) {
                ctl.abort()
                throw new Fatal(`aggregator answer larger than ${MAX_BODY} bytes`)
              }
              chunks.push(value)
            }
          }
          return { status: res.status, body: Buffer.concat(chunks).toString("utf8") }
        } finally {
          clearTimeout(timer)
          signal.removeEventListener("abort", onAbort)
        }
      },
      catch: (e) =>
        e instanceof Fatal
          ? e
          : new Retryable((e as Error)?.name === "AbortError" ? `no answer within ${timeoutMs} ms` : `connection failed: ${(e as Error)?.message ?? String(e)}`)
    })

  /** One query with retries and backoff inside the time budget. */
  const query = (domain: string) =>
    Effect.gen(function*() {
      const start = yield* Clock.currentTimeMillis
      const url = `${base}/?q=${encodeURIComponent(domain)}&output=json`
      let attempt = 0
      let last = "no attempt"
      for (;;) {
        const now = yield* Clock.currentTimeMillis
        const remaining = opts.budgetMs - (now - start)
        if (remaining < 50) break
        attempt++
        const r = yield* Effect.either(fetchText(url, remaining))
        if (r._tag === "Right") {
          const { status, body } = r.right
          if (status === 200) {
            try {
              const json = JSON.parse(body)
              if (!Array.isArray(json)) throw new Error("not a JSON array")
              return { rows: json as ReadonlyArray<unknown>, attempts: attempt }
            } catch (e) {
              last = `invalid JSON from the aggregator (${(e as Error).message})`
            }
          } else if (status >= 500 || status === 429 || status === 408) {
            last = `aggregator answered HTTP ${status}`
          } else {
            return yield* new UpstreamUnavailable({ message: `CT aggregator answered HTTP ${status} for ${domain}` })
          }
        } else if (r.left instanceof Fatal) {
          return yield* new UpstreamUnavailable({ message: `CT aggregator: ${r.left.reason}` })
        } else {
          last = r.left.reason
        }
        const backoff = Math.min(4000, 250 * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5)
        const after = yield* Clock.currentTimeMillis
        if (opts.budgetMs - (after - start) <= backoff + 50) break
        yield* Effect.sleep(Duration.millis(backoff))
      }
      return yield* new UpstreamUnavailable({ message: `CT aggregator unavailable after ${attempt} attempt${attempt === 1 ? "" : "s"} within ${opts.budgetMs} ms: ${last}` })
    })

  const refresh = (domain: string): Effect.Effect<CacheEntry, UpstreamUnavailable> =>
    Effect.suspend(() => {
      const existing = inflight.get(domain)
      if (existing) return Deferred.await(existing)
      const def = Deferred.unsafeMake<CacheEntry, UpstreamUnavailable>(FiberId.none)
      inflight.set(domain, def)
      return query(domain).pipe(
        Effect.flatMap(({ rows }) =>
          Effect.map(Clock.currentTimeMillis, (fetchedAt): CacheEntry => {
            const d = dedupe(rows)
            return { entries: d.entries, duplicates: d.duplicates, dropped: d.dropped, fetchedAt }
          })
        ),
        Effect.tap((entry) =>
          Effect.sync(() => {
            cache.delete(domain)
            cache.set(domain, entry)
            if (cache.size > MAX_CACHE) cache.delete(cache.keys().next().value!)
          })
        ),
        Effect.onExit((exit) =>
          Effect.sync(() => inflight.delete(domain)).pipe(
            Effect.zipRight(Exit.isInterrupted(exit) ? Deferred.interrupt(def) : Deferred.done(def, exit))
          )
        )
      )
    })

  const lookup = Effect.fn("CtAggregator.lookup")(function*(domainIn: string) {
    const domain = domainIn.toLowerCase().replace(/\.$/, "")
    const now = yield* Clock.currentTimeMillis
    const cached = cache.get(domain)
    if (cached && now - cached.fetchedAt < opts.ttlMs) {
      return { entries: cached.entries, outcome: "hit", fetchedAt: cached.fetchedAt, duplicates: cached.duplicates, dropped: cached.dropped, upstreamError: null } satisfies CtLookup
    }
    const fresh = yield* Effect.either(refresh(domain))
    if (fresh._tag === "Right") {
      const e = fresh.right
      return { entries: e.entries, outcome: "miss", fetchedAt: e.fetchedAt, duplicates: e.duplicates, dropped: e.dropped, upstreamError: null } satisfies CtLookup
    }
    const stale = cache.get(domain)
    if (stale && now - stale.fetchedAt < STALE_MAX_MS) {
      return { entries: stale.entries, outcome: "stale", fetchedAt: stale.fetchedAt, duplicates: stale.duplicates, dropped: stale.dropped, upstreamError: fresh.left.message } satisfies CtLookup
    }
    return yield* fresh.left
  })

  const search = (domain: string) => Effect.map(lookup(domain), (l) => l.entries)

  const examine = (id: number) =>
    Effect.gen(function*() {
      const r = yield* fetchText(`${base}/?d=${id}`, Math.min(10_000, opts.budgetMs))
      if (r.status !== 200) return yield* Effect.fail(new Retryable(`certificate ${id}: HTTP ${r.status}`))
      const cert = yield* Effect.try({ try: () => new X509Certificate(r.body.trim()), catch: (e) => new Retryable(`certificate ${id} is not parseable: ${(e as Error).message}`) })
      if (cert.getExtension(PRECERT_POISON_OID)) return { precert: true as const, cert, count: 0 }
      const ext = cert.getExtension(SCT_LIST_OID)
      if (!ext) return { precert: false as const, cert, count: 0 }
      const tls = yield* Effect.try({
        try: () => new Uint8Array(AsnConvert.parse(ext.value, OctetString).buffer),
        catch: () => new Retryable(`certificate ${id}: SCT list extension is not an OCTET STRING`)
      })
      const count = countSctList(tls)
      if (count === undefined) return yield* Effect.fail(new Retryable(`certificate ${id}: malformed SCT list`))
      return { precert: false as const, cert, count }
    })

  const embeddedSct = Effect.fn("CtAggregator.embeddedSct")(function*(domainIn: string, entries: ReadonlyArray<CtEntry>) {
    const domain = domainIn.toLowerCase().replace(/\.$/, "")
    const cached = cache.get(domain)
    if (cached?.sct && cached.entries === entries) return cached.sct
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
          out = { result: null, note: r.left instanceof Retryable || r.left instanceof Fatal ? r.left.reason : String(r.left) }
          continue
        }
        if (r.right.precert) continue
        const c = sctCompliance(r.right.count, r.right.cert.notBefore, r.right.cert.notAfter)
        out = { result: { count: r.right.count, chrome_compliant: c.chrome_compliant, note: c.note, certificate_id: id }, note: null }
        break
      }
    }
    if (cached && cached.entries === entries) cached.sct = out
    return out
  })

  const currentIssuers = (domain: string) =>
    Effect.gen(function*() {
      const entries = yield* search(domain)
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      return [...new Set(entries.filter((e) => e.not_after !== null && e.not_after > now).map((e) => issuerOrganization(e.issuer)))]
    })

  return { lookup, search, embeddedSct, currentIssuers }
}

export class CtAggregator extends Context.Tag("domain-intel/CtAggregator")<CtAggregator, CtAggregatorShape>() {
  static readonly Live = Layer.effect(
    this,
    Effect.map(AppConfig, (c) => makeCtAggregator({ baseUrl: c.ctAggregatorUrl, ttlMs: c.ctCacheTtlS * 1000, budgetMs: c.ctBudgetMs }))
  )
}
