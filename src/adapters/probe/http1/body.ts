/**
 * Reading the body by its framing (RFC 9112 6.3): none, Content-Length, chunked, or until the
 * connection closes; kept (or only counted) up to the cap, after which reading stops.
 */
import { WireError } from "./types"

export type Framing =
  | { readonly kind: "none" }
  | { readonly kind: "length"; readonly length: number }
  | { readonly kind: "chunked" }
  | { readonly kind: "close" }

/** HEAD, 204, 304 and the statuses the caller skips have no body to read; chunked wins over a length. */
export const framingOf = (
  method: string,
  status: number,
  headers: Readonly<Record<string, string>>,
  skipBodyOn: ReadonlySet<number> | undefined
): Framing => {
  if (method === "HEAD" || status === 204 || status === 304 || skipBodyOn?.has(status) === true) return { kind: "none" }
  if ((headers["transfer-encoding"] ?? "").toLowerCase().includes("chunked")) return { kind: "chunked" }
  const length = headers["content-length"]?.split(",")[0].trim()
  if (length !== undefined && /^\d+$/.test(length)) return { kind: "length", length: Number(length) }
  return { kind: "close" }
}

/** How the reader hands back control: the body is complete (or capped), or it is malformed. */
export interface BodySink {
  readonly finish: () => void
  readonly fail: (e: WireError) => void
  readonly settled: () => boolean
}

export const makeBodyReader = (framing: Framing, cap: number, keepBody: boolean, sink: BodySink) => {
  let remainingLength = framing.kind === "length" ? framing.length : 0
  const bodyChunks: Array<Buffer> = []
  let kept = 0
  let bodyBytes = 0
  let truncated = false
  let chunkBuf: Buffer = Buffer.alloc(0)
  let chunkLeft = -1 // -1: expecting a size line; -2: expecting the CRLF after a chunk
  let chunkedDone = false

  const keep = (b: Buffer) => {
    bodyBytes += b.length
    if (!keepBody) {
      if (bodyBytes > cap) {
        bodyBytes = cap
        truncated = true
        sink.finish()
      }
      return
    }
    if (kept < cap) {
      const room = cap - kept
      const part = b.length > room ? b.subarray(0, room) : b
      bodyChunks.push(Buffer.from(part))
      kept += part.length
      if (b.length > room) truncated = true
    } else {
      truncated = true
    }
    if (truncated) sink.finish() // the cap is reached: stop reading an endless body
  }

  const onChunked = (data: Buffer) => {
    chunkBuf = chunkBuf.length ? Buffer.concat([chunkBuf, data]) : data
    while (!sink.settled() && !chunkedDone) {
      if (chunkLeft === -2) {
        // The chunk's closing CRLF was split across reads: finish it before the next size line.
        if (chunkBuf.length < 2) return
        chunkBuf = chunkBuf.subarray(2)
        chunkLeft = -1
      }
      if (chunkLeft === -1) {
        const nl = chunkBuf.indexOf("\r\n")
        if (nl === -1) {
          if (chunkBuf.length > 1024) return sink.fail(new WireError("malformed_response", "malformed chunk size line"))
          return
        }
        const line = chunkBuf.subarray(0, nl).toString("latin1").split(";")[0].trim()
        if (!/^[0-9a-fA-F]{1,8}$/.test(line)) return sink.fail(new WireError("malformed_response", "malformed chunk size"))
        chunkLeft = parseInt(line, 16)
        chunkBuf = chunkBuf.subarray(nl + 2)
        if (chunkLeft === 0) {
          chunkedDone = true
          return sink.finish()
        }
      }
      if (chunkBuf.length === 0) return
      const take = Math.min(chunkLeft, chunkBuf.length)
      keep(chunkBuf.subarray(0, take))
      chunkBuf = chunkBuf.subarray(take)
      chunkLeft -= take
      if (chunkLeft === 0) chunkLeft = -2 // the CRLF that closes the chunk comes next
    }
  }

  return {
    /** Bytes of body as they arrive. */
    push: (data: Buffer) => {
      if (framing.kind === "chunked") return onChunked(data)
      if (framing.kind === "length") {
        const take = data.length > remainingLength ? data.subarray(0, remainingLength) : data
        remainingLength -= take.length
        keep(take)
        if (remainingLength <= 0) sink.finish()
        return
      }
      keep(data)
    },
    /** The connection ended: a Content-Length body that is still short was cut off. */
    ended: () => {
      if (framing.kind === "length" && remainingLength > 0) truncated = true
    },
    collected: () => ({ raw: Buffer.concat(bodyChunks), bodyBytes, truncated })
  }
}
