/** HTTP Uptime Check: one on-demand request, reported the way curl -w would, plus headers. */
import { DateTime, Effect } from "effect"
import { HttpProbe, round } from "../../adapters/probe/HttpProbe"
import { advertisedVersions, pickHeaders, securitySummary } from "./analyze"
import type { HttpCheckReport } from "./schema"

export interface HttpCheckInput {
  readonly url: string
  readonly method?: "HEAD" | "GET"
  readonly follow_redirects?: boolean
  readonly max_redirects?: number
  readonly timeout?: number
}

/**
 * What a check does when its input leaves a choice open: the analysis applies them, the REST and
 * MCP parameter schemas document them, and the deadline of a check is computed from `timeout`.
 */
export const HTTP_CHECK_DEFAULTS = { method: "HEAD", follow_redirects: true, max_redirects: 5, timeout: 10_000 } as const

/** Per-hop body cap for GET: bytes beyond it are not downloaded (an endless body stops here). */
export const GET_BODY_CAP = 10 * 1024 * 1024

// Defeat caches between us and the origin so each check reaches it.
const bypassHeaders: ReadonlyArray<readonly [string, string]> = [
  ["Cache-Control", "no-cache, no-store, max-age=0"],
  ["Pragma", "no-cache"]
]

export const httpCheck = Effect.fn("HttpCheck.run")(function*(input: HttpCheckInput) {
  const probe = yield* HttpProbe
  const checkedAt = yield* DateTime.now
  const method = input.method ?? HTTP_CHECK_DEFAULTS.method
  const outcome = yield* probe.fetch({
    url: input.url,
    method,
    headers: bypassHeaders,
    timeoutMs: input.timeout ?? HTTP_CHECK_DEFAULTS.timeout,
    followRedirects: input.follow_redirects ?? HTTP_CHECK_DEFAULTS.follow_redirects,
    maxRedirects: input.max_redirects ?? HTTP_CHECK_DEFAULTS.max_redirects,
    maxBodyBytes: GET_BODY_CAP,
    keepBody: false,
    decompress: false
  })
  const r = outcome.response
  // Without a response, the phases the failed exchange got through (curl reports them too).
  const reached = r ? null : outcome.failedExchange
  const headers = pickHeaders(r?.headers ?? {})
  const https = new URL(outcome.finalUrl).protocol === "https:"
  const contentLength = (() => {
    if (!r) return null
    if (method === "GET") return r.bodyBytes
    const v = r.headers["content-length"]
    return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : null
  })()
  const errorCode = outcome.error === null
    ? null
    : outcome.error.kind === "malformed_response" || outcome.error.kind === "dns_resolution_failed"
      ? "fetch_failed"
      : outcome.error.kind
  return {
    url: outcome.requestedUrl,
    final_url: outcome.finalUrl,
    method,
    status: { code: r?.status ?? null, ok: r !== null && r.status >= 200 && r.status < 300, text: r?.statusText ?? null },
    timings: {
      total_ms: round(outcome.totalMs),
      dns_ms: round(outcome.dnsMs),
      connect_ms: r ? round(r.timings.connectMs) : reached?.connectMs != null ? round(reached.connectMs) : null,
      tls_ms: r ? (r.timings.tlsMs !== null ? round(r.timings.tlsMs) : null) : reached?.tlsMs != null ? round(reached.tlsMs) : null,
      ttfb_ms: r ? round(r.timings.ttfbMs) : null
    },
    content_length_bytes: contentLength,
    body_truncated: r?.truncated ?? false,
    headers,
    security_summary: securitySummary(headers, https),
    advertised_http_versions: advertisedVersions(headers.alt_svc),
    redirects: outcome.redirects,
    ssl: {
      verified: https ? (outcome.tls ? outcome.tls.authorized : false) : null,
      error: https ? (outcome.tls?.error ?? (outcome.tls ? null : outcome.error?.message ?? null)) : null,
      protocol: outcome.tls?.protocol ?? null,
      cipher: outcome.tls?.cipher ?? null
    },
    error: errorCode,
    error_detail: outcome.error?.message ?? null,
    checked_at: DateTime.formatIso(checkedAt)
  } satisfies HttpCheckReport
})
