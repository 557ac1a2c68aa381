/**
 * src/http/bunServer.ts against the platform server it stands in for (`BunHttpServer.layer`):
 * one HttpApp served by both on loopback; every request gets the same status, headers and body
 * from both (answers ready at once and answers that wait, HEAD, cookies, a streamed body, a raw
 * `Response`, failures and defects). Then what only a running server shows: a client that goes
 * away interrupts its request, a streamed body keeps the request's scope open until it ends,
 * and closing the server interrupts the requests still running.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { HttpApp, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { BunHttpServer } from "@effect/platform-bun"
import { Deferred, Effect, Layer, ManagedRuntime, Option, Stream } from "effect"
import * as BunServer from "../../src/platform/http/bunServer"

/** What the app saw happen (interruptions, scope closes), shared by the tests below. */
const events: Array<string> = []
const encoder = new TextEncoder()

const router = HttpRouter.empty.pipe(
  HttpRouter.get("/now", Effect.succeed(HttpServerResponse.unsafeJson({ ok: true }, { headers: { "x-one": "1", "x-two": "two" } }))),
  HttpRouter.get("/later", Effect.as(Effect.sleep("20 millis"), HttpServerResponse.text("waited", { status: 202, headers: { "x-later": "yes" } }))),
  HttpRouter.get("/echo", Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
    HttpServerResponse.unsafeJson({ method: request.method, url: request.url, header: request.headers["x-probe"] ?? null }))),
  HttpRouter.post("/echo", Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(request.text, (text) => HttpServerResponse.text(`got ${text.length} bytes: ${text.slice(0, 20)}`)))),
  HttpRouter.get("/cookies", Effect.orDie(HttpServerResponse.setCookies(HttpServerResponse.text("with cookies"), [["a", "1", { path: "/" }], ["b", "2", { httpOnly: true }]]))),
  HttpRouter.get("/empty", Effect.succeed(HttpServerResponse.empty({ status: 204, headers: { "x-empty": "1" } }))),
  HttpRouter.get("/bytes", Effect.succeed(HttpServerResponse.uint8Array(new Uint8Array([1, 2, 3]), { contentType: "application/octet-stream" }))),
  HttpRouter.get("/raw", Effect.sync(() => HttpServerResponse.raw(new Response("from a Response", { headers: { "x-inner": "i", "content-type": "text/plain" } }), { headers: { "x-outer": "o" } }))),
  HttpRouter.get("/stream", Effect.gen(function*() {
    const id = (yield* HttpServerRequest.ParsedSearchParams).id ?? ""
    yield* Effect.addFinalizer(() => Effect.sync(() => events.push(`stream ${id} scope closed`)))
    const chunks = Stream.make("one ", "two ", "three").pipe(
      Stream.tap(() => Effect.sleep("5 millis")),
      Stream.map((s) => encoder.encode(s)),
      Stream.ensuring(Effect.sync(() => events.push(`stream ${id} ended`)))
    )
    return HttpServerResponse.stream(chunks, { contentType: "text/plain" })
  })),
  HttpRouter.get("/finalizer", Effect.gen(function*() {
    const id = (yield* HttpServerRequest.ParsedSearchParams).id ?? ""
    yield* Effect.addFinalizer(() => Effect.sync(() => events.push(`finalizer ${id} ran`)))
    return HttpServerResponse.text("scoped")
  })),
  HttpRouter.get("/bad-header", Effect.succeed(HttpServerResponse.text("x", { headers: { "x-bad": "a\nb" } }))),
  HttpRouter.get("/later-bad-header", Effect.as(Effect.sleep("10 millis"), HttpServerResponse.text("x", { headers: { "x-bad": "a\nb" } }))),
  HttpRouter.get("/fail", Effect.fail(new Error("refused"))),
  HttpRouter.get("/defect", Effect.die(new Error("boom"))),
  HttpRouter.get("/forever", Effect.never.pipe(
    Effect.onInterrupt(() => Effect.sync(() => events.push("forever interrupted"))),
    Effect.zipRight(Effect.succeed(HttpServerResponse.empty()))
  )),
  HttpRouter.get("/hold/:id", Effect.gen(function*() {
    const { id } = yield* HttpRouter.params
    const started = yield* Deferred.make<void>()
    held.set(id!, started)
    yield* Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => events.push(`hold ${id} interrupted`))))
    return HttpServerResponse.empty()
  }))
)
const held = new Map<string, Deferred.Deferred<void>>()

