/**
 * What one scan fetched, as plain data: the input of every test (pure, no I/O).
 *
 * The MDN HTTP Observatory (1.4.8) fetches `/` over http and over https, each following
 * redirects and recording every response of the chain, then `/robots.txt` and a CORS preflight
 * (`OPTIONS` with an `Origin`) on the session it grades. The tests read headers the way Node's
 * HTTP parser hands them over, so `nodeHeaders` rebuilds that view from the raw header lines.
 */

import type { Cookie } from "./jar"

/** One response of a redirect chain. */
export interface Hop {
  /** The URL requested for this response. */
  readonly url: string
  readonly status: number
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>
}

/** One fetch of `/` with its redirects followed (the Observatory follows at most 10). */
export interface Session {
  /** Every response of the chain in order; the last one is the page. */
  readonly hops: ReadonlyArray<Hop>
  /** Every https certificate of the chain verified (the Observatory retries unverified otherwise). */
  readonly verified: boolean
  /** The page's body as text (decoded), or null when there was none. */
  readonly body: string | null
  /**
   * The session's cookie jar at the end (jar.ts): every hop's cookies, and when the session fell
   * back to unverified TLS those of its follow-up requests (robots.txt, the preflight), which
   * only then share its jar.
   */
  readonly cookies: ReadonlyArray<Cookie>
}

export interface Retrieval {
  /** The host name scanned. */
  readonly hostname: string
  /** The http session, null when it produced no response at all (refused, reset, timeout). */
  readonly http: Session | null
  readonly https: Session | null
  /** The CORS preflight's answer (only a 2xx counts), with the Origin that was sent. */
  readonly cors: { readonly rawHeaders: ReadonlyArray<readonly [string, string]>; readonly origin: string } | null
}

/** The session the grade is about: https when it answered, else http. */
export const gradedSession = (r: Retrieval): Session | null => r.https ?? r.http

export const gradedScheme = (r: Retrieval): "http:" | "https:" => (r.https ? "https:" : "http:")

export const finalHop = (s: Session | null): Hop | null => (s && s.hops.length > 0 ? s.hops[s.hops.length - 1] : null)

/**
 * Node's HTTP parser keeps the first of some repeated headers, joins the rest with ", "
 * (cookie with "; ") and hands set-cookie over as a list (node:_http_incoming).
 */
const firstWins = new Set([
  "content-type", "content-length", "user-agent", "referer", "host", "authorization", "proxy-authorization",
  "if-modified-since", "if-unmodified-since", "from", "location", "max-forwards", "retry-after", "etag",
  "last-modified", "server", "age", "expires"
])

export type NodeHeaders = ReadonlyMap<string, string | ReadonlyArray<string>>

export const nodeHeaders = (raw: ReadonlyArray<readonly [string, string]>): NodeHeaders => {
  const out = new Map<string, string | Array<string>>()
  for (const [k, v] of raw) {
    const key = k.toLowerCase()
    const had = out.get(key)
    if (key === "set-cookie") {
      out.set(key, [...((had as Array<string> | undefined) ?? []), v])
    } else if (had === undefined) {
      out.set(key, v)
    } else if (!firstWins.has(key)) {
      out.set(key, `${had as string}${key === "cookie" ? "; " : ", "}${v}`)
    }
  }
  return out
}

/** Every value of a header (set-cookie: one per line; others: the one joined value). */
export const headerValues = (h: NodeHeaders, name: string): ReadonlyArray<string> => {
  const v = h.get(name.toLowerCase())
  return v === undefined ? [] : typeof v === "string" ? [v] : v
}

export const firstHeader = (h: NodeHeaders, name: string): string | null => headerValues(h, name)[0] ?? null

/** The MIME types the Observatory treats as HTML (content-type before any ";", as sent). */
export const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"])

export const isHtml = (h: NodeHeaders): boolean => HTML_TYPES.has((firstHeader(h, "content-type") ?? "").split(";")[0])
