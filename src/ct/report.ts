import { Clock, Effect } from "effect"
import { AppConfig } from "../Config"
import { normalizeDomain } from "../dns/domainParam"
import { InvalidRequest } from "../domain/errors"
import { setCacheOutcome } from "../http/RequestFacts"
import { page } from "./analyze"
import { CtAggregator } from "./CtAggregator"

/**
 * The CT Logs report, shared by the REST operation (./http.ts) and the MCP `ct_logs` tool
 * (src/mcp/analysisTools.ts), so both answer with the very same report.
 */
export interface CtLogsInput {
  readonly domain: string
  readonly offset?: number | undefined
  readonly limit?: number | undefined
  readonly since?: string | undefined
}

/** ISO 8601 date or date-time; a zone-less time is read as UTC. */
export const parseSince = (s: string): string | InvalidRequest => {
  const v = s.trim()
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(v)) {
    return new InvalidRequest({ message: `since must be an ISO 8601 timestamp, got "${s}"` })
  }
  const withZone = /T|\s/.test(v) && !/(Z|[+-]\d{2}:?\d{2})$/i.test(v) ? `${v.replace(" ", "T")}Z` : v
  const t = Date.parse(withZone)
  if (Number.isNaN(t)) return new InvalidRequest({ message: `since is not a valid date: "${s}"` })
  return new Date(t).toISOString()
}

export const ctLogsReport = (urlParams: CtLogsInput) =>
  Effect.gen(function*() {
    const domain = normalizeDomain(urlParams.domain)
    if (domain instanceof InvalidRequest) return yield* domain
    const since = urlParams.since === undefined ? null : parseSince(urlParams.since)
    if (since instanceof InvalidRequest) return yield* since
    const offset = urlParams.offset ?? 0
    const limit = urlParams.limit ?? 20
    const ct = yield* CtAggregator
    const config = yield* AppConfig
    const result = yield* ct.lookup(domain)
    yield* setCacheOutcome(result.outcome)
    const p = page(result.entries, { offset, limit, since })
    const sct = yield* ct.embeddedSct(domain, result.entries)
    const now = yield* Clock.currentTimeMillis
    const age = Math.max(0, Math.round((now - result.fetchedAt) / 1000))
    const host = (() => {
      try {
        return new URL(config.ctAggregatorUrl).host
      } catch {
        return config.ctAggregatorUrl
      }
    })()
    const notes: Array<string> = []
    notes.push(`${p.total} deduplicated certificate${p.total === 1 ? "" : "s"}${since ? ` logged since ${since}` : ""}` +
      (result.duplicates > 0 ? `; ${result.duplicates} precertificate/certificate duplicate${result.duplicates === 1 ? "" : "s"} merged` : ""))
    if (result.dropped > 0) notes.push(`${result.dropped} malformed aggregator rows ignored`)
    if (result.outcome === "hit") notes.push(`served from cache (fetched ${age} s ago)`)
    if (result.outcome === "stale") notes.push(`STALE: the aggregator failed (${result.upstreamError}); serving the cached result fetched ${age} s ago`)
    if (sct.note && !sct.result) notes.push(`embedded_sct unavailable: ${sct.note}`)
    return {
      domain,
      certificates: p.certificates,
      scts: p.certificates,
      hasSCTs: p.total > 0,
      count: p.certificates.length,
      total: p.total,
      truncated: p.truncated,
      source: `certificate transparency aggregator ${host} (crt.sh JSON)`,
      note: notes.join("; "),
      cache: { outcome: result.outcome, fetched_at: new Date(result.fetchedAt).toISOString(), age_seconds: age },
      pagination: p.pagination,
      since,
      embedded_sct: sct.result
    }
  })
