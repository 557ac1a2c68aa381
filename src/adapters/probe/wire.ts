/**
 * A small HTTP/1.1 client over raw sockets, built for hostile targets: it connects to an address
 * the guard vetted (SNI and Host carry the name), measures each phase like curl does, caps
 * headers and body, decodes chunked and compressed bodies within the cap. The deadline is the
 * caller's Effect timeout (HttpProbe), which aborts `signal`: no timer lives here, so TestClock
 * drives every wait.
 */
import * as net from "node:net"
import * as tls from "node:tls"
import * as zlib from "node:zlib"

export interface WireRequest {
  readonly address: string
  readonly port: number
  readonly host: string
  readonly https: boolean
  readonly method: string
  readonly path: string
  readonly headers?: ReadonlyArray<readonly [string, string]>
  /** Bytes of body kept in memory (decoded); reading stops beyond it. */
  readonly maxBodyBytes: number
  /** Ask for and decode gzip/deflate/br. */
  readonly decompress: boolean
  /** false: count body bytes up to the cap without keeping them (size measurement only). */
  readonly keepBody?: boolean
  /** Statuses whose body is not read at all (redirects being followed): headers, then hang up. */
  readonly skipBodyOn?: ReadonlySet<number>
  readonly ca?: ReadonlyArray<string>
  /** Filled in as the exchange goes, so a caller that gives up (a timeout) knows how far it got. */
  readonly progress?: WireProgress
}

/** Milliseconds from the start of an exchange to the TCP connection, and the TLS handshake's own time. */
export interface WireProgress {
  connectMs: number | null
  tlsMs: number | null
}

export interface TlsOutcome {
  readonly authorized: boolean
  readonly error: string | null
  readonly protocol: string | null
  readonly cipher: string | null
  readonly alpn: string | null
  readonly peerCertificate: tls.DetailedPeerCertificate | null
}

export interface WireResponse {
  readonly status: number
  readonly statusText: string
  readonly httpVersion: string
  /** Raw header lines in order. */
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>
  /** Lower-case names; repeated headers joined with ", " (set-cookie kept apart in setCookies). */
  readonly headers: Readonly<Record<string, string>>
  readonly setCookies: ReadonlyArray<string>
  /** Body as received after transfer decoding (and content decoding when asked), capped. */
  readonly body: Buffer
  /** Bytes of body read off the wire (after de-chunking, before content decoding). */
  readonly bodyBytes: number
  readonly truncated: boolean
  readonly tls: TlsOutcome | null
  readonly timings: {
    readonly connectMs: number
    readonly tlsMs: number | null
    readonly ttfbMs: number
    readonly totalMs: number
  }
}

export class WireError extends Error {
  constructor(readonly kind: "timeout" | "fetch_failed" | "malformed_response", message: string) {
    super(message)
  }
}

const MAX_HEADER_BYTES = 64 * 1024
const MAX_HEADERS = 256

const userAgent = "domain-intel/0.1 (+https://github.com/domain-intel)"

export const buildRequest = (req: WireRequest): string => {
  const hostHeader = (net.isIPv6(req.host) ? `[${req.host}]` : req.host) +
    ((req.https && req.port === 443) || (!req.https && req.port === 80) ? "" : `:${req.port}`)
  const lines = [`${req.method} ${req.path} HTTP/1.1`, `Host: ${hostHeader}`]
  const given = new Set((req.headers ?? []).map(([k]) => k.toLowerCase()))
  if (!given.has("user-agent")) lines.push(`User-Agent: ${userAgent}`)
  if (!given.has("accept")) lines.push("Accept: */*")
  if (!given.has("accept-encoding")) lines.push(`Accept-Encoding: ${req.decompress ? "gzip, deflate, br" : "identity"}`)
  for (const [k, v] of req.headers ?? []) {
    if (/[\r\n]/.test(k) || /[\r\n]/.test(v)) continue
    lines.push(`${k}: ${v}`)
  }
  lines.push("Connection: close", "", "")
  return lines.join("\r\n")
}

