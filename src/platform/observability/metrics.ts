/**
 * Prometheus metrics (docs/operations/system.md, "Metrics"), exposed at GET /metrics.
 *
 * prom-client rather than Effect's `Metric`: Effect keeps the numbers but has no Prometheus text
 * exposition without @effect/opentelemetry and its exporter (not a dependency); prom-client writes
 * the format (HELP/TYPE lines, label escaping, cumulative histogram buckets, `+Inf`, `_sum`,
 * `_count`) that `promtool check metrics` accepts, and recording is a synchronous call, cheap
 * enough for the request path and for one-line calls at the outbound points.
 *
 * One registry per process (not prom-client's global one). No organization labels: label
 * values are operation ids, status codes and fixed kinds, so the series count stays bounded.
 *
 * Every family is kept in plain maps here and rendered by prom-client at scrape time
 * (`registerMetric` with a `get()`, the same shape prom-client's own metrics return): recording
 * is a Map read and a few additions, where prom-client's `inc`/`observe` hash their label
 * objects on every call; and prom-client (with the tracing API it loads) is imported at the
 * first scrape rather than at start-up (docs/operating.md, "The binary").
 */
import { Cause, Effect, Exit, Option } from "effect"
import type { Metric, Registry } from "prom-client"

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const

interface DurationSeries {
  /** Observations per bucket (not cumulative), the last slot for those above every bound. */
  readonly counts: Array<number>
  sum: number
  count: number
}

interface Family {
  readonly name: string
  readonly help: string
  readonly type: "counter" | "gauge" | "histogram"
  readonly aggregator: "sum" | "first"
  readonly get: () => Promise<unknown>
}

/** A counter by two labels, kept as counts per first and second label value. */
const twoLabelCounter = <A extends string | number, B extends string | number>(
  name: string,
  help: string,
  [first, second]: readonly [string, string]
) => {
  const counts = new Map<A, Map<B, number>>()
  const head = { name, help, type: "counter", aggregator: "sum" } as const
  const family: Family = {
    ...head,
    get: async () => ({
      ...head,
      values: [...counts].flatMap(([a, byB]) => [...byB].map(([b, value]) => ({ labels: { [first]: String(a), [second]: String(b) }, value })))
    })
  }
  const add = (a: A, b: B): void => {
    let byB = counts.get(a)
    if (byB === undefined) counts.set(a, byB = new Map())
    byB.set(b, (byB.get(b) ?? 0) + 1)
  }
  return { family, add }
}

const requests = twoLabelCounter<string, number>(
  "domain_intel_requests_total",
  "HTTP requests answered, by operation id and status code",
  ["operation", "status"]
)

const durations = new Map<string, DurationSeries>()
const durationFamily = {
  name: "domain_intel_request_duration_seconds",
  help: "Time from receiving a request to its response, by operation id",
  type: "histogram",
  aggregator: "sum"
} as const
const durationsMetric: Family = {
  ...durationFamily,
  get: async () => ({
    ...durationFamily,
    values: [...durations].flatMap(([operation, d]) => {
      const bucket = `${durationFamily.name}_bucket`
      let cumulative = 0
      return [
        ...DURATION_BUCKETS.map((le, i) => {
          cumulative += d.counts[i]
          return { metricName: bucket, labels: { le, operation }, value: cumulative }
        }),
        { metricName: bucket, labels: { le: "+Inf", operation }, value: d.count },
        { metricName: `${durationFamily.name}_sum`, labels: { operation }, value: d.sum },
        { metricName: `${durationFamily.name}_count`, labels: { operation }, value: d.count }
      ]
    })
  })
}

/** What an outbound request was for. */
export type OutboundKind = "http" | "dns" | "ct" | "rdap" | "webhook" | "tls"
/** How it ended: an answer (whatever its status), a timeout, a refusal by the target guard, or another failure. */
export type OutboundOutcome = "ok" | "error" | "timeout" | "refused"

