/**
 * Content decoding (RFC 9110 8.4: gzip, deflate, br) within the body cap. node:zlib is loaded at
 * the first encoded body (`require` keeps this synchronous; the module cache keeps it): its
 * evaluation cost every start-up ~1 ms (docs/operating.md, "The binary").
 */
type Zlib = typeof import("node:zlib")

export const decodeBody = (encoding: string | undefined, raw: Buffer, cap: number): { body: Buffer; truncated: boolean } => {
  const enc = (encoding ?? "").trim().toLowerCase()
  if (enc !== "gzip" && enc !== "x-gzip" && enc !== "deflate" && enc !== "br") return { body: raw, truncated: false }
  const zlib: Zlib = require("node:zlib")
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
    if ((e instanceof Error && "code" in e && e.code === "ERR_BUFFER_TOO_LARGE") || /maxOutputLength|too large/i.test(String(e))) {
      return { body: Buffer.alloc(0), truncated: true }
    }
    // Undecodable: hand back the raw bytes, which is what a browser would choke on too.
    return { body: raw, truncated: false }
  }
  return { body: raw, truncated: false }
}
