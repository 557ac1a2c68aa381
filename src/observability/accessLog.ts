/**
 * What happens once per finished request, wherever the pipeline knows its facts: the metrics
 * (requests_total, request_duration_seconds) and the access-log line
 * `{"message":"request", request_id, org, operation, method, path, status, duration_ms}` on
 * stderr (LOG_ACCESS=false silences the line; the metrics are always kept).
 *
 * Synchronous and cheap: it runs on the request's fiber after the answer was handed over. The
 * line is written straight to stderr in the format of the service's JSON logs, at info level:
 * it is skipped when the minimum log level in force where the observer was built is above info
 * (LOG_LEVEL=warning, or tests that silence logging). The org is the organization's name, never
 * a key; the path carries no query string.
 */
import { Effect, FiberRef, LogLevel } from "effect"
import { AppConfig } from "../Config"
import type { RequestObserverShape } from "../http/RequestObserver"
import { recordCache, recordRequest } from "./metrics"

export interface FinishedRequestFacts {
  readonly requestId: string
  /** The caller's organization name, or null before/without authentication. */
  readonly org: string | null
  readonly operation: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
}

/** The per-request function, built once with the configuration and the log level in force. */
export const makeAccessLog: Effect.Effect<(facts: FinishedRequestFacts) => void, never, AppConfig> = Effect.gen(function*() {
  const { logAccess } = yield* AppConfig
  const minimum = yield* FiberRef.get(FiberRef.currentMinimumLogLevel)
  const write = logAccess && LogLevel.greaterThanEqual(LogLevel.Info, minimum)
  return (facts) => {
    recordRequest(facts.operation, facts.status, facts.durationMs / 1000)
    if (!write) return
    process.stderr.write(
      JSON.stringify({
        timestamp: new Date().toISOString(),
        level: "INFO",
        message: "request",
        request_id: facts.requestId,
        org: facts.org,
        operation: facts.operation,
        method: facts.method,
        path: facts.path,
        status: facts.status,
        duration_ms: Math.round(facts.durationMs * 100) / 100
      }) + "\n"
    )
  }
})

/** The access log and request metrics as an observer of the pipeline (src/http/RequestObserver.ts). */
export const accessLogObserver: Effect.Effect<RequestObserverShape, never, AppConfig> = Effect.map(makeAccessLog, (write) => ({
  onResponse: (r) => {
    // domain_intel_cache_total{cache=<operation>,result}: every answer a cache served or missed.
    if (r.cache !== undefined) recordCache(r.operation, r.cache)
    write({
      requestId: r.requestId,
      org: r.caller?.org.name ?? null,
      operation: r.operation,
      method: r.method,
      path: r.path,
      status: r.status,
      durationMs: r.durationMs
    })
  }
}))