/**
 * A middleware whose every way of ending counts: it answers itself, fails before the app runs,
 * replaces a failed app's answer (too late: the app's failure was answered already), or passes.
 */
const middleware = (app: HttpApp.Default<unknown>): HttpApp.Default<unknown> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (request.url === "/mw/own") return Effect.succeed(HttpServerResponse.text("the middleware's own answer", { status: 203 }))
    if (request.url === "/mw/fail") return Effect.fail(new Error("refused by the middleware"))
    if (request.url === "/mw/die") return Effect.die(new Error("the middleware broke"))
    return Effect.catchAllCause(app, () => Effect.succeed(HttpServerResponse.text("replaced", { status: 299 })))
  })

const serve = async (server: Layer.Layer<HttpServer.HttpServer, never, never>, withMiddleware = false) => {
  const served = withMiddleware ? HttpServer.serve(router, middleware as any) : HttpServer.serve(router)
  const runtime = ManagedRuntime.make(served.pipe(Layer.provideMerge(server)) as Layer.Layer<HttpServer.HttpServer>)
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { url: `http://127.0.0.1:${address.port}`, stop: () => runtime.dispose() }
}

let platform: Awaited<ReturnType<typeof serve>>
let lean: Awaited<ReturnType<typeof serve>>
let platformMw: Awaited<ReturnType<typeof serve>>
let leanMw: Awaited<ReturnType<typeof serve>>
beforeAll(async () => {
  platform = await serve(BunHttpServer.layer({ port: 0, hostname: "127.0.0.1" }) as Layer.Layer<HttpServer.HttpServer>)
  lean = await serve(BunServer.layer({ port: 0, hostname: "127.0.0.1" }) as Layer.Layer<HttpServer.HttpServer>)
  platformMw = await serve(BunHttpServer.layer({ port: 0, hostname: "127.0.0.1" }) as Layer.Layer<HttpServer.HttpServer>, true)
  leanMw = await serve(BunServer.layer({ port: 0, hostname: "127.0.0.1" }) as Layer.Layer<HttpServer.HttpServer>, true)
})
afterAll(async () => {
  await Promise.all([platform?.stop(), lean?.stop(), platformMw?.stop(), leanMw?.stop()])
})

/** Status, every header but the date, and the body's bytes. */
const answer = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init)
  const headers = [...response.headers].filter(([name]) => name !== "date").sort(([a], [b]) => a.localeCompare(b))
  return { status: response.status, headers, body: [...new Uint8Array(await response.arrayBuffer())] }
}

const cases: Array<[string, string, RequestInit?]> = [
  ["an answer ready at once, with headers", "/now"],
  ["an answer that waits", "/later"],
  ["the request as the app sees it", "/echo?x=1", { headers: { "x-probe": "p" } }],
  ["a request body", "/echo", { method: "POST", body: "a body of some length" }],
  ["HEAD: the headers, no body", "/now", { method: "HEAD" }],
  ["HEAD of an answer that waits", "/later", { method: "HEAD" }],
  ["cookies", "/cookies"],
  ["no content", "/empty"],
  ["bytes", "/bytes"],
  ["a raw Response with the answer's headers added", "/raw"],
  ["a streamed body", "/stream"],
  ["a scoped answer", "/finalizer"],
  ["a failure", "/fail"],
  ["a defect", "/defect"],
  ["no route", "/nowhere"],
  ["a wrong method", "/now", { method: "DELETE" }]
]

describe("src/http/bunServer.ts answers as BunHttpServer does", () => {
  for (const [name, path, init] of cases) {
    test(name, async () => {
      const [expected, actual] = await Promise.all([answer(platform.url + path, init), answer(lean.url + path, init)])
      expect(actual).toEqual(expected)
    })
  }

  const withMiddleware: Array<[string, string]> = [
    ["the app's answer passes the middleware", "/now"],
    ["an answer that waits passes the middleware", "/later"],
    ["the middleware answers itself", "/mw/own"],
    ["the middleware fails", "/mw/fail"],
    ["the middleware dies", "/mw/die"],
    ["the app's failure was answered before the middleware's replacement", "/fail"],
    ["the app's defect too", "/defect"],
    ["no route, with the middleware", "/nowhere"],
    ["a streamed body through the middleware", "/stream"]
  ]
  for (const [name, path] of withMiddleware) {
    test(`with a middleware: ${name}`, async () => {
      const [expected, actual] = await Promise.all([answer(platformMw.url + path), answer(leanMw.url + path)])
      expect(actual).toEqual(expected)
    })
  }

  test("the middleware cases are not all alike", async () => {
    const statuses = await Promise.all(withMiddleware.map(async ([, path]) => (await answer(leanMw.url + path)).status))
    expect(statuses).toContain(203)
    expect(new Set(statuses).size).toBeGreaterThanOrEqual(4)
  })

  test("the cases above are not all alike (the comparison can tell answers apart)", async () => {
    const statuses = new Set(await Promise.all(cases.map(async ([, path, init]) => (await answer(lean.url + path, init)).status)))
    expect(statuses.size).toBeGreaterThanOrEqual(5)
    const now = await answer(lean.url + "/now")
    expect(now.headers).toContainEqual(["x-two", "two"])
    expect(now.headers).toContainEqual(["content-type", "application/json"])
    expect(new TextDecoder().decode(new Uint8Array(now.body))).toBe('{"ok":true}')
  })
})

