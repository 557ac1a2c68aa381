/**
 * The pipeline (src/surfaces/server/pipeline.ts) under TestClock: deadlines at their real
 * values (OPERATION_DEADLINE_MS' default 25 s, http-check's `timeout` + 2 s) without waiting for
 * them. The work is a stand-in HttpApp; the operations index is the real one, built from the
 * `Api`. The same deadlines against real upstreams and real time: test/api/deadlines.test.ts.
 */
import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, test } from "bun:test"
import { Deferred, Effect, Fiber, Layer, Logger, Option, Supervisor, TestClock, TestContext } from "effect"
import { Api } from "../../src/surfaces/api/Api"
import { rawRoutes } from "../../src/surfaces/server/Http"
import { pipeline, trackingHeaders } from "../../src/surfaces/server/pipeline"
import { AppConfig } from "../../src/platform/Config"
import { makeOperations } from "../../src/platform/http/Operation"
import { noteCache, noteCaller } from "../../src/platform/http/CurrentRequest"
import type { FinishedRequest } from "../../src/platform/http/RequestObserver"

const operations = makeOperations(Api, rawRoutes)

const caller = { org: { id: "org_1", name: "acme", plan: "pro" as const }, plan: "pro" as const, keyId: "k1", auditToken: null }

/**
 * Serves `url` through the pipeline over `app` in a fiber of its own, as the server does:
 * uninterruptible but for the work, the answer handed over from inside that region (`answer`).
 */
const serve = (url: string, app: HttpApp.Default, method = "GET") =>
  Effect.gen(function*() {
    const logged: Array<FinishedRequest> = []
    const answered = yield* Deferred.make<HttpServerResponse.HttpServerResponse>()
    const config = yield* AppConfig
    const request = HttpServerRequest.fromWeb(new Request(`http://127.0.0.1${url}`, { method, headers: { "x-request-id": "req-1" } }))
    const fiber = yield* pipeline(app, { config, observer: { onResponse: (r) => logged.push(r) }, operations }).pipe(
      Effect.flatMap((response) => Deferred.succeed(answered, response)),
      Effect.provideService(HttpServerRequest.HttpServerRequest, request),
      Effect.uninterruptible,
      Effect.fork
    )
    return { fiber, answer: Deferred.await(answered), pending: Effect.map(Deferred.poll(answered), Option.isNone), logged }
  })

const json = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.promise(() => HttpServerResponse.toWeb(response).json() as Promise<{ error: { code: string; message: string } }>)

const run = <A, E>(effect: Effect.Effect<A, E, AppConfig>) =>
  Effect.runPromise(effect.pipe(
    Effect.provide(Layer.mergeAll(AppConfig.make({}), Logger.remove(Logger.defaultLogger))),
    Effect.provide(TestContext.TestContext)
  ) as Effect.Effect<A, E>)

describe("deadlines under TestClock", () => {
  test("at the default 25 s an operation still working is answered 502 upstream_unavailable, and logged", () =>
    run(Effect.gen(function*() {
      const { answer, logged, pending } = yield* serve("/v1/domain/ct-logs?domain=example.com", Effect.never)
      yield* TestClock.adjust("24999 millis")
      expect(yield* pending).toBe(true)
      yield* TestClock.adjust("1 millis")
      const response = yield* answer
      expect(response.status).toBe(502)
      expect(response.headers["x-request-id"]).toBe("req-1")
      expect((yield* json(response)).error).toEqual({ code: "upstream_unavailable", message: "the operation did not finish within its deadline of 25000 ms" })
      expect(logged.map((r) => [r.operation, r.category, r.status])).toEqual([["ctLogs", "domain", 502]])
    })))

  test("http-check's own deadline is its timeout + 2 s: longer (30 s → 32 s) and shorter (5 s → 7 s) than the default", () =>
    run(Effect.gen(function*() {
      const long = yield* serve(`/v1/network/http-check?url=${encodeURIComponent("http://127.0.0.1:9/")}&timeout=30000`, Effect.never)
      const short = yield* serve(`/v1/network/http-check?url=${encodeURIComponent("http://127.0.0.1:9/")}&timeout=5000`, Effect.never)
      yield* TestClock.adjust("6999 millis")
      expect(yield* short.pending).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect((yield* short.answer).status).toBe(502)
      yield* TestClock.adjust("24999 millis") // 31.999 s
      expect(yield* long.pending).toBe(true)
      yield* TestClock.adjust("1 millis")
      const response = yield* long.answer
      expect((yield* json(response)).error.message).toContain("32000 ms")
      expect([...short.logged, ...long.logged].map((r) => [r.operation, r.status])).toEqual([["httpCheck", 502], ["httpCheck", 502]])
    })))

  test("an answer within the deadline passes through, and leaves no fiber behind (the deadline's sleeper ends with it)", () =>
    run(Effect.gen(function*() {
      const app = Effect.as(Effect.sleep("3 seconds"), HttpServerResponse.text("done"))
      const fibers = yield* Supervisor.track
      const { answer, fiber, logged } = yield* Effect.supervised(serve("/healthz", app), fibers)
      yield* TestClock.adjust("3 seconds")
      const response = yield* answer
      expect(response.status).toBe(200)
      yield* Fiber.await(fiber)
      yield* Effect.yieldNow()
      expect((yield* fibers.value).length).toBe(0)
      yield* TestClock.adjust("1 minute")
      expect(logged.map((r) => [r.operation, r.status])).toEqual([["healthz", 200]])
    })))

  test("a client that goes away: the work is interrupted and the request logged 499", () =>
    run(Effect.gen(function*() {
      const { fiber, logged } = yield* serve("/v1/domain/ct-logs?domain=example.com", Effect.never)
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(fiber)
      expect(logged.map((r) => [r.operation, r.status])).toEqual([["ctLogs", 499]])
    })))
})

describe("per-request values", () => {
  test("what the work notes (caller, quota, cache) reaches the request log and the tracking headers", () =>
    run(Effect.gen(function*() {
      const app = Effect.gen(function*() {
        yield* noteCaller(caller, { limit: 100, remaining: 41, resetAt: 1_700_000_000 })
        yield* noteCache("hit")
        const request = yield* HttpServerRequest.HttpServerRequest
        // The server runs the pre-response handlers inside the work, where CurrentRequest is provided.
        return yield* Effect.orDie(trackingHeaders(request, HttpServerResponse.text("ok")))
      })
      const { answer, logged } = yield* serve("/v1/alerts/rules", app)
      const response = yield* answer
      expect(response.headers).toMatchObject({
        "x-request-id": "req-1",
        "x-ratelimit-limit": "100",
        "x-ratelimit-remaining": "41",
        "x-ratelimit-reset": "1700000000"
      })
      expect(logged.map((r) => [r.operation, r.caller?.org.id, r.cache])).toEqual([["listAlertRules", "org_1", "hit"]])
    })))

  test("a path the router would fold is 404 before any work, with its request id", () =>
    run(Effect.gen(function*() {
      const { answer, logged } = yield* serve("/v1/alerts/rules;x", Effect.die("never reached"))
      const response = yield* answer
      expect(response.status).toBe(404)
      expect(response.headers["x-request-id"]).toBe("req-1")
      expect(logged.map((r) => [r.operation, r.status])).toEqual([["unknown", 404]])
    })))

  test("outside a request (MCP over stdio), notes go nowhere", () =>
    run(Effect.gen(function*() {
      yield* noteCache("miss")
      yield* noteCaller(caller, undefined)
    })))
})