const decodeBody = (encoding: string | undefined, raw: Buffer, cap: number): { body: Buffer; truncated: boolean } => {
  const enc = (encoding ?? "").trim().toLowerCase()
  const opts = { maxOutputLength: cap, finishFlush: zlib.constants.Z_SYNC_FLUSH } as const
  try {
    if (enc === "gzip" || enc === "x-gzip") return { body: zlib.gunzipSync(raw, opts), truncated: false }
    if (enc === "deflate") {
      try {
        return { body: zlib.inflateSync(raw, opts), truncated: false }
      } catch {
        return { body: zlib.inflateRawSync(raw, opts), truncated: false }
      }
    }
    if (enc === "br") return { body: zlib.brotliDecompressSync(raw, { maxOutputLength: cap }), truncated: false }
  } catch (e) {
    if ((e as any)?.code === "ERR_BUFFER_TOO_LARGE" || /maxOutputLength|too large/i.test(String(e))) {
      return { body: Buffer.alloc(0), truncated: true }
    }
    // Undecodable: hand back the raw bytes, which is what a browser would choke on too.
    return { body: raw, truncated: false }
  }
  return { body: raw, truncated: false }
}

const tlsReasons: Record<string, string> = {
  ERR_TLS_CERT_ALTNAME_INVALID: "certificate is not valid for HOST",
  DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed certificate",
  SELF_SIGNED_CERT_IN_CHAIN: "self-signed certificate in the chain",
  CERT_HAS_EXPIRED: "certificate has expired",
  CERT_NOT_YET_VALID: "certificate is not yet valid",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "unable to verify the certificate: issuer unknown",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "unable to verify the certificate: issuer unknown",
  UNABLE_TO_GET_ISSUER_CERT: "unable to verify the certificate: issuer unknown",
  CERT_REVOKED: "certificate revoked"
}

/** A readable reason with the OpenSSL/Node code kept in parentheses. */
export const describeTlsError = (code: string, host: string): string => {
  if (code === "") return "certificate not trusted"
  const reason = tlsReasons[code]
  return reason ? `${reason.replace("HOST", host)} (${code})` : code
}