describe("src/http/bunServer.ts while requests run", () => {
  test("a streamed body keeps the request's scope open until the stream ends", async () => {
    const text = await (await fetch(lean.url + "/stream?id=s1")).text()
    expect(text).toBe("one two three")
    await Bun.sleep(20)
    expect(events.filter((e) => e.startsWith("stream s1"))).toEqual(["stream s1 ended", "stream s1 scope closed"])
  })

  test("the request's scope closes when the request ends", async () => {
    expect(await (await fetch(lean.url + "/finalizer?id=f1")).text()).toBe("scoped")
    for (let i = 0; i < 50 && !events.includes("finalizer f1 ran"); i++) await Bun.sleep(10)
    expect(events.filter((e) => e.startsWith("finalizer f1"))).toEqual(["finalizer f1 ran"])
  })

  test("an answer Bun refuses (a line break in a header) is a 500, not a request left hanging", async () => {
    for (const path of ["/bad-header", "/later-bad-header"]) {
      const response = await fetch(lean.url + path, { signal: AbortSignal.timeout(5_000) })
      expect({ path, status: response.status, bad: response.headers.get("x-bad") }).toEqual({ path, status: 500, bad: null })
    }
  })

  test("a client that goes away interrupts its request", async () => {
    events.length = 0
    const ctl = new AbortController()
    const pending = fetch(lean.url + "/forever", { signal: ctl.signal }).catch(() => "aborted")
    await Bun.sleep(50)
    ctl.abort()
    expect(await pending).toBe("aborted")
    for (let i = 0; i < 50 && !events.includes("forever interrupted"); i++) await Bun.sleep(10)
    expect(events.filter((e) => e.startsWith("forever"))).toEqual(["forever interrupted"])
  })

  test("closing the server interrupts the requests still running, and it stops listening", async () => {
    events.length = 0
    const own = await serve(BunServer.layer({ port: 0, hostname: "127.0.0.1" }) as Layer.Layer<HttpServer.HttpServer>)
    const pending = [1, 2].map((id) => fetch(`${own.url}/hold/${id}`).then((r) => r.status, () => "closed"))
    for (let i = 0; i < 100 && held.size < 2; i++) await Bun.sleep(10)
    expect([...held.keys()].sort()).toEqual(["1", "2"])
    await own.stop()
    expect(events.filter((e) => e.startsWith("hold")).sort()).toEqual(["hold 1 interrupted", "hold 2 interrupted"])
    await Promise.all(pending)
    expect(await fetch(own.url + "/now").then(() => "answered", () => "refused")).toBe("refused")
  })
})

test("the pre-response handlers in force see every answer (as under HttpApp.toHandled)", async () => {
  const seen: Array<number> = []
  const runtime = ManagedRuntime.make(HttpServer.serve(router).pipe(
    Layer.provideMerge(BunServer.layer({ port: 0, hostname: "127.0.0.1" }) as Layer.Layer<HttpServer.HttpServer>),
    (layer) => Layer.locally(layer, HttpApp.currentPreResponseHandlers, Option.some((_request, response) => {
      seen.push(response.status)
      return Effect.succeed(HttpServerResponse.setHeader(response, "x-seen", "1"))
    }))
  ) as Layer.Layer<HttpServer.HttpServer>)
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  const port = address._tag === "TcpAddress" ? address.port : 0
  try {
    const ok = await fetch(`http://127.0.0.1:${port}/now`)
    const missing = await fetch(`http://127.0.0.1:${port}/nowhere`)
    expect([ok.status, ok.headers.get("x-seen"), missing.status, missing.headers.get("x-seen")]).toEqual([200, "1", 404, "1"])
    expect(seen).toEqual([200, 404])
  } finally {
    await runtime.dispose()
  }
})
