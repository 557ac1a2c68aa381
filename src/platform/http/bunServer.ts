/**
 * The HTTP server: Bun.serve driving the HttpApp, as `BunHttpServer.layer` does, with less work
 * per request. The framework's semantics are kept: one fiber per request, uninterruptible but
 * where the app opens regions; `HttpApp.toHandled`'s answer rules (the app's answer or the answer
 * its failure maps to, given once through the pre-response handlers in force; the middleware
 * sees the failure; what the middleware answers is sent only when nothing was given yet); a
 * scope per request, closed when the request ends or, for a streamed body, when the stream does;
 * a client that goes away interrupts its request; closing the server interrupts the requests
 * still running. test/api/bun-server.test.ts holds it to the platform's server answer by answer.
 *
 * What it does differently, per request (measured with bench/http/ceiling.ts):
 * - The fiber starts with the request already in its context (one context made for the request),
 *   and the request's scope joins that context in place: no `provideService` region for the
 *   request, no `Scope.extend` region, each of which sets the fiber's context twice.
 * - An answer ready when the fiber yields for the first time (a cache hit, a refusal) is returned
 *   to Bun as it is: no Promise, no abort listener, no `AbortSignal` made for the request. Only a
 *   request still running gets the listener that interrupts it when the client goes away.
 * - The response's headers go to Bun's `Response` as the plain record they are, converted once
 *   (the platform first copies them into a `Headers` object, which `Response` copies again).
 * - Running requests are kept in a Set (shutdown interrupts them) rather than a `FiberSet`.
 * - No server span: the service runs with the tracer off (src/Http.ts), and the span the
 *   platform's server makes per request was pure cost.
 *
 * The request object is the platform's web one (`HttpServerRequest.fromWeb`); the service uses
 * neither WebSocket upgrades nor Bun's multipart parser, the two things the Bun one adds.
 */
import { Cookies, HttpApp, HttpBody, HttpServer, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as BunHttpServer from "@effect/platform-bun/BunHttpServer"
import type { Server } from "bun"
import { Cause, Context, Effect, Exit, Fiber, FiberId, Layer, Runtime, Scope, Stream } from "effect"
import type { RuntimeFiber } from "effect/Fiber"

export interface BunServerOptions {
  readonly port: number
  readonly hostname: string
  /** Seconds without a byte either way before Bun closes the connection (max 255). */
  readonly idleTimeout?: number
  readonly maxRequestBodySize?: number
}

/** Who is waiting for each request's answer (keyed by Bun's request: kept by every `modify`). */
const waiting = new WeakMap<Request, (response: Response) => void>()

const sourceOf = (request: HttpServerRequest.HttpServerRequest): Request => (request as unknown as { readonly source: Request }).source

/** A response as Bun's `Response`; `runtime` runs a streamed body. */
const toBun = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse,
  runtime: Runtime.Runtime<never>
): Response => {
  let headers: Record<string, string> | globalThis.Headers = response.headers
  if (!Cookies.isEmpty(response.cookies)) {
    const withCookies = new globalThis.Headers(response.headers)
    for (const cookie of Cookies.toSetCookieHeaders(response.cookies)) withCookies.append("set-cookie", cookie)
    headers = withCookies
  }
  const init: ResponseInit = response.statusText === undefined
    ? { status: response.status, headers }
    : { status: response.status, statusText: response.statusText, headers }
  if (request.method === "HEAD") return new Response(undefined, init)
  const body = response.body
  switch (body._tag) {
    case "Empty":
      return new Response(undefined, init)
    case "Uint8Array":
      return new Response(body.body, init)
    case "Raw": {
      if (body.body instanceof Response) {
        for (const [key, value] of Object.entries(response.headers)) body.body.headers.set(key, value)
        return body.body
      }
      return new Response(body.body as ConstructorParameters<typeof Response>[0], init)
    }
    case "FormData":
      return new Response(body.formData, init)
    case "Stream":
      return new Response(Stream.toReadableStreamRuntime(body.stream, runtime), init)
  }
}

