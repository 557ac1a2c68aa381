/**
 * The server's first flight, pure: TLS records (RFC 8446 §5.1) in, facts out. The ServerHello or
 * HelloRetryRequest (RFC 8446 §4.1.3-4.1.4), an alert (§6), and below TLS 1.3 the plaintext rest of
 * the flight: Certificate, CertificateStatus (RFC 6066 §8), ServerKeyExchange (RFC 8422 §5.4,
 * RFC 5246 §7.4.3), ServerHelloDone.
 */
import { EXT } from "./clientHello"
import { suiteByCode } from "./suites"

/** SHA-256("HelloRetryRequest"): the random of a HelloRetryRequest (RFC 8446 §4.1.3). */
const HRR_RANDOM = "cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c"

export interface ServerHelloFacts {
  /** The negotiated version: supported_versions when present, else the legacy field. */
  readonly version: number
  readonly suite: number
  readonly compression: number
  readonly extensions: ReadonlyMap<number, Uint8Array>
  readonly helloRetry: boolean
  /** key_share: the group of the server's share, or the group a HelloRetryRequest asks for. */
  readonly selectedGroup: number | null
}

export interface HelloFlight {
  readonly kind: "hello"
  readonly hello: ServerHelloFacts
  /** DER certificates of a plaintext Certificate message (below TLS 1.3), leaf first. */
  readonly certificates: ReadonlyArray<Uint8Array> | null
  readonly ocspStapled: boolean
  /** ServerKeyExchange: the ECDHE named group, or the DHE prime size in bits. */
  readonly keyExchange: { readonly group: number | null; readonly dhBits: number | null } | null
  /** Nothing more of the flight can be read in the clear (ServerHelloDone, TLS 1.3, or a HelloRetryRequest). */
  readonly complete: boolean
}

export type Flight =
  | HelloFlight
  | { readonly kind: "alert"; readonly level: number; readonly description: number }
  | { readonly kind: "incomplete" }
  | { readonly kind: "not_tls"; readonly reason: string }

/** Alert descriptions (RFC 8446 §6, RFC 7507 §2) a probe meets. */
export const ALERTS: Record<number, string> = {
  0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 40: "handshake_failure", 42: "bad_certificate",
  47: "illegal_parameter", 50: "decode_error", 51: "decrypt_error", 70: "protocol_version", 71: "insufficient_security",
  80: "internal_error", 86: "inappropriate_fallback", 90: "user_canceled", 109: "missing_extension", 110: "unsupported_extension",
  112: "unrecognized_name", 120: "no_application_protocol"
}
export const alertName = (d: number) => ALERTS[d] ?? `alert ${d}`

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")
const u16 = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1]
const u24 = (b: Uint8Array, i: number) => (b[i] << 16) | (b[i + 1] << 8) | b[i + 2]

/** What a non-TLS answer looks like, for the error message. */
const describeForeign = (b: Uint8Array): string => {
  const text = Buffer.from(b.subarray(0, 48)).toString("latin1")
  if (/^HTTP\/\d/.test(text)) return "the port answered with HTTP, not TLS"
  if (/^\d{3}[ -]/.test(text)) return `the port answered with a text banner, not TLS: ${JSON.stringify(text.split(/\r?\n/)[0].slice(0, 40))}`
  if (/^(\* OK|\+OK|SSH-)/.test(text)) return `the port speaks another protocol, not TLS: ${JSON.stringify(text.split(/\r?\n/)[0].slice(0, 40))}`
  return `the port answered with bytes that are not TLS records (first bytes ${hex(b.subarray(0, 8))})`
}

const parseServerHello = (m: Uint8Array): ServerHelloFacts | null => {
  if (m.length < 38) return null
  const legacy = u16(m, 0)
  const helloRetry = hex(m.subarray(2, 34)) === HRR_RANDOM
  let i = 34
  const sidLen = m[i]
  i += 1 + sidLen
  if (i + 3 > m.length) return null
  const suite = u16(m, i)
  const compression = m[i + 2]
  i += 3
  const extensions = new Map<number, Uint8Array>()
  if (i + 2 <= m.length) {
    const end = Math.min(m.length, i + 2 + u16(m, i))
    i += 2
    while (i + 4 <= end) {
      const type = u16(m, i)
      const len = u16(m, i + 2)
      extensions.set(type, m.subarray(i + 4, Math.min(end, i + 4 + len)))
      i += 4 + len
    }
  }
  const sv = extensions.get(EXT.supported_versions)
  const ks = extensions.get(EXT.key_share)
  return {
    version: sv && sv.length >= 2 ? u16(sv, 0) : legacy,
    suite,
    compression,
    extensions,
    helloRetry,
    selectedGroup: ks && ks.length >= 2 ? u16(ks, 0) : null
  }
}