/** Performs one request/response exchange; never follows redirects. */
export const exchange = (req: WireRequest, signal?: AbortSignal): Promise<WireResponse> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now()
    let connectMs = 0
    let tlsMs: number | null = null
    let ttfbMs = 0
    let settled = false
    let socket: net.Socket
    let tlsOutcome: TlsOutcome | null = null

    const fail = (err: WireError) => {
      if (settled) return
      settled = true
      socket?.destroy()
      reject(err)
    }
    signal?.addEventListener("abort", () => fail(new WireError("timeout", "aborted")))

    // Parser state
    let head: Buffer = Buffer.alloc(0)
    let headerDone = false
    let status = 0
    let statusText = ""
    let httpVersion = "1.1"
    const rawHeaders: Array<[string, string]> = []
    let mode: "none" | "length" | "chunked" | "close" = "close"
    let remainingLength = 0
    const bodyChunks: Array<Buffer> = []
    let kept = 0
    let bodyBytes = 0
    let truncated = false
    // chunked state
    let chunkBuf: Buffer = Buffer.alloc(0)
    let chunkLeft = -1 // -1: expecting size line
    let chunkedDone = false

    const headers = (): Record<string, string> => {
      const out: Record<string, string> = {}
      for (const [k, v] of rawHeaders) {
        const key = k.toLowerCase()
        if (key === "set-cookie") continue
        out[key] = key in out ? `${out[key]}, ${v}` : v
      }
      return out
    }

    const finish = () => {
      if (settled) return
      settled = true
      socket.destroy()
      const h = headers()
      const raw = Buffer.concat(bodyChunks)
      const decoded = req.decompress ? decodeBody(h["content-encoding"], raw, req.maxBodyBytes) : { body: raw, truncated: false }
      resolve({
        status,
        statusText,
        httpVersion,
        rawHeaders,
        headers: h,
        setCookies: rawHeaders.filter(([k]) => k.toLowerCase() === "set-cookie").map(([, v]) => v),
        body: decoded.body,
        bodyBytes,
        truncated: truncated || decoded.truncated,
        tls: tlsOutcome,
        timings: { connectMs, tlsMs, ttfbMs, totalMs: performance.now() - t0 }
      })
    }

    const keep = (b: Buffer) => {
      bodyBytes += b.length
      if (req.keepBody === false) {
        if (bodyBytes > req.maxBodyBytes) {
          bodyBytes = req.maxBodyBytes
          truncated = true
          finish()
        }
        return
      }
      if (kept < req.maxBodyBytes) {
        const room = req.maxBodyBytes - kept
        const part = b.length > room ? b.subarray(0, room) : b
        bodyChunks.push(Buffer.from(part))
        kept += part.length
        if (b.length > room) truncated = true
      } else {
        truncated = true
      }
      if (truncated) finish() // the cap is reached: stop reading an endless body
    }

    const onChunked = (data: Buffer) => {
      chunkBuf = chunkBuf.length ? Buffer.concat([chunkBuf, data]) : data
      while (!settled && !chunkedDone) {
        if (chunkLeft === -1) {
          const nl = chunkBuf.indexOf("\r\n")
          if (nl === -1) {
            if (chunkBuf.length > 1024) return fail(new WireError("malformed_response", "malformed chunk size line"))
            return
          }
          const line = chunkBuf.subarray(0, nl).toString("latin1").split(";")[0].trim()
          if (!/^[0-9a-fA-F]{1,8}$/.test(line)) return fail(new WireError("malformed_response", "malformed chunk size"))
          chunkLeft = parseInt(line, 16)
          chunkBuf = chunkBuf.subarray(nl + 2)
          if (chunkLeft === 0) {
            chunkedDone = true
            return finish()
          }
        }
        if (chunkBuf.length === 0) return
        const take = Math.min(chunkLeft, chunkBuf.length)
        keep(chunkBuf.subarray(0, take))
        chunkBuf = chunkBuf.subarray(take)
        chunkLeft -= take
        if (chunkLeft === 0) {
          if (chunkBuf.length < 2) {
            // wait for CRLF
            chunkLeft = -2
          } else {
            chunkBuf = chunkBuf.subarray(2)
            chunkLeft = -1
          }
        }
        if (chunkLeft === -2) {
          if (chunkBuf.length < 2) return
          chunkBuf = chunkBuf.subarray(2)
          chunkLeft = -1
        }
      }
    }

    const onBody = (data: Buffer) => {
      if (mode === "chunked") return onChunked(data)
      if (mode === "length") {
        const take = data.length > remainingLength ? data.subarray(0, remainingLength) : data
        remainingLength -= take.length
        keep(take)
        if (remainingLength <= 0) finish()
        return
      }
      keep(data)
    }

    const parseHead = (): boolean => {
      const end = head.indexOf("\r\n\r\n")
      if (end === -1) {
        if (head.length > MAX_HEADER_BYTES) fail(new WireError("malformed_response", "response headers exceed 64 KiB"))
        return false
      }
      const text = head.subarray(0, end).toString("latin1")
      const rest = head.subarray(end + 4)
      const lines = text.split("\r\n")
      const m = /^HTTP\/(\d(?:\.\d)?) (\d{3})(?: (.*))?$/.exec(lines[0])
      if (!m) {
        fail(new WireError("malformed_response", "not an HTTP response"))
        return false
      }
      const code = Number(m[2])
      if (code >= 100 && code < 200 && code !== 101) {
        // Interim response (100 Continue, 103 Early Hints): skip it, parse what follows.
        head = rest
        return parseHead()
      }
      httpVersion = m[1]
      status = code
      statusText = m[3] ?? ""
      if (lines.length - 1 > MAX_HEADERS) {
        fail(new WireError("malformed_response", "too many response headers"))
        return false
      }
      for (const line of lines.slice(1)) {
        const i = line.indexOf(":")
        if (i <= 0) continue
        rawHeaders.push([line.slice(0, i).trim(), line.slice(i + 1).trim()])
      }
      headerDone = true
      ttfbMs = performance.now() - t0
      const h = headers()
      const noBody = req.method === "HEAD" || status === 204 || status === 304 || req.skipBodyOn?.has(status) === true
      if (noBody) {
        mode = "none"
        finish()
        return true
      }
      if ((h["transfer-encoding"] ?? "").toLowerCase().includes("chunked")) mode = "chunked"
      else if (h["content-length"] !== undefined && /^\d+$/.test(h["content-length"].split(",")[0].trim())) {
        mode = "length"
        remainingLength = Number(h["content-length"].split(",")[0].trim())
        if (remainingLength === 0) {
          finish()
          return true
        }
      } else mode = "close"
      if (rest.length > 0) onBody(rest)
      return true
    }

    const onData = (data: Buffer) => {
      if (settled) return
      if (!headerDone) {
        head = head.length ? Buffer.concat([head, data]) : data
        parseHead()
        return
      }
      onBody(data)
    }

    const onEnd = () => {
      if (settled) return
      if (!headerDone) return fail(new WireError("fetch_failed", "connection closed before a response"))
      if (mode === "length" && remainingLength > 0) truncated = true
      finish()
    }

    const send = () => socket.write(buildRequest(req))

    if (req.https) {
      socket = tls.connect({
        host: req.address,
        port: req.port,
        servername: net.isIP(req.host) ? undefined : req.host,
        rejectUnauthorized: false,
        ca: req.ca ? [...tls.rootCertificates, ...req.ca] : undefined,
        ALPNProtocols: ["http/1.1"]
      })
      socket.once("connect", () => {
        connectMs = performance.now() - t0
        if (req.progress) req.progress.connectMs = connectMs
      })
      socket.once("secureConnect", () => {
        const s = socket as tls.TLSSocket
        const now = performance.now() - t0
        if (connectMs === 0) connectMs = now
        tlsMs = now - connectMs
        if (req.progress) {
          req.progress.connectMs = connectMs
          req.progress.tlsMs = tlsMs
        }
        let error: string | null = s.authorized ? null : describeTlsError(String(s.authorizationError ?? ""), req.host)
        // Hostname check (rejectUnauthorized is off so that the handshake can be reported).
        const cert = s.getPeerCertificate(true)
        if (s.authorized && cert && Object.keys(cert).length > 0) {
          const mismatch = tls.checkServerIdentity(req.host, cert)
          if (mismatch) error = mismatch.message
        }
        const cipher = s.getCipher?.()
        tlsOutcome = {
          authorized: error === null,
          error,
          protocol: s.getProtocol?.() ?? null,
          cipher: cipher?.name ?? null,
          alpn: (s.alpnProtocol as string | false) || null,
          peerCertificate: cert && Object.keys(cert).length > 0 ? cert : null
        }
        send()
      })
    } else {
      socket = net.connect({ host: req.address, port: req.port })
      socket.once("connect", () => {
        connectMs = performance.now() - t0
        if (req.progress) req.progress.connectMs = connectMs
        send()
      })
    }
    socket.on("data", onData)
    socket.on("end", onEnd)
    socket.on("close", onEnd)
    socket.on("error", (e: NodeJS.ErrnoException) => {
      if (headerDone && (e.code === "ECONNRESET" || e.code === "EPIPE")) return onEnd()
      fail(new WireError("fetch_failed", e.code ? `${e.code}: ${e.message}` : e.message))
    })
  })