const make = (options: BunServerOptions) =>
  Effect.gen(function*() {
    const notServing = () => new Response("not found", { status: 404 })
    const server: Server<undefined> = Bun.serve({ ...options, fetch: notServing })
    yield* Effect.addFinalizer(() => Effect.sync(() => server.stop()))
    return HttpServer.make({
      address: { _tag: "TcpAddress", port: server.port!, hostname: server.hostname! },
      serve: (httpApp, middleware) =>
        Effect.gen(function*() {
          const runtime = yield* Effect.runtime<never>()
          const running = new Set<RuntimeFiber<unknown, unknown>>()
          /** Scopes a streamed body closes when it ends (not the request's end). */
          const ejected = new WeakSet<Scope.Scope>()
          const answered = (request: HttpServerRequest.HttpServerRequest) => !waiting.has(sourceOf(request))
          /** Hands the answer to Bun, once: the first answer given wins. */
          const send = (context: Context.Context<never>, request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) => {
            const source = sourceOf(request)
            const resolve = waiting.get(source)
            if (resolve === undefined) return
            waiting.delete(source)
            resolve(webResponse(context, request, response))
          }
          /**
           * Bun's `Response` for an answer. One Bun refuses (a header value with a line break, a
           * status out of range) is a 500 without a body rather than a request left unanswered.
           */
          const webResponse = (context: Context.Context<never>, request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse): Response => {
            const body = response.body
            if (body._tag === "Stream") {
              // A streamed body outlives the request's effect: the stream closes the scope when done.
              const scope = Context.unsafeGet(context, Scope.Scope) as Scope.CloseableScope
              ejected.add(scope)
              response = HttpServerResponse.setBody(response, HttpBody.stream(Stream.ensuring(body.stream, Scope.close(scope, Exit.void)), body.contentType, body.contentLength))
            }
            try {
              return toBun(request, response, runtime)
            } catch (error) {
              Runtime.runFork(runtime)(Effect.logError("answer refused by the HTTP server; sent 500 instead", String(error)))
              return new Response(undefined, { status: 500 })
            }
          }
          /** The answer through the pre-response handlers in force, then sent. */
          const give = (response: HttpServerResponse.HttpServerResponse) =>
            Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, unknown>((fiber) => {
              const context = fiber.currentContext
              const request = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest)
              const handler = fiber.getFiberRef(HttpApp.currentPreResponseHandlers)
              if (handler._tag === "None") {
                send(context, request, response)
                return Effect.succeed(response)
              }
              return Effect.tap(handler.value(request, response), (final) => Effect.sync(() => send(context, request, final)))
            })
          // As HttpApp.toHandled: the app's answer or the answer its failure maps to, given through
          // the pre-response handlers; the middleware around that sees the failure; what the
          // middleware itself answers or fails with is sent only when nothing was given yet.
          const withErrorHandling = Effect.catchAllCause(Effect.flatMap(httpApp, give), (cause) =>
            Effect.flatMap(HttpServerError.causeResponse(cause), ([response, rest]) =>
              Effect.zipRight(give(response), Cause.isEmptyType(rest) ? Effect.succeed(response) : Effect.failCause(rest))))
          const withMiddleware: Effect.Effect<unknown, unknown, any> = middleware === undefined ? withErrorHandling : Effect.matchCauseEffect(middleware(withErrorHandling as any), {
            onFailure: (cause) =>
              Effect.withFiberRuntime((fiber) => {
                const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
                if (answered(request)) return Effect.void
                return Effect.matchCause(HttpServerError.causeResponse(cause), {
                  onFailure: () => send(fiber.currentContext, request, HttpServerResponse.empty({ status: 500 })),
                  onSuccess: ([response]) => send(fiber.currentContext, request, response)
                })
              }),
            onSuccess: (response) =>
              Effect.withFiberRuntime((fiber) => {
                const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
                if (!answered(request)) send(fiber.currentContext, request, response)
                return Effect.void
              })
          })
          // The request's scope joins the context made for this request in place (no copy, no
          // FiberRef update), and closes when the request ends, or when its streamed body does.
          const app = Effect.uninterruptible(Effect.withFiberRuntime<unknown, unknown, any>((fiber) =>
            Effect.flatMap(Scope.make(), (scope) => {
              ;(fiber.currentContext as unknown as { readonly unsafeMap: Map<string, unknown> }).unsafeMap.set(Scope.Scope.key, scope)
              return Effect.onExit(withMiddleware, (exit) => (ejected.has(scope) ? Effect.void : Scope.close(scope, exit)))
            })
          ))

          const fetch = (source: Request): Response | Promise<Response> => {
            let answer: Response | undefined
            let resolveLater: ((response: Response) => void) | undefined
            waiting.set(source, (response) => {
              if (resolveLater === undefined) answer = response
              else resolveLater(response)
            })
            const request = HttpServerRequest.fromWeb(source)
            const fiber = Runtime.runFork(Runtime.make({
              context: Context.add(runtime.context, HttpServerRequest.HttpServerRequest, request),
              runtimeFlags: runtime.runtimeFlags,
              fiberRefs: runtime.fiberRefs
            }))(app as Effect.Effect<unknown, unknown, never>)
            const done = fiber.unsafePoll() !== null
            if (!done) {
              running.add(fiber)
              fiber.addObserver(() => running.delete(fiber))
            }
            if (answer !== undefined) return answer
            // The app always answers (see above); should its fiber end without an answer, the
            // client still gets a reply.
            if (done) {
              waiting.delete(source)
              return new Response(undefined, { status: 500 })
            }
            return new Promise<Response>((resolve) => {
              resolveLater = resolve
              fiber.addObserver(() => {
                if (waiting.delete(source)) resolve(new Response(undefined, { status: 500 }))
              })
              source.signal.addEventListener("abort", () => fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId), { once: true })
            })
          }

          yield* Effect.acquireRelease(
            Effect.sync(() => server.reload({ fetch })),
            () =>
              Effect.suspend(() => {
                server.reload({ fetch: notServing })
                const fibers = [...running]
                running.clear()
                return Fiber.interruptAllAs(fibers, FiberId.none)
              })
          )
        })
    })
  })

/** The server with what the platform's Bun layer provides beside it (HttpPlatform, Etag, BunContext). */
export const layer = (options: BunServerOptions) =>
  Layer.mergeAll(Layer.scoped(HttpServer.HttpServer, make(options)), BunHttpServer.layerContext)