const parseCertificates = (m: Uint8Array): Array<Uint8Array> => {
  const out: Array<Uint8Array> = []
  const end = Math.min(m.length, 3 + u24(m, 0))
  let i = 3
  while (i + 3 <= end) {
    const len = u24(m, i)
    if (i + 3 + len > end) break
    out.push(m.slice(i + 3, i + 3 + len))
    i += 3 + len
  }
  return out
}

const parseKeyExchange = (suite: number, m: Uint8Array): HelloFlight["keyExchange"] => {
  const kx = suiteByCode(suite)?.kx ?? ""
  // ECParameters: curve_type named_curve (3) and the group (RFC 8422 §5.4).
  if (kx.startsWith("ECDH") && m.length >= 3 && m[0] === 3) return { group: u16(m, 1), dhBits: null }
  if (kx.startsWith("DH") && m.length >= 2) {
    const p = m.subarray(2, 2 + u16(m, 0))
    let lead = 0
    while (lead < p.length && p[lead] === 0) lead++
    const rest = p.subarray(lead)
    return { group: null, dhBits: rest.length === 0 ? 0 : (rest.length - 1) * 8 + (32 - Math.clz32(rest[0])) }
  }
  return null
}

/** Parses whatever of the flight has arrived; `incomplete` until a ServerHello or an alert is whole. */
export const parseFlight = (bytes: Uint8Array): Flight => {
  const handshake: Array<number> = []
  let i = 0
  let stop = false
  while (!stop && i + 5 <= bytes.length) {
    const type = bytes[i]
    const major = bytes[i + 1]
    const len = u16(bytes, i + 3)
    if (type < 20 || type > 24 || major !== 3 || len > 18432) {
      return i === 0 ? { kind: "not_tls", reason: describeForeign(bytes) } : { kind: "not_tls", reason: "the server sent a malformed TLS record" }
    }
    if (i + 5 + len > bytes.length) break
    const payload = bytes.subarray(i + 5, i + 5 + len)
    i += 5 + len
    if (type === 21 && handshake.length === 0 && payload.length >= 2) return { kind: "alert", level: payload[0], description: payload[1] }
    if (type === 22) for (const b of payload) handshake.push(b)
    else if (handshake.length > 0) stop = true
  }
  if (i === 0 && bytes.length >= 5 && bytes[0] !== 22 && bytes[0] !== 21) return { kind: "not_tls", reason: describeForeign(bytes) }
  if (bytes.length > 0 && bytes.length < 5 && (bytes[0] < 20 || bytes[0] > 24)) return { kind: "not_tls", reason: describeForeign(bytes) }
  const hs = new Uint8Array(handshake)
  let hello: ServerHelloFacts | null = null
  let certificates: Array<Uint8Array> | null = null
  let ocspStapled = false
  let keyExchange: HelloFlight["keyExchange"] = null
  let done = false
  let j = 0
  while (j + 4 <= hs.length) {
    const type = hs[j]
    const len = u24(hs, j + 1)
    if (j + 4 + len > hs.length) break
    const m = hs.subarray(j + 4, j + 4 + len)
    j += 4 + len
    if (hello === null) {
      if (type !== 2) return { kind: "not_tls", reason: `the server's first handshake message is type ${type}, not a ServerHello` }
      hello = parseServerHello(m)
      if (hello === null) return { kind: "not_tls", reason: "the server sent a malformed ServerHello" }
      if (hello.helloRetry || hello.version >= 0x0304) done = true
      continue
    }
    if (type === 11) certificates = parseCertificates(m)
    else if (type === 22) ocspStapled = m.length > 4 && m[0] === 1
    else if (type === 12) keyExchange = parseKeyExchange(hello.suite, m)
    else if (type === 14) done = true
  }
  if (hello === null) return { kind: "incomplete" }
  return { kind: "hello", hello, certificates, ocspStapled, keyExchange, complete: done }
}

/** Whether reading can stop: the ServerHello (or the whole plaintext flight) is in, or it never will be. */
export const enough = (bytes: Uint8Array, need: "hello" | "flight"): boolean => {
  const f = parseFlight(bytes)
  if (f.kind === "incomplete") return false
  if (f.kind === "hello") return need === "hello" || f.complete
  return true
}
