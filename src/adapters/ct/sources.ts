/**
 * The CT sources of CT_SOURCES asked for one domain: all at once, each within the budget
 * (`CT_BUDGET_MS`, cut to fit the operation's deadline where the aggregator is built), each
 * answer reduced to `ok` with its entries, `error` with why, or `skipped` with why
 * (docs/operations/ct-logs.md, "Sources"). A source that answered 429 with a Retry-After beyond
 * the budget is skipped until that time on this instance: asking it sooner only spends its limit.
 */
import { Clock, Effect, type Option, type Redacted } from "effect"
import type { CtSourceName } from "../../platform/Config"
import { makeCrtShClient } from "./crtsh"
import { makeCertSpotterClient, MAX_PAGES } from "./certspotter"
import { dedupe, type CtEntry } from "./entries"
import type { SourceFailure } from "./upstream"

export const SOURCE_LABEL: Record<CtSourceName, string> = { crtsh: "crt.sh", certspotter: "Cert Spotter" }

export type SourceAnswer =
  | {
    readonly _tag: "ok"
    readonly name: CtSourceName
    readonly entries: ReadonlyArray<CtEntry>
    /** crt.sh rows merged as precertificate/certificate duplicates. */
    readonly duplicates: number
    /** Rows or issuances that could not be entries. */
    readonly dropped: number
    readonly limitations: ReadonlyArray<string>
    /** Cert Spotter ID → SCTs embedded in its certificate (only where the certificate, not the precertificate, came). */
    readonly scts: Readonly<Record<string, number>>
  }
  | { readonly _tag: "error"; readonly name: CtSourceName; readonly detail: string }
  | { readonly _tag: "skipped"; readonly name: CtSourceName; readonly detail: string }

export interface SourcesOptions {
  readonly sources: ReadonlyArray<CtSourceName>
  readonly crtshUrl: string
  readonly certspotterUrl: string
  readonly certspotterToken: Option.Option<Redacted.Redacted<string>>
}

const describe = (label: string, domain: string, budgetMs: number, e: SourceFailure): string =>
  e.retryable
    ? `${label} unavailable after ${e.attempts} attempt${e.attempts === 1 ? "" : "s"} within ${budgetMs} ms: ${e.reason}`
    : `${label}: ${e.reason} for ${domain}`

/** Needs an HttpClient (redirects not followed). */
export const makeSources = (opts: SourcesOptions) =>
  Effect.gen(function*() {
    const crtsh = yield* makeCrtShClient(opts.crtshUrl)
    const certspotter = yield* makeCertSpotterClient({ baseUrl: opts.certspotterUrl, token: opts.certspotterToken })
    /** Epoch ms before which a rate-limited source is not asked again. */
    const quietUntil = new Map<CtSourceName, number>()

    const fetch = (name: CtSourceName, domain: string, budgetMs: number): Effect.Effect<SourceAnswer, SourceFailure> => {
      if (name === "crtsh") {
        return Effect.map(crtsh.search(domain, budgetMs), ({ invalid, rows }): SourceAnswer => {
          const d = dedupe(rows)
          return { _tag: "ok", name, entries: d.entries, duplicates: d.duplicates, dropped: d.dropped + invalid, limitations: [], scts: {} }
        })
      }
      return Effect.map(certspotter.search(domain, budgetMs), (r): SourceAnswer => {
        const scts: Record<string, number> = {}
        for (const e of r.entries) if (e.finalSctCount !== null) scts[e.entry.certspotter_id!] = e.finalSctCount
        return {
          _tag: "ok",
          name,
          entries: r.entries.map((e) => e.entry),
          duplicates: 0,
          dropped: r.invalid,
          limitations: r.truncated ? [`Cert Spotter: stopped after ${MAX_PAGES} pages (${r.entries.length} issuances); more may exist`] : [],
          scts
        }
      })
    }

    const ask = (name: CtSourceName, domain: string, budgetMs: number): Effect.Effect<SourceAnswer> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const quiet = quietUntil.get(name)
        if (quiet !== undefined && now < quiet) {
          return Effect.succeed<SourceAnswer>({
            _tag: "skipped",
            name,
            detail: `${SOURCE_LABEL[name]} is rate-limited: not asked before ${new Date(quiet).toISOString()} (its Retry-After)`
          })
        }
        return fetch(name, domain, budgetMs).pipe(
          Effect.catchAll((e) =>
            Effect.map(Clock.currentTimeMillis, (at): SourceAnswer => {
              if (e.retryAfterMs !== undefined && !e.retryable) quietUntil.set(name, at + e.retryAfterMs)
              return { _tag: "error", name, detail: describe(SOURCE_LABEL[name], domain, budgetMs, e) }
            })
          )
        )
      })

    /** Every configured source at once, in CT_SOURCES order. */
    const askAll = (domain: string, budgetMs: number): Effect.Effect<ReadonlyArray<SourceAnswer>> =>
      Effect.all(opts.sources.map((name) => ask(name, domain, budgetMs)), { concurrency: "unbounded" })

    return { askAll, certificate: crtsh.certificate, sources: opts.sources }
  })
