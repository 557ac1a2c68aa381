/**
 * What happens once per finished request, wherever the pipeline knows its facts: the metrics
 * (requests_total, request_duration_seconds) and the access-log line
 * `{"message":"request", request_id, org, operation, method, path, status, duration_ms}` at info
 * level on stderr (LOG_ACCESS=false silences the line; the metrics are always kept).
 * The org is the organization's name, never a key; the path carries no query string.
 */
import { Effect } from "effect"
import { recordRequest } from "./metrics"

export interface FinishedRequest {
  readonly requestId: string
  /** The caller's organization name, or null before/without authentication. */
  readonly org: string | null
  readonly operation: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
}

export const requestFinished = (facts: FinishedRequest, options: { readonly logAccess: boolean }): Effect.Effect<void> => {
  recordRequest(facts.operation, facts.status, facts.durationMs / 1000)
  if (!options.logAccess) return Effect.void
  return Effect.logInfo("request").pipe(
    Effect.annotateLogs({
      request_id: facts.requestId,
      org: facts.org,
      operation: facts.operation,
      method: facts.method,
      path: facts.path,
      status: facts.status,
      duration_ms: Math.round(facts.durationMs * 100) / 100
    })
  )
}
