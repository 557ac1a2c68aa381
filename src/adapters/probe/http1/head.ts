/**
 * The response head (RFC 9112 4-5): status line and header fields, capped in size and count.
 * Interim 1xx responses (100 Continue, 103 Early Hints) are skipped; 101 is final.
 */

const MAX_HEADER_BYTES = 64 * 1024
const MAX_HEADERS = 256

export type HeadParse =
  /** No blank line yet: keep `head` (interim responses already cut off) and wait for more. */
  | { readonly kind: "incomplete"; readonly head: Buffer }
  | { readonly kind: "malformed"; readonly message: string }
  | {
    readonly kind: "head"
    readonly httpVersion: string
    readonly status: number
    readonly statusText: string
    readonly rawHeaders: Array<[string, string]>
    /** Bytes after the head: the start of the body. */
    readonly rest: Buffer
  }

export const parseHead = (head: Buffer): HeadParse => {
  const end = head.indexOf("\r\n\r\n")
  if (end === -1) {
    if (head.length > MAX_HEADER_BYTES) return { kind: "malformed", message: "response headers exceed 64 KiB" }
    return { kind: "incomplete", head }
  }
  const text = head.subarray(0, end).toString("latin1")
  const rest = head.subarray(end + 4)
  const lines = text.split("\r\n")
  const m = /^HTTP\/(\d(?:\.\d)?) (\d{3})(?: (.*))?$/.exec(lines[0])
  if (!m) return { kind: "malformed", message: "not an HTTP response" }
  const code = Number(m[2])
  if (code >= 100 && code < 200 && code !== 101) return parseHead(rest)
  if (lines.length - 1 > MAX_HEADERS) return { kind: "malformed", message: "too many response headers" }
  const rawHeaders: Array<[string, string]> = []
  for (const line of lines.slice(1)) {
    const i = line.indexOf(":")
    if (i <= 0) continue
    rawHeaders.push([line.slice(0, i).trim(), line.slice(i + 1).trim()])
  }
  return { kind: "head", httpVersion: m[1], status: code, statusText: m[3] ?? "", rawHeaders, rest }
}

/** Lower-case names; repeated fields joined with ", " (RFC 9110 5.3); set-cookie left out (it cannot be joined). */
export const headerRecord = (rawHeaders: ReadonlyArray<readonly [string, string]>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of rawHeaders) {
    const key = k.toLowerCase()
    if (key === "set-cookie") continue
    out[key] = key in out ? `${out[key]}, ${v}` : v
  }
  return out
}
