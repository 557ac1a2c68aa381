import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Schema } from "effect"
import { Api } from "../Api"
import { AppConfig } from "../Config"
import { normalizeDomain } from "../dns/domainParam"
import { InvalidRequest } from "../domain/errors"
import { setCacheOutcome } from "../http/RequestFacts"
import { page } from "./analyze"
import { CtLogsReport } from "./api"
import { CtAggregator } from "./CtAggregator"

/**
 * Cache hits answer the same page many times: its body, encoded through the endpoint's success
 * schema (as HttpApi would), is kept by request and reused while it is built from the very same
 * cached result, SCT verdict and age in seconds. Bounded: the oldest goes first.
 */
const encodeReport = Schema.encodeSync(CtLogsReport)
const MAX_BODIES = 1_000
interface Body {
  readonly entries: unknown
  readonly fetchedAt: number
  readonly sct: unknown
  readonly age: number
  readonly json: string
}
const bodies = new Map<string, Body>()
const keepBody = (key: string, body: Body) => {
  bodies.delete(key)
  if (bodies.size >= MAX_BODIES) bodies.delete(bodies.keys().next().value!)
  bodies.set(key, body)
}
const jsonResponse = (json: string) => HttpServerResponse.text(json, { status: 200, contentType: "application/json" })

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

export const CtLive = HttpApiBuilder.group(Api, "ct", (handlers) =>
  handlers.handle("ctLogs", ({ urlParams }) =>
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
      const sct = yield* ct.embeddedSct(domain, result.entries)
      const now = yield* Clock.currentTimeMillis
      const age = Math.max(0, Math.round((now - result.fetchedAt) / 1000))
      const key = `${domain}|${offset}|${limit}|${since}`
      const kept = result.outcome === "hit" ? bodies.get(key) : undefined
      if (kept !== undefined && kept.entries === result.entries && kept.fetchedAt === result.fetchedAt && kept.sct === sct && kept.age === age) {
        return jsonResponse(kept.json)
      }
      const p = page(result.entries, { offset, limit, since })
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
      const report = {
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
      if (result.outcome !== "hit") return report
      const json = JSON.stringify(encodeReport(report))
      keepBody(key, { entries: result.entries, fetchedAt: result.fetchedAt, sct, age, json })
      return jsonResponse(json)
    })
  )
)
