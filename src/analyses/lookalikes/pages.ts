/**
 * Home pages for web similarity (docs/operations/lookalikes.md, "Web similarity"): the domain's
 * own and each registered lookalike's, fetched as the page operations fetch a bare domain
 * (https first, http when nothing answers over TLS: analyses/page/target.ts) through HttpProbe,
 * so the target guard judges every hop. A lookalike site is hostile by assumption, so each fetch
 * is bounded as http-check bounds one: one deadline for the whole exchange with its redirects, at
 * most 5 redirects (a loop ends there), the body read to at most 1 MiB (an endless body is cut).
 *
 * A page is "served" when the last answer is a 2xx with a body that is not blank: what dnstwist
 * compares too (its fetcher treats 4xx and 5xx as errors). A redirect stub of a few hundred
 * bytes that sends the browser on with `<meta http-equiv="refresh">` is followed once before
 * hashing, as dnstwist does (similarity.ts, `metaRefreshTarget`).
 */
import { Duration, Effect } from "effect"
import { HttpProbe, type HttpProbeShape, type ProbeOutcome } from "../../adapters/probe/HttpProbe"
import { fetchPage, type PagePorts, pageTarget } from "../page/target"
import { metaRefreshTarget, pageDigest } from "./similarity"

/** Bytes of a home page kept: a home page's HTML is far smaller; an endless body stops here. */
export const MAX_PAGE_BYTES = 1024 * 1024
/** The longest one page may take, redirects included (dnstwist waits 5 s too). */
export const PAGE_TIMEOUT_MS = 5_000
export const MAX_REDIRECTS = 5

export interface HomePage {
  /** A 2xx answer with a body that is not blank. */
  readonly served: boolean
  /** The ssdeep digest of the normalised page (similarity.ts), when served. */
  readonly digest: string | null
  /** Where the page was finally read from, without its query (null when nothing answered). */
  readonly finalUrl: string | null
  /** Why there is no page (null when served). */
  readonly problem: string | null
}

const utf8 = new TextDecoder("utf-8")

const withoutQuery = (url: string) => url.split(/[?#]/)[0]

const why = (o: ProbeOutcome): string =>
  o.error !== null ? o.error.kind.replaceAll("_", " ") : o.response !== null ? `HTTP ${o.response.status}` : "no answer"

const request = (timeoutMs: number) => ({
  method: "GET" as const,
  headers: [["Accept", "text/html,application/xhtml+xml,application/xml;q=0.9"]] as ReadonlyArray<readonly [string, string]>,
  timeoutMs,
  maxBodyBytes: MAX_PAGE_BYTES,
  followRedirects: true,
  maxRedirects: MAX_REDIRECTS,
  decompress: true
})

/** The page an outcome ended on, or why there is none. */
const pageOf = (o: ProbeOutcome): { readonly html: string; readonly finalUrl: string } | { readonly problem: string } => {
  const r = o.response
  if (r === null || o.error !== null) return { problem: why(o) }
  if (r.status < 200 || r.status > 299) return { problem: `HTTP ${r.status}` }
  const html = utf8.decode(r.body)
  if (html.trim() === "") return { problem: "empty page" }
  return { html, finalUrl: withoutQuery(o.finalUrl) }
}

const nothing = (problem: string, finalUrl: string | null = null): HomePage => ({ served: false, digest: null, finalUrl, problem })

/**
 * The home page of `host` through `probe` (typically with a fetch that shares lookups within the
 * operation): each attempt (https, then http, then a meta refresh) within `timeoutMs`, and all of
 * them within twice that. Never fails: a refused target (a lookalike that points at a private
 * address), a timeout or an error is a page not served.
 */
export const homePage = (probe: HttpProbeShape, host: string, ports: PagePorts, timeoutMs: number): Effect.Effect<HomePage> =>
  Effect.gen(function*() {
    const target = pageTarget(host, ports)
    if (target instanceof Error) return nothing(target.message)
    const fetch = probe.fetch
    const outcome = yield* fetchPage(target, request(timeoutMs)).pipe(Effect.provideService(HttpProbe, probe))
    const page = pageOf(outcome)
    if ("problem" in page) return nothing(page.problem, outcome.response === null ? null : withoutQuery(outcome.finalUrl))
    const onward = metaRefreshTarget(page.html)
    if (onward !== null) {
      const next = yield* Effect.either(fetch({ url: onward, ...request(timeoutMs) }))
      const followed = next._tag === "Right" ? pageOf(next.right) : null
      if (followed !== null && !("problem" in followed)) return { served: true, digest: pageDigest(followed.html), finalUrl: followed.finalUrl, problem: null }
    }
    return { served: true, digest: pageDigest(page.html), finalUrl: page.finalUrl, problem: null }
  }).pipe(
    Effect.catchAll((e) => Effect.succeed(nothing(e.message))),
    Effect.timeoutTo({ duration: Duration.millis(2 * timeoutMs), onSuccess: (page) => page, onTimeout: () => nothing("timeout") })
  )
