/**
 * The one place a finished request's facts are known: the pipeline (src/surfaces/server/pipeline.ts) calls
 * `onResponse` once per request, answered or cut by its deadline, after the answer is handed to
 * the server. Observers plug in here (the request log below; an access log, Prometheus metrics)
 * without touching the pipeline: add yours to `RequestObserverLive` (src/surfaces/server/observers.ts).
 *
 * `onResponse` is synchronous and must not block: it runs on the request's fiber, on the event
 * loop. Buffer and write elsewhere, as the request log does.
 */
import { Context } from "effect"
import type { CallerShape } from "../../kernel/Caller"
import type { CacheOutcome } from "./CurrentRequest"

export interface FinishedRequest {
  readonly requestId: string
  /** The matched operation's id; "unknown" when no operation was matched (404, 405, 413 …). */
  readonly operation: string
  readonly category: string
  readonly method: string
  /** The raw request path, without the query string. */
  readonly path: string
  readonly status: number
  readonly durationMs: number
  /** The authenticated caller, when the request got that far. */
  readonly caller: CallerShape | undefined
  readonly cache: CacheOutcome | undefined
  /** Epoch ms at receipt. */
  readonly ts: number
}

export interface RequestObserverShape {
  readonly onResponse: (request: FinishedRequest) => void
}

export class RequestObserver extends Context.Tag("domain-intel/RequestObserver")<RequestObserver, RequestObserverShape>() {
  /** Several observers as one, called in order; one that throws does not stop the others. */
  static readonly combine = (...observers: ReadonlyArray<RequestObserverShape>): RequestObserverShape => ({
    onResponse: (request) => {
      for (const o of observers) {
        try {
          o.onResponse(request)
        } catch {
          // an observer's failure is its own; the request is answered already
        }
      }
    }
  })
}
