/** Content decoding (RFC 9110 8.4: gzip, deflate, br) within the body cap. */
import * as zlib from "node:zlib"

export const decodeBody = (encoding: string | undefined, raw: Buffer, cap: number): { body: Buffer; truncated: boolean } => {
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
