/**
 * The outermost middleware: what happens to every request before the router and after the
 * answer, in one place (docs/pipeline.md).
 *
 *   receipt → path spelled exactly? (else 404: the router would fold escapes and `;params`)
 *   → the operation the router serves (`Operations.match`), its deadline
 *   → `CurrentRequest` provided to the work: id, operation, deadline, a `Ref` for notes
 *   → the work (body bound, router, Auth, handler; src/surfaces/server/Http.ts), raced against
 *     `Clock.sleep` until the deadline (502 upstream_unavailable)
 *   → tracking headers on every answer (`trackingHeaders`, a pre-response handler)
 *   → RequestObserver.onResponse (request log, access log, metrics); the JIT's work signal
 *     (src/platform/jitPolicy.ts)
 *
 * A client that goes away interrupts the work: the request is logged with status 499.
 */
import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Clock, Effect, Fiber, FiberId, HashSet, Option, Ref } from "effect"
import type { AppConfig } from "../../platform/Config"
import { type ApiError, NotFound, UpstreamUnavailable } from "../../kernel/errors"
import { CurrentRequest, type CurrentRequestShape, emptyNotes, type RequestNotes, requestIdFrom } from "../../platform/http/CurrentRequest"
import { canonicalPath, deadlineOf, type Operations } from "../../platform/http/Operation"
import type { RequestObserver } from "../../platform/http/RequestObserver"
import { workSignal } from "../../platform/jitPolicy"
import { errorAnswer } from "./errorAnswer"

/** The headers every answer carries beyond its own: the request id, and the caller's quota once counted. */
const tracking = (id: string, notes: RequestNotes): Record<string, string> => {
  const headers: Record<string, string> = { "x-request-id": id }
  const q = notes.rateLimit
  if (q !== undefined) {
    headers["x-ratelimit-limit"] = String(q.limit)
    headers["x-ratelimit-remaining"] = String(q.remaining)
    headers["x-ratelimit-reset"] = String(q.resetAt)
  }
  return headers
}

/**
 * The tracking headers on every answer the HttpApi sends. The server sends that answer from
 * inside the work, so the headers go on in a pre-response handler, installed once for the
 * server (src/surfaces/server/Http.ts); it reads the request's `CurrentRequest`.
 */
export const trackingHeaders: HttpApp.PreResponseHandler = (_request, response) =>
  Effect.flatMap(Effect.serviceOption(CurrentRequest), (current) =>
    Option.isNone(current)
      ? Effect.succeed(response)
      : Effect.map(Ref.get(current.value.notes), (notes) => HttpServerResponse.setHeaders(response, tracking(current.value.id, notes))))

/** What the pipeline needs, resolved once when the server is built (not per request). */
export interface PipelineDeps {
  readonly observer: RequestObserver["Type"]
  readonly config: AppConfig["Type"]
  readonly operations: Operations["Type"]
}

/** The fiber id the deadline interrupts the work with, to tell it from a client's abort. */
const deadlineId = FiberId.make(-1, 0)

/**
 * `work` raced against `Clock.sleep(ms)` (so TestClock moves it): the sleeper runs in a daemon
 * fiber and interrupts the request's fiber with `deadlineId` when it wakes first; the work's end
 * interrupts the sleeper otherwise. `Effect.timeoutFail` runs the same race by forking the work
 * itself into a child of the request's fiber and joining it back, at twice the cost: measured
 * with bench/http/ab.ts (checkouts without a deadline, with `timeoutFail`, with this form, in one
 * run) it added 76-125 µs of server CPU per request where this form adds 7-71 µs, and alert
 * history served 0.22x of the minimal HttpApi endpoint with it, 0.29x with this form
 * (docs/pipeline.md, "Speed").
 */
const raceDeadline = <A, E, R>(work: Effect.Effect<A, E, R>, ms: number): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime((request) =>
    // The sleeper must be interruptible whatever region it is forked from (the server runs this
    // one uninterruptibly): else it would outlive every request by its whole deadline.
    Effect.flatMap(Effect.forkDaemon(Effect.interruptible(Effect.zipRight(Clock.sleep(ms), Fiber.interruptAsFork(request, deadlineId)))), (sleeper) =>
      Effect.ensuring(work, Fiber.interruptAsFork(sleeper, request.id()))))

export const pipeline = <R>(app: HttpApp.Default<never, R>, { config, observer, operations }: PipelineDeps): HttpApp.Default<never, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const started = performance.now()
    const q = request.url.indexOf("?")
    const path = q === -1 ? request.url : request.url.slice(0, q)
    const id = requestIdFrom(request.headers["x-request-id"])
    const exact = canonicalPath(path)
    const matched = exact ? operations.match(request.method, request.url) : undefined
    return Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.make(emptyNotes)), ([ts, notes]) => {
      const current: CurrentRequestShape = { id, operation: matched?.info, deadlineMs: deadlineOf(matched, config), notes }

      const finish = (response: HttpServerResponse.HttpServerResponse) =>
        Effect.map(Ref.get(notes), (n) => {
          observer.onResponse({
            requestId: id,
            operation: current.operation?.operation ?? "unknown",
            category: current.operation?.category ?? "system",
            method: request.method,
            path,
            status: response.status,
            durationMs: performance.now() - started,
            caller: n.caller,
            cache: n.cache,
            ts
          })
          workSignal.request(n.caller !== undefined)
          return response
        })
      /** An answer the pipeline gives itself: the HttpApi never saw the request, or it ran out of time. */
      const own = (error: ApiError) =>
        Effect.flatMap(Ref.get(notes), (n) => finish(HttpServerResponse.setHeaders(errorAnswer(error), tracking(id, n))))

      if (!exact) return own(new NotFound({ message: "no such route" }))
      const work = raceDeadline(Effect.interruptible(Effect.provideService(app, CurrentRequest, current)), current.deadlineMs)
      // The server runs this middleware uninterruptibly; the work alone is interruptible, so the
      // deadline and a client's abort interrupt it here, and are answered: 502 past the deadline,
      // 499 when the client went away (logged and sent to nobody).
      return Effect.matchCauseEffect(work, {
        onFailure: (cause) => {
          if (HashSet.has(Cause.interruptors(cause), deadlineId)) {
            return own(new UpstreamUnavailable({ message: `the operation did not finish within its deadline of ${current.deadlineMs} ms` }))
          }
          // Interrupted by the client's abort, or the HttpApp answered already (the server's own
          // fallback for what it could not encode).
          return finish(HttpServerResponse.empty({ status: Cause.isInterruptedOnly(cause) ? 499 : 500 }))
        },
        onSuccess: finish
      })
    })
  })
