/** The observers of finished requests the server runs (src/platform/http/RequestObserver.ts). */
import { Effect, Layer } from "effect"
import { RequestObserver, type RequestObserverShape } from "../../platform/http/RequestObserver"
import { accessLogObserver } from "../../platform/observability/accessLog"
import { RequestLog } from "../../product/metering/RequestLog"

/** The request log (analytics, quota usage): one record per authenticated request. */
export const requestLogObserver: Effect.Effect<RequestObserverShape, never, RequestLog> = Effect.map(RequestLog, (log) => ({
  onResponse: (r) => {
    if (r.caller === undefined) return
    log.unsafeRecord({
      orgId: r.caller.org.id,
      operation: r.operation,
      category: r.category,
      method: r.method,
      path: r.path,
      status: r.status,
      latencyMs: r.durationMs,
      cache: r.cache ?? null,
      ts: r.ts
    })
  }
}))

/** The observers the server runs. */
export const RequestObserverLive = Layer.scoped(
  RequestObserver,
  Effect.map(Effect.zip(requestLogObserver, accessLogObserver), ([log, access]) => RequestObserver.combine(log, access))
)
