/**
 * Body limits (src/platform/http/body.ts, docs/pipeline.md "Bodies"):
 * - why the platform's own limit is not used: BunHttpServer's request reads a body past
 *   `HttpIncomingMessage.withMaxBodySize` whole (only multipart reading consults it);
 * - the service's bound refuses before the body is read whole: over a raw socket, a declared
 *   Content-Length over 1 MiB is answered 413 while almost none of it was sent, a chunked body
 *   as soon as 1 MiB has passed, while the client still holds the rest back;
 * - `BodyRead`, the request the routes see: its readers answer from the bytes read, its `json`
 *   refuses nesting deeper than 64 levels.
 */
import { HttpIncomingMessage, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as BunHttpServer from "@effect/platform-bun/BunHttpServer"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { connect, type Socket } from "node:net"
import { BodyRead, MAX_BODY_BYTES, MAX_JSON_DEPTH } from "../../src/platform/http/body"
import { startService, type TestService } from "../support/service"

let svc: TestService
let key: string
beforeAll(async () => {
  svc = await startService()
  key = (await svc.newKey("enterprise")).key
})
afterAll(() => svc?.stop())

describe("the platform's body-size limit on BunHttpServer", () => {
  test("is not applied to the request's readers: 64 KiB read whole under a 1 KiB limit", async () => {
    const app = HttpRouter.empty.pipe(
      HttpRouter.post("/", Effect.flatMap(HttpServerRequest.HttpServerRequest, (r) =>
        r.text.pipe(HttpIncomingMessage.withMaxBodySize(Option.some(1024)), Effect.map((t) => HttpServerResponse.text(String(t.length))), Effect.orDie))),
      HttpServer.serve()
    )
    const runtime = ManagedRuntime.make(app.pipe(Layer.provideMerge(BunHttpServer.layer({ port: 0, hostname: "127.0.0.1" }))))
    try {
      const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
      const port = address._tag === "TcpAddress" ? address.port : 0
      const res = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "x".repeat(64 * 1024) })
      expect(await res.text()).toBe(String(64 * 1024))
    } finally {
      await runtime.dispose()
    }
  })
})

/** Sends a request head and `first` body bytes, holds the rest back, and waits for an answer. */
const holdBack = (head: string, first: Uint8Array | string) =>
  new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
    const socket: Socket = connect(svc.port, "127.0.0.1")
    let text = ""
    let sent = 0
    socket.on("connect", () => {
      socket.write(head)
      socket.write(first)
      sent = typeof first === "string" ? Buffer.byteLength(first) : first.byteLength
    })
    socket.on("data", (d) => {
      text += d.toString("utf8")
      const split = text.indexOf("\r\n\r\n")
      if (split === -1) return
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, split))?.[1] ?? -1)
      if (text.length - split - 4 < length) return
      socket.destroy()
      resolve({ status: Number(text.split(" ")[1]), body: text.slice(split + 4), sent })
    })
    socket.on("error", reject)
    setTimeout(() => {
      socket.destroy()
      reject(new Error("no answer while the body was held back"))
    }, 10_000)
  })

const headFor = (extra: string) =>
  `POST /v1/alerts/rules HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\n${extra}\r\n`

describe("the service's bound: 413 before the body is read whole", () => {
  test("a declared Content-Length over 1 MiB: answered with 10 of its 2 MiB sent", async () => {
    const answer = await holdBack(headFor(`content-length: ${2 * MAX_BODY_BYTES}\r\n`), "{\"name\":\"x")
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body).error.code).toBe("payload_too_large")
  })

  test("a chunked body: answered once 1 MiB has passed, the rest and the last chunk held back", async () => {
    const chunk = "x".repeat(64 * 1024)
    let chunks = ""
    for (let sent = 0; sent <= MAX_BODY_BYTES; sent += chunk.length) chunks += `${chunk.length.toString(16)}\r\n${chunk}\r\n`
    const answer = await holdBack(headFor("transfer-encoding: chunked\r\n"), chunks)
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body).error.code).toBe("payload_too_large")
    expect(answer.sent).toBeLessThan(2 * MAX_BODY_BYTES)
  })

  test("1 MiB exactly is read and handed to the route (here: a schema's 400, not 413)", async () => {
    const body = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES - 20) })
    const padded = body + " ".repeat(MAX_BODY_BYTES - Buffer.byteLength(body))
    const res = await svc.call("/v1/alerts/rules", { method: "POST", key, headers: { "content-type": "application/json" }, body: padded })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.code).toBe("invalid_request")
  })
})

describe("BodyRead", () => {
  const request = (bytes: string) =>
    new BodyRead(HttpServerRequest.fromWeb(new Request("http://127.0.0.1/x?a=1", { method: "POST", headers: { "x-a": "1" } })), new TextEncoder().encode(bytes))

  test("answers every reader from the bytes read, the rest from the request it stands for", async () => {
    const r = request("{\"a\":[1,2]}")
    expect(await Effect.runPromise(r.json)).toEqual({ a: [1, 2] })
    expect(await Effect.runPromise(r.text)).toBe("{\"a\":[1,2]}")
    expect(new TextDecoder().decode(await Effect.runPromise(r.arrayBuffer))).toBe("{\"a\":[1,2]}")
    expect([r.method, r.url, r.headers["x-a"]]).toEqual(["POST", "/x?a=1", "1"])
    const moved = r.modify({ url: "/y" })
    expect([moved.url, await Effect.runPromise(moved.text)]).toEqual(["/y", "{\"a\":[1,2]}"])
    expect(await Effect.runPromise(Effect.map(request("a=1&b=2").urlParamsBody, (p) => p.length))).toBe(2)
  })

  test("json: 64 levels parse, 65 are refused before JSON.parse, as is text that is not JSON", async () => {
    const nested = (n: number) => "[".repeat(n) + "]".repeat(n)
    expect(await Effect.runPromise(Effect.either(request(nested(MAX_JSON_DEPTH)).json))).toMatchObject({ _tag: "Right" })
    for (const [text, message] of [[nested(MAX_JSON_DEPTH + 1), "deeper than 64"], [nested(100_000), "deeper than 64"], ["{not json", "not valid JSON"]]) {
      const e = await Effect.runPromise(Effect.flip(request(text).json))
      expect(e._tag).toBe("RequestError")
      expect(String((e.cause as Error).message)).toContain(message)
    }
  })
})
