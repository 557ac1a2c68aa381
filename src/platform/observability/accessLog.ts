/**
 * What happens once per finished request, wherever the pipeline knows its facts: the metrics
 * (requests_total, request_duration_seconds) and the access-log line
 * `{"message":"request", request_id, org, operation, method, path, status, duration_ms}` on
 * stderr (LOG_ACCESS=false silences the line; the metrics are always kept).
 *
 * Synchronous and cheap: it runs on the request's fiber after the answer was handed over. The
 * line, in the format of the service's JSON logs at info level, joins a buffer written to stderr
 * every 25 ms (so a line may trail its response by that much, and other log lines by as much):
 * it is skipped when the minimum log level in force where the observer was built is above info
 * (LOG_LEVEL=warning, or tests that silence logging). The org is the organization's name, never
 * a key; the path carries no query string.
 */
import { writeSync } from "node:fs"
import { Effect, FiberRef, LogLevel, type Scope } from "effect"
import { AppConfig } from "../Config"
import { memoize } from "../../kernel/memo"
import type { RequestObserverShape } from "../http/RequestObserver"
import { recordCache, recordRequest } from "./metrics"

export interface AccessLogEntry {
  readonly requestId: string
  /** The caller's organization name, or null before/without authentication. */
  readonly org: string | null
  readonly operation: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
}

/**
 * Lines bound for stderr, written together: one write per `intervalMs` (or once `maxChars` are
 * pending) instead of a system call per request, which cost more than the rest of the access
 * log. Written synchronously (`writeSync`), so an exit flush cannot overtake an earlier batch;
 * a full non-blocking pipe falls back to the stream's own buffering rather than dropping lines.
 */
export const makeLineBuffer = (
  write: (text: string) => void = writeStderr,
  intervalMs = 25,
  maxChars = 64 * 1024
) => {
  let pending = ""
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (pending.length === 0) return
    const text = pending
    pending = ""
    write(text)
  }
  return {
    push: (line: string): void => {
      pending += line
      if (pending.length >= maxChars) flush()
      else if (timer === undefined) {
        timer = setTimeout(flush, intervalMs)
        timer.unref?.()
      }
    },
    flush
  } as const
}

/**
 * A string as a JSON string literal (`JSON.stringify`), remembered: organizations, operations,
 * methods and paths repeat from line to line. Bounded: the memo is dropped when full.
 */
const quoted = memoize((s: string) => JSON.stringify(s), 2_000)
/** A request id (unique per line) needs no escaping when it is a UUID or within `requestIdFrom`'s pattern. */
const idLiteral = (id: string): string => (/^[\w.:-]*$/.test(id) ? `"${id}"` : JSON.stringify(id))

/** The current time as ISO 8601, formatted once per millisecond. */
let lastMs = -1
let lastIso = ""
const isoNow = (): string => {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastIso = new Date(ms).toISOString()
  }
  return lastIso
}

const writeStderr = (text: string): void => {
  try {
    writeSync(2, text)
  } catch {
    process.stderr.write(text)
  }
}

/**
 * The per-request function, built once with the configuration and the log level in force; its
 * pending lines are written when the scope closes (the server's shutdown) and, failing that, on exit.
 */
export const makeAccessLog: Effect.Effect<(facts: AccessLogEntry) => void, never, AppConfig | Scope.Scope> = Effect.gen(function*() {
  const { logAccess } = yield* AppConfig
  const minimum = yield* FiberRef.get(FiberRef.currentMinimumLogLevel)
  const write = logAccess && LogLevel.greaterThanEqual(LogLevel.Info, minimum)
  const lines = makeLineBuffer()
  if (write) {
    process.on("exit", lines.flush)
    yield* Effect.addFinalizer(() => Effect.sync(() => {
      process.off("exit", lines.flush)
      lines.flush()
    }))
  }
  return (facts) => {
    recordRequest(facts.operation, facts.status, facts.durationMs / 1000)
    if (!write) return
    // The same JSON as JSON.stringify of the fields in this order, built without the object.
    lines.push(
      `{"timestamp":"${isoNow()}","level":"INFO","message":"request","request_id":${idLiteral(facts.requestId)},` +
        `"org":${facts.org === null ? "null" : quoted(facts.org)},"operation":${quoted(facts.operation)},` +
        `"method":${quoted(facts.method)},"path":${quoted(facts.path)},"status":${facts.status},` +
        `"duration_ms":${Math.round(facts.durationMs * 100) / 100}}\n`
    )
  }
})

/** The access log and request metrics as an observer of the pipeline (src/platform/http/RequestObserver.ts). */
export const accessLogObserver: Effect.Effect<RequestObserverShape, never, AppConfig | Scope.Scope> = Effect.map(makeAccessLog, (write) => ({
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
