/**
 * A small HTTP/1.1 client over raw sockets, built for hostile targets: it connects to an address
 * the guard vetted (SNI and Host carry the name), measures each phase like curl does, caps
 * headers and body, decodes chunked and compressed bodies within the cap. The deadline is the
 * caller's Effect timeout (HttpProbe), which aborts `signal`: no timer lives here, so TestClock
 * drives every wait.
 */
import type * as net from "node:net"
import { type BodySink, framingOf, makeBodyReader } from "./http1/body"
import { connect, type Timing } from "./http1/connect"
import { decodeBody } from "./http1/decode"
import { headerRecord, parseHead } from "./http1/head"
import { buildRequest } from "./http1/request"
import { type TlsOutcome, WireError, type WireRequest, type WireResponse } from "./http1/types"

export { buildRequest } from "./http1/request"
export { describeTlsError } from "./http1/tls"
export { type TlsOutcome, WireError, type WireProgress, type WireRequest, type WireResponse } from "./http1/types"

/**
 * Performs one request/response exchange; never follows redirects. Steps: connect (http1/connect),
 * write the request (http1/request), read the head (http1/head), read the body by its framing
 * (http1/body), decode it (http1/decode); settles once, on the first of finish, failure or abort.
 */
export const exchange = (req: WireRequest, signal?: AbortSignal): Promise<WireResponse> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now()
    const timing: Timing = { connectMs: 0, tlsMs: null }
    let ttfbMs = 0
    let settled = false
    let socket: net.Socket | undefined
    let tlsOutcome: TlsOutcome | null = null
    let head: Buffer = Buffer.alloc(0)
    let response: { httpVersion: string; status: number; statusText: string; rawHeaders: Array<[string, string]> } | undefined
    let body: ReturnType<typeof makeBodyReader> | undefined

    const fail = (err: WireError) => {
      if (settled) return
      settled = true
      socket?.destroy()
      reject(err)
    }
    signal?.addEventListener("abort", () => fail(new WireError("timeout", "aborted")))

    const finish = () => {
      if (settled || !response) return
      settled = true
      socket?.destroy()
      const h = headerRecord(response.rawHeaders)
      const got = body ? body.collected() : { raw: Buffer.alloc(0), bodyBytes: 0, truncated: false }
      const decoded = req.decompress ? decodeBody(h["content-encoding"], got.raw, req.maxBodyBytes) : { body: got.raw, truncated: false }
      resolve({
        status: response.status,
        statusText: response.statusText,
        httpVersion: response.httpVersion,
        rawHeaders: response.rawHeaders,
        headers: h,
        setCookies: response.rawHeaders.filter(([k]) => k.toLowerCase() === "set-cookie").map(([, v]) => v),
        body: decoded.body,
        bodyBytes: got.bodyBytes,
        truncated: got.truncated || decoded.truncated,
        tls: tlsOutcome,
        timings: { connectMs: timing.connectMs, tlsMs: timing.tlsMs, ttfbMs, totalMs: performance.now() - t0 }
      })
    }
    const sink: BodySink = { finish, fail, settled: () => settled }

    const onHead = (data: Buffer) => {
      head = head.length ? Buffer.concat([head, data]) : data
      const parsed = parseHead(head)
      if (parsed.kind === "incomplete") {
        head = parsed.head
        return
      }
      if (parsed.kind === "malformed") return fail(new WireError("malformed_response", parsed.message))
      response = parsed
      ttfbMs = performance.now() - t0
      const framing = framingOf(req.method, parsed.status, headerRecord(parsed.rawHeaders), req.skipBodyOn)
      body = makeBodyReader(framing, req.maxBodyBytes, req.keepBody !== false, sink)
      if (framing.kind === "none" || (framing.kind === "length" && framing.length === 0)) return finish()
      if (parsed.rest.length > 0) body.push(parsed.rest)
    }

    const onData = (data: Buffer) => {
      if (settled) return
      if (!body) return onHead(data)
      body.push(data)
    }

    const onEnd = () => {
      if (settled) return
      if (!response) return fail(new WireError("fetch_failed", "connection closed before a response"))
      body?.ended()
      finish()
    }

    const s = connect(req, t0, timing, (outcome) => {
      tlsOutcome = outcome
      s.write(buildRequest(req))
    })
    socket = s
    s.on("data", onData)
    s.on("end", onEnd)
    s.on("close", onEnd)
    s.on("error", (e: NodeJS.ErrnoException) => {
      if (response && (e.code === "ECONNRESET" || e.code === "EPIPE")) return onEnd()
      fail(new WireError("fetch_failed", e.code ? `${e.code}: ${e.message}` : e.message))
    })
  })
