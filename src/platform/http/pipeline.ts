/**
 * The outermost middleware: what happens to every request before the router and after the
 * answer, in one place.
 *
 *   receipt → request id, facts (src/platform/http/RequestFacts.ts), deadline
 *   → path spelled exactly? (else 404: the router would fold escapes and `;params`)
 *   → body read within 1 MiB (413) and installed for every reader (src/platform/http/body.ts)
 *   → the HttpApi (router → Auth/Attributed → handler; errors encoded by their schemas)
 *   → tracking headers (X-Request-Id, X-RateLimit-*; an error's own headers come with its answer,
 *     `errorHeaders` in src/kernel/errors.ts)
 *   → RequestObserver.onResponse (request log, access log, metrics); the JIT's work signal
 *     (src/platform/jitPolicy.ts)
 *
 * Deadline: every request is answered by its operation's deadline (OPERATION_DEADLINE_MS, or
 * the operation's own, e.g. http-check's `timeout` + 2 s) with 502 upstream_unavailable if the
 * operation has not answered by then; the operation is interrupted and the request still logged.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Context, Effect } from "effect"
import { AppConfig } from "../Config"
import { type ApiError, errorBody, NotFound, UpstreamUnavailable } from "../../kernel/errors"
import { nowIn } from "../../kernel/fiberClock"
import { installBody, readBody } from "./body"
import { Deadlines, type Tracked } from "./Deadlines"
import { canonicalPath } from "./Operation"
import { attachFacts, factsOf, headerOf, type RequestFacts, requestIdFrom } from "./RequestFacts"
import { RequestObserver } from "./RequestObserver"
import { workSignal } from "../jitPolicy"

/** The headers an answer carries beyond its body, from what the request's facts say. */
const decorate = (facts: RequestFacts, response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  const headers: Record<string, string> = { "x-request-id": facts.requestId }
  const q = facts.quota
  if (q !== undefined) {
    headers["x-ratelimit-limit"] = String(q.limit)
    headers["x-ratelimit-remaining"] = String(q.remaining)
    headers["x-ratelimit-reset"] = String(q.resetAt)
  }
  return HttpServerResponse.setHeaders(response, headers)
}

/** An answer the pipeline gives itself (the HttpApi never saw the request, or ran out of time). */
const own = (facts: RequestFacts, error: ApiError) =>
  decorate(facts, HttpServerResponse.unsafeJson(errorBody(error.code, error.message, error.details), { status: error.status }))

/**
 * The server sends the HttpApi's answer from inside the app, so the tracking headers go on in a
 * pre-response handler, installed once for the server (`Layer.locally` in src/surfaces/server/Http.ts) rather
 * than per request.
 */
export const trackingHeaders: HttpApp.PreResponseHandler = (request, response) => {
  const facts = factsOf(request)
  return Effect.succeed(facts === undefined ? response : decorate(facts, response))
}

const hasBody = (method: string) => method !== "GET" && method !== "HEAD" && method !== "OPTIONS"

const deadlineAnswer = (facts: RequestFacts) =>
  own(facts, new UpstreamUnavailable({ message: `the operation did not finish within its deadline of ${Math.round(facts.deadlineAt - facts.clockStart)} ms` }))

/** What the pipeline needs, resolved once when the server is built (not per request). */
export interface PipelineDeps {
  readonly observer: RequestObserver["Type"]
  readonly config: AppConfig["Type"]
  readonly deadlines: Deadlines
}

/** The services the pipeline runs with, for `pipeline`. */
export const pipelineDeps: Effect.Effect<PipelineDeps, never, RequestObserver | AppConfig | Deadlines> = Effect.map(
  Effect.all([RequestObserver, AppConfig, Deadlines]),
  ([observer, config, deadlines]) => ({ observer, config, deadlines })
)

/**
 * The outermost middleware. Few Effect steps per request by design (it runs for every request):
 * the request is read from the fiber's context, the facts are plain data, the work runs in one
 * interruptible region whose end (answer, failure, deadline, client gone) is matched once.
 */
export const pipeline = (app: HttpApp.Default, { config, deadlines, observer }: PipelineDeps): HttpApp.Default =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>((fiber) => {
    const request = Context.unsafeGet(fiber.currentContext as Context.Context<HttpServerRequest.HttpServerRequest>, HttpServerRequest.HttpServerRequest)
    const started = performance.now()
    const clockStart = nowIn(fiber)
    const q = request.url.indexOf("?")
    const path = q === -1 ? request.url : request.url.slice(0, q)
    const facts: RequestFacts = {
      // From the server's own Headers: `request.headers` would first copy them all into a record.
      requestId: requestIdFrom(headerOf(request, "x-request-id")),
      started,
      ts: Date.now(),
      clockStart,
      deadlineAt: clockStart + config.operationDeadlineMs,
      operation: undefined,
      caller: undefined,
      quota: undefined,
      cache: undefined,
    }
    attachFacts(request, facts)
    const finish = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
      observer.onResponse({
        requestId: facts.requestId,
        operation: facts.operation?.operation ?? "unknown",
        category: facts.operation?.category ?? "system",
        method: request.method,
        path,
        status: response.status,
        durationMs: performance.now() - started,
        caller: facts.caller,
        cache: facts.cache,
        ts: facts.ts
      })
      workSignal.request(facts.caller !== undefined)
      return response
    }
    if (!canonicalPath(path)) return Effect.succeed(finish(own(facts, new NotFound({ message: "no such route" }))))
    const work: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest> = hasBody(request.method)
      ? Effect.flatMap(Effect.either(readBody(request)), (body) => {
        if (body._tag === "Left") return Effect.succeed(own(facts, body.left))
        installBody(request, body.right)
        return app
      })
      : app

    // Deadline and client abort both interrupt this fiber while it runs the work in the
    // interruptible region below; the server runs the rest of this middleware uninterruptibly,
    // so the interruption is caught here and answered (502 past the deadline; 499, logged and
    // sent to nobody, when the client went away). No fiber is forked per request.
    const tracked: Tracked = { deadlineAt: () => facts.deadlineAt, fiber, expired: false }
    deadlines.track(tracked)
    return Effect.matchCause(Effect.interruptible(work), {
      onFailure: (cause) => {
        deadlines.untrack(tracked)
        if (tracked.expired) return finish(deadlineAnswer(facts))
        // Interrupted by the client's abort, or the HttpApp answered already (the server's own
        // fallback for what it could not encode).
        return finish(HttpServerResponse.empty({ status: Cause.isInterruptedOnly(cause) ? 499 : 500 }))
      },
      onSuccess: (response) => {
        deadlines.untrack(tracked)
        return finish(response)
      }
    })
  })
