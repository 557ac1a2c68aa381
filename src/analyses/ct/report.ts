import { Clock, Effect } from "effect"
import { AppConfig, type AppConfigShape } from "../../platform/Config"
import { InvalidRequest, type UpstreamUnavailable } from "../../kernel/errors"
import { noteCache } from "../../platform/http/CurrentRequest"
import { page } from "../../adapters/ct/entries"
import { CtAggregator, type CtLookup, type SctVerdict } from "../../adapters/ct/CtAggregator"

/**
 * The CT Logs report, shared by the REST operation (./http.ts) and the MCP `ct_logs` tool
 * (src/surfaces/mcp/analysisTools.ts), so both answer with the very same report.
 */
export interface CtLogsInput {
  /** Already normalised: the operation's schema (docs/conventions.md, domains) decodes it. */
  readonly domain: string
  readonly offset: number
  readonly limit: number
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

const hostOf = (url: string): string => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** The report's `source`: the aggregators asked, parsed once per configuration. */
let described: { readonly key: string; readonly text: string } | undefined
const describeSources = (c: AppConfigShape): string => {
  const key = `${c.ctSources.join(",")} ${c.ctAggregatorUrl} ${c.ctCertspotterUrl}`
  if (described?.key !== key) {
    const each = c.ctSources.map((s) =>
      s === "crtsh" ? `${hostOf(c.ctAggregatorUrl)} (crt.sh JSON)` : `${hostOf(c.ctCertspotterUrl)} (Cert Spotter API v1)`
    )
    described = { key, text: `certificate transparency aggregator${each.length === 1 ? "" : "s"} ${each.join(" and ")}` }
  }
  return described.text
}

/** The validated inputs of a report, or the 400 they earn. */
const inputsOf = (urlParams: CtLogsInput): { readonly domain: string; readonly since: string | null } | InvalidRequest => {
  const domain = urlParams.domain
  const since = urlParams.since === undefined ? null : parseSince(urlParams.since)
  if (since instanceof InvalidRequest) return since
  return { domain, since }
}

/** Everything a report is built from, once the request is validated and the lookup done. */
const assemble = (
  urlParams: CtLogsInput,
  { domain, since }: { readonly domain: string; readonly since: string | null },
  result: CtLookup,
  sct: SctVerdict,
  now: number,
  source: string
) => ({
  domain,
  since,
  offset: urlParams.offset,
  limit: urlParams.limit,
  result,
  sct,
  age: Math.max(0, Math.round((now - result.fetchedAt) / 1000)),
  source
})

const prepare = (urlParams: CtLogsInput) =>
  Effect.gen(function*() {
    const inputs = inputsOf(urlParams)
    if (inputs instanceof InvalidRequest) return yield* inputs
    const ct = yield* CtAggregator
    const config = yield* AppConfig
    const result = yield* ct.lookup(inputs.domain)
    yield* noteCache(result.outcome)
    const sct = yield* ct.embeddedSct(inputs.domain, result)
    const now = yield* Clock.currentTimeMillis
    return assemble(urlParams, inputs, result, sct, now, describeSources(config))
  })

type Prepared = ReturnType<typeof assemble>

const build = ({ age, domain, limit, offset, result, sct, since, source }: Prepared) => {
  const p = page(result.entries, { offset, limit, since })
  const notes: Array<string> = []
  notes.push(`${p.total} deduplicated certificate${p.total === 1 ? "" : "s"}${since ? ` logged since ${since}` : ""}` +
    (result.duplicates > 0 ? `; ${result.duplicates} precertificate/certificate duplicate${result.duplicates === 1 ? "" : "s"} merged` : ""))
  if (result.overlap > 0) notes.push(`${result.overlap} certificate${result.overlap === 1 ? "" : "s"} listed by more than one source merged`)
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
    source,
    sources: result.sources.map((s) => ({ ...s, fetched_at: new Date(s.fetched_at).toISOString() })),
    note: notes.join("; "),
    limitations: result.outcome === "stale"
      ? [`no CT source answered (${result.upstreamError}); this is the result fetched ${age} s ago`, ...result.limitations]
      : result.limitations,
    cache: { outcome: result.outcome, fetched_at: new Date(result.fetchedAt).toISOString(), age_seconds: age },
    pagination: p.pagination,
    since,
    embedded_sct: sct.result
  }
}

/**
 * The report, for the REST operation (whose success schema, `CtLogsReport`, encodes it) and the
 * MCP `ct_logs` tool (whose structured content it is).
 */
export const ctLogsReport = (urlParams: CtLogsInput) => Effect.map(prepare(urlParams), build)
