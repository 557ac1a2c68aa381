/**
 * The HTTP server: Bun.serve driving the HttpApp, as `BunHttpServer.layer` does, with less work
 * per request. The framework's semantics are kept whole: the app runs under
 * `HttpApp.toHandled` (pre-response handlers, error responses, the request's scope), one fiber
 * per request, a client that goes away interrupts its fiber, and closing the server interrupts
 * every request still running.
 *
 * What it does differently, per request (each measured in bench/http/ceiling.ts):
 * - The request's fiber starts with the request already in its context (one context built for
 *   it), instead of a `provideService` region around the app that sets and restores the fiber's
 *   context.
 * - An answer ready when the fiber yields for the first time (a cache hit, a refusal) is returned
 *   to Bun as it is: no Promise, no abort listener, no `AbortSignal` made for the request. Only a
 *   request still running gets the listener that interrupts it when the client goes away.
 * - The response's headers go to Bun's `Response` as the plain record they are, converted once
 *   (the platform first copies them into a `Headers` object, which `Response` then copies again).
 * - Running requests are kept in a Set (shutdown interrupts them) rather than a `FiberSet`.
 *
 * The request object is the platform's web one (`HttpServerRequest.fromWeb`); the service uses
 * neither WebSocket upgrades nor Bun's multipart parser, the two things the Bun one adds.
 */
import { Cookies, HttpApp, HttpServer, HttpServerError, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { BunHttpServer } from "@effect/platform-bun"
import type { Server } from "bun"
import { Context, Effect, Fiber, FiberId, Layer, Runtime, Stream } from "effect"
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
          const app = HttpApp.toHandled(httpApp, (request, response) =>
            Effect.sync(() => {
              const source = sourceOf(request)
              const resolve = waiting.get(source)
              if (resolve === undefined) return
              waiting.delete(source)
              // A streamed body outlives the request's scope: the stream closes it when done.
              resolve(toBun(request, response.body._tag === "Stream" ? HttpApp.unsafeEjectStreamScope(response) : response, runtime))
            }), middleware as any)

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
            }))(app as Effect.Effect<void, never, never>)
            const done = fiber.unsafePoll() !== null
            if (!done) {
              running.add(fiber)
              fiber.addObserver(() => running.delete(fiber))
            }
            if (answer !== undefined) return answer
            // The app always answers through toHandled; should its fiber end without one, the
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
