/** The wire client's pure steps: head parsing, body framing, chunked decoding and the body cap. */
import { describe, expect, test } from "bun:test"
import * as net from "node:net"
import { framingOf, makeBodyReader } from "../../src/adapters/probe/http1/body"
import { headerRecord, parseHead } from "../../src/adapters/probe/http1/head"
import { exchange } from "../../src/adapters/probe/wire"

describe("parseHead", () => {
  const table: Array<[string, string, string]> = [
    ["incomplete", "HTTP/1.1 200 OK\r\nA: b\r\n", "incomplete"],
    ["not HTTP", "SSH-2.0-OpenSSH\r\n\r\n", "malformed:not an HTTP response"],
    ["plain", "HTTP/1.1 404 Not Found\r\nX: 1\r\n\r\nbody", "head:1.1 404 Not Found X=1 rest=body"],
    ["interim responses skipped", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.0 200 OK\r\n\r\n", "head:1.0 200 OK  rest="],
    ["101 is final", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n", "head:1.1 101 Switching Protocols Upgrade=x rest="],
    ["no reason phrase", "HTTP/2 204\r\n\r\n", "head:2 204   rest="],
    ["too many headers", `HTTP/1.1 200 OK\r\n${"A: b\r\n".repeat(257)}\r\n`, "malformed:too many response headers"]
  ]
  test.each(table)("%s", (_, raw, expected) => {
    const r = parseHead(Buffer.from(raw, "latin1"))
    const got = r.kind === "incomplete" ? "incomplete" : r.kind === "malformed" ? `malformed:${r.message}` :
      `head:${r.httpVersion} ${r.status} ${r.statusText} ${r.rawHeaders.map(([k, v]) => `${k}=${v}`).join(",")} rest=${r.rest.toString("latin1")}`
    expect(got).toBe(expected)
  })

  test("an endless head is refused beyond 64 KiB; interim responses are cut off while waiting", () => {
    expect(parseHead(Buffer.alloc(64 * 1024 + 1, 65)).kind).toBe("malformed")
    const r = parseHead(Buffer.from("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200"))
    expect(r.kind === "incomplete" && r.head.toString()).toBe("HTTP/1.1 200")
  })

  test("repeated fields are joined, set-cookie kept apart", () => {
    expect(headerRecord([["Vary", "a"], ["vary", "b"], ["Set-Cookie", "x=1"]])).toEqual({ vary: "a, b" })
  })
})

describe("framingOf", () => {
  const table: Array<[string, string, number, Record<string, string>, string]> = [
    ["HEAD", "HEAD", 200, { "content-length": "10" }, "none"],
    ["204", "GET", 204, {}, "none"],
    ["304", "GET", 304, {}, "none"],
    ["skipped redirect", "GET", 301, { "content-length": "10" }, "none"],
    ["chunked wins over length", "GET", 200, { "transfer-encoding": "gzip, chunked", "content-length": "10" }, "chunked"],
    ["length", "GET", 200, { "content-length": "10, 10" }, "length:10"],
    ["bad length reads to close", "GET", 200, { "content-length": "-1" }, "close"],
    ["no framing reads to close", "GET", 200, {}, "close"]
  ]
  test.each(table)("%s", (_, method, status, headers, expected) => {
    const f = framingOf(method, status, headers, new Set([301]))
    expect(f.kind === "length" ? `length:${f.length}` : f.kind).toBe(expected)
  })
})

describe("body reader", () => {
  const run = (framing: Parameters<typeof makeBodyReader>[0], cap: number, parts: Array<string>, keep = true) => {
    let finished = false
    let failed = null as string | null
    const r = makeBodyReader(framing, cap, keep, { finish: () => { finished = true }, fail: (e) => { failed = e.message }, settled: () => finished || failed !== null })
    for (const p of parts) if (!finished && failed === null) r.push(Buffer.from(p))
    if (!finished && failed === null) r.ended()
    const c = r.collected()
    return { body: c.raw.toString(), bytes: c.bodyBytes, truncated: c.truncated, finished, failed }
  }
  test("chunked split anywhere, extensions ignored", () => {
    expect(run({ kind: "chunked" }, 100, ["5;x=1\r\nhel", "lo\r\n6", "\r\n world\r\n0\r\n\r\n"])).toEqual({ body: "hello world", bytes: 11, truncated: false, finished: true, failed: null })
  })
  test("malformed chunk size fails", () => {
    expect(run({ kind: "chunked" }, 100, ["zz\r\n"]).failed).toBe("malformed chunk size")
    expect(run({ kind: "chunked" }, 100, ["1".repeat(1025)]).failed).toBe("malformed chunk size line")
  })
  test("length: extra bytes ignored, short body truncated at the end", () => {
    expect(run({ kind: "length", length: 3 }, 100, ["abcdef"])).toMatchObject({ body: "abc", truncated: false, finished: true })
    expect(run({ kind: "length", length: 10 }, 100, ["abc"])).toMatchObject({ body: "abc", truncated: true, finished: false })
  })
  test("the cap stops an endless body; counting only keeps nothing", () => {
    expect(run({ kind: "close" }, 4, ["ab", "cdef", "gh"])).toMatchObject({ body: "abcd", bytes: 6, truncated: true, finished: true })
    expect(run({ kind: "close" }, 4, ["ab", "cdef"], false)).toMatchObject({ body: "", bytes: 4, truncated: true, finished: true })
  })
})

describe("a chunk's closing CRLF split across reads", () => {
  test("pure reader: the CRLF completes on the next read", () => {
    const parts = ["5\r\nhello\r", "\n6\r\n world\r\n0\r\n\r\n"]
    let finished = false
    const r = makeBodyReader({ kind: "chunked" }, 100, true, { finish: () => { finished = true }, fail: () => {}, settled: () => finished })
    for (const p of parts) r.push(Buffer.from(p))
    expect(r.collected().raw.toString()).toBe("hello world")
    expect(finished).toBe(true)
  })

  test("real socket: a server that writes the CR and the LF in two segments", async () => {
    const server = net.createServer((c) => {
      c.once("data", () => {
        c.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r")
        setTimeout(() => c.end("\n0\r\n\r\n"), 50)
      })
    })
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
    try {
      const port = (server.address() as net.AddressInfo).port
      const res = await exchange({ address: "127.0.0.1", port, host: "127.0.0.1", https: false, method: "GET", path: "/", maxBodyBytes: 1000, decompress: false })
      expect(res.body.toString()).toBe("hello")
    } finally {
      server.close()
    }
  })
})