const outbound = twoLabelCounter<OutboundKind, OutboundOutcome>(
  "domain_intel_outbound_requests_total",
  "Requests the service made to the outside (HTTP probes, DNS queries, CT aggregator, RDAP, webhooks), by kind and outcome",
  ["kind", "outcome"]
)

export type CacheResult = "hit" | "miss" | "stale" | "bypass"

/** Cache look-ups (a CT cache hit is one per request). */
const cache = twoLabelCounter<string, CacheResult>("domain_intel_cache_total", "Cache look-ups by cache and result", ["cache", "result"])

/** A gauge read at scrape time. */
const gauge = (name: string, help: string, read: () => number): Family => {
  const head = { name, help, type: "gauge", aggregator: "first" } as const
  return { ...head, get: async () => ({ ...head, values: [{ labels: {}, value: read() }] }) }
}

const startedAt = Date.now() / 1000
const families: ReadonlyArray<Family> = [
  requests.family,
  durationsMetric,
  outbound.family,
  cache.family,
  gauge("process_resident_memory_bytes", "Resident memory size in bytes", () => process.memoryUsage().rss),
  gauge("process_start_time_seconds", "Start time of the process since the Unix epoch, in seconds", () => startedAt)
]

let registry: Promise<Registry> | undefined
/** The registry, made at the first scrape. */
const registryOnce = (): Promise<Registry> =>
  (registry ??= import("prom-client").then(({ Registry }) => {
    const r = new Registry()
    // prom-client's typing of `registerMetric` is too narrow: it names its own four metric
    // classes, while the registry reads only `name` and `get()` of what it is given (and the
    // `name`, `help`, `type` and `values` of what `get()` returns), which a family has.
    for (const family of families) r.registerMetric(family as unknown as Metric)
    return r
  }))

/** One answered request (called by the access-log hook for every request). */
export const recordRequest = (operation: string, status: number, seconds: number): void => {
  requests.add(operation, status)
  let d = durations.get(operation)
  if (d === undefined) durations.set(operation, d = { counts: new Array(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 })
  let i = 0
  while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]) i++
  d.counts[i]++
  d.sum += seconds
  d.count++
}

/** One outbound request: a one-line call at each outbound point. */
export const recordOutbound = (kind: OutboundKind, outcome: OutboundOutcome): void => outbound.add(kind, outcome)

/** One cache look-up. */
export const recordCache = (name: string, result: CacheResult): void => cache.add(name, result)

/** The exposition text and its content type. */
export const exposition = async (): Promise<{ readonly text: string; readonly contentType: string }> => {
  const r = await registryOnce()
  return { text: await r.metrics(), contentType: r.contentType }
}

/** A failure's outcome label: timeouts and guard refusals by their tag, anything else `error`. */
const outcomeOfFailure = (e: unknown): OutboundOutcome => {
  const tag = typeof e === "object" && e !== null && "_tag" in e ? String((e as { _tag: unknown })._tag) : ""
  const reason = typeof e === "object" && e !== null && "reason" in e ? String((e as { reason: unknown }).reason) : ""
  if (/Timeout/i.test(tag) || /no answer within/i.test(reason)) return "timeout"
  if (/Forbidden|Refused/i.test(tag)) return "refused"
  return "error"
}

/**
 * Counts an outbound effect by how it ended (success `ok`, else by its failure; an interrupted
 * one is not counted): `exchange(q).pipe(countOutbound("dns"))`.
 */
export const countOutbound = (kind: OutboundKind, outcomeOfSuccess: (a: any) => OutboundOutcome = () => "ok") =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.onExit(self, (exit) =>
    Effect.sync(() => {
      if (Exit.isSuccess(exit)) return recordOutbound(kind, outcomeOfSuccess(exit.value))
      if (Cause.isInterruptedOnly(exit.cause)) return
      const failure = Cause.failureOption(exit.cause)
      recordOutbound(kind, Option.isSome(failure) ? outcomeOfFailure(failure.value) : "error")
    }))
