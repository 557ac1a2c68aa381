/**
 * The two middlewares around the API:
 * - `renderErrors` (API level): every failure becomes the DECISIONS.md envelope with its status;
 *   schema decode failures are 400 invalid_request with the issues in `details`, unknown routes
 *   404, defects 500 without a stack trace.
 * - `observe` (outermost): request id, route attribution, quota headers, and the request-log
 *   record of every authenticated request, with latency from receipt to response.
 */
import { HttpApiBuilder, HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Clock, Effect, Option } from "effect"
import { errorBody, isApiError, QuotaExceeded } from "../domain/errors"
import type { FinishedRequestFacts } from "../observability/accessLog"
import { RequestLog } from "../metering/RequestLog"
import { currentRequestMeta, type RequestMeta, requestIdFrom, trackingHeaders } from "./RequestMeta"
import type { RouteTable } from "./RouteTable"

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers })

/** Issues of a schema decode failure, one per parameter: alternatives of a union are merged. */
const decodeIssues = (error: any): unknown => {
  if (!Array.isArray(error?.issues)) return undefined
  const byPath = new Map<string, Array<string>>()
  for (const i of error.issues) {
    const path = Array.isArray(i.path) ? i.path.join(".") : String(i.path ?? "")
    const full = String(i.message ?? i._tag)
    // Do not echo a huge hostile value back in full.
    const message = full.length > 300 ? `${full.slice(0, 300)}…` : full
    byPath.set(path, [...(byPath.get(path) ?? []), message])
  }
  const issues = [...byPath].map(([path, messages]) => {
    // An optional field's union adds "Expected undefined" beside the real complaint.
    const real = messages.length > 1 ? messages.filter((m) => !/^Expected undefined/.test(m)) : messages
    const alternatives = real.map((m) => /^Expected (.+), actual (.+)$/s.exec(m))
    if (real.length > 1 && alternatives.every((m) => m !== null && m[2] === alternatives[0]![2])) {
      return { path, message: `Expected one of ${alternatives.map((m) => m![1]).join(", ")}; actual ${alternatives[0]![2]}` }
    }
    return { path, message: real.join("; ") }
  })
  return { issues }
}

const describeDecode = (error: any): string => {
  const issues = decodeIssues(error) as { issues: Array<{ path: string; message: string }> } | undefined
  if (issues && issues.issues.length > 0) {
    return issues.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")
  }
  return String(error?.message ?? "invalid request")
}

export const errorResponse = (cause: Cause.Cause<unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const e = failure.value as any
    if (isApiError(e)) {
      const headers: Record<string, string> = {}
      if (e instanceof QuotaExceeded) headers["retry-after"] = String(e.retryAfterSeconds)
      return Effect.succeed(json(e.status, errorBody(e.code, e.message, e.details), headers))
    }
    if (e?._tag === "HttpApiDecodeError") {
      return Effect.succeed(json(400, errorBody("invalid_request", describeDecode(e), decodeIssues(e))))
    }
    if (e?._tag === "RouteNotFound") {
      return Effect.succeed(json(404, errorBody("not_found", "no such route")))
    }
    if (e?._tag === "RequestError") {
      return Effect.succeed(json(400, errorBody("invalid_request", "the request body could not be read as JSON")))
    }
  }
  // The HttpApi body reader dies (rather than fails) on a body that is not valid JSON.
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect) && (defect.value as any)?._tag === "RequestError") {
    return Effect.succeed(json(400, errorBody("invalid_request", "the request body is not valid JSON")))
  }
  if (Cause.isInterruptedOnly(cause)) {
    return Effect.succeed(json(503, errorBody("internal_error", "the request was interrupted")))
  }
  return Effect.logError("unhandled failure", cause).pipe(
    Effect.as(json(500, errorBody("internal_error", "internal error")))
  )
}

export const renderErrors = HttpApiBuilder.middleware((app) => Effect.catchAllCause(app, errorResponse))

export const observe = (routes: RouteTable, accessLog: (facts: FinishedRequestFacts) => void) => (app: HttpApp.Default): HttpApp.Default<never, RequestLog> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const log = yield* RequestLog
    const started = performance.now()
    const ts = yield* Clock.currentTimeMillis
    const path = new URL(request.url, "http://x").pathname
    const route = routes.match(request.method, path)
    const meta: RequestMeta = {
      requestId: requestIdFrom(request.headers["x-request-id"]),
      method: request.method,
      path,
      operation: route?.operation ?? "unknown",
      category: route?.category ?? "system",
      plan: route?.plan,
      org: undefined,
      auditToken: undefined,
      cache: undefined,
      quota: undefined
    }
    // The server sends the response from inside `app`, so headers go through a pre-response handler.
    yield* HttpApp.appendPreResponseHandler((_req, res) =>
      Effect.succeed(HttpServerResponse.setHeaders(res, trackingHeaders(meta.requestId, meta.quota)))
    )
    const response = yield* app.pipe(
      Effect.catchAllCause(errorResponse),
      Effect.locally(currentRequestMeta, meta)
    )
    if (meta.org) {
      yield* log.record({
        orgId: meta.org.id,
        operation: meta.operation,
        category: meta.category,
        method: meta.method,
        path: meta.path,
        status: response.status,
        latencyMs: performance.now() - started,
        cache: meta.cache ?? null,
        ts
      })
    }
    // Access log and request metrics (src/observability/accessLog.ts).
    accessLog({
      requestId: meta.requestId,
      org: meta.org?.name ?? null,
      operation: meta.operation,
      method: meta.method,
      path: meta.path,
      status: response.status,
      durationMs: performance.now() - started
    })
    return response
  })
