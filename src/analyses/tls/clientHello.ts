/**
 * ClientHello bytes for one probe (RFC 8446 §4.1.2; RFC 5246 §7.4.1.2 for TLS 1.0-1.2; RFC 6101
 * §5.6.1.2 for SSL 3.0, which carries no extensions). Pure but for the randomness of the hello
 * random and of the key shares.
 */
import { createECDH, generateKeyPairSync, randomBytes } from "node:crypto"
import { OFFERED_GROUPS } from "./groups"
import { EMPTY_RENEGOTIATION_INFO_SCSV, FALLBACK_SCSV, VERSION_CODE, type Version } from "./suites"

export const EXT = {
  server_name: 0,
  status_request: 5,
  supported_groups: 10,
  ec_point_formats: 11,
  signature_algorithms: 13,
  heartbeat: 15,
  alpn: 16,
  extended_master_secret: 23,
  session_ticket: 35,
  supported_versions: 43,
  psk_key_exchange_modes: 45,
  key_share: 51,
  renegotiation_info: 0xff01
} as const

/** ECDSA, EdDSA, RSA-PSS and PKCS#1 with SHA-2, then the SHA-1 and DSA schemes old servers need. */
const SIGNATURE_SCHEMES = [
  0x0403, 0x0503, 0x0603, 0x0807, 0x0808, 0x0804, 0x0805, 0x0806, 0x0809, 0x080a, 0x080b,
  0x0401, 0x0501, 0x0601, 0x0201, 0x0203, 0x0202, 0x0402, 0x0502, 0x0602, 0x0301, 0x0303
]

export interface KeyShare {
  readonly group: number
  readonly key: Uint8Array
}

export interface HelloSpec {
  readonly version: Version
  readonly suites: ReadonlyArray<number>
  /** SNI (RFC 6066 §3): a host name, never an IP literal. */
  readonly serverName?: string | null
  /** supported_groups; default every EC and FFDHE group. */
  readonly groups?: ReadonlyArray<number>
  /** TLS 1.3 key shares; empty asks the server to name its group in a HelloRetryRequest. */
  readonly keyShares?: ReadonlyArray<KeyShare>
  /** Adds TLS_FALLBACK_SCSV (RFC 7507): a downgraded retry. */
  readonly fallbackScsv?: boolean
  /** application_layer_protocol_negotiation (RFC 7301 §3.1): protocol ids, e.g. "h2". */
  readonly alpn?: ReadonlyArray<string>
}

const u8 = (n: number) => [n & 0xff]
const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff]
const u24 = (n: number) => [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
const vec16 = (b: ReadonlyArray<number> | Uint8Array) => [...u16(b.length), ...b]
const vec8 = (b: ReadonlyArray<number> | Uint8Array) => [...u8(b.length), ...b]
const ext = (type: number, body: ReadonlyArray<number> | Uint8Array) => [...u16(type), ...vec16(body)]
const list16 = (codes: ReadonlyArray<number>) => vec16(codes.flatMap(u16))

/** A real public key for `group` (x25519 or secp256r1), so that a strict server accepts the share. */
export const makeKeyShare = (group: 29 | 23): KeyShare => {
  if (group === 29) {
    const spki = generateKeyPairSync("x25519").publicKey.export({ format: "der", type: "spki" })
    return { group, key: new Uint8Array(spki.subarray(spki.length - 32)) }
  }
  const ecdh = createECDH("prime256v1")
  ecdh.generateKeys()
  return { group, key: new Uint8Array(ecdh.getPublicKey()) }
}

export const buildClientHello = (spec: HelloSpec, random: Uint8Array = randomBytes(32)): Uint8Array => {
  const tls13 = spec.version === "tls1_3"
  const suites = [...spec.suites]
  if (!tls13) suites.push(EMPTY_RENEGOTIATION_INFO_SCSV)
  if (spec.fallbackScsv) suites.push(FALLBACK_SCSV)
  const exts: Array<number> = []
  if (spec.version !== "ssl3") {
    if (spec.serverName) {
      const name = [...Buffer.from(spec.serverName, "ascii")]
      exts.push(...ext(EXT.server_name, vec16([0, ...vec16(name)])))
    }
    exts.push(...ext(EXT.supported_groups, list16(spec.groups ?? OFFERED_GROUPS)))
    exts.push(...ext(EXT.ec_point_formats, vec8([0])))
    // OCSP stapling request (RFC 6066 §8): empty responder id list and extensions.
    exts.push(...ext(EXT.status_request, [1, 0, 0, 0, 0]))
    // RFC 6520 §2: peer_allowed_to_send.
    exts.push(...ext(EXT.heartbeat, [1]))
    exts.push(...ext(EXT.extended_master_secret, []))
    exts.push(...ext(EXT.session_ticket, []))
    if (spec.version === "tls1_2" || tls13) exts.push(...ext(EXT.signature_algorithms, list16(SIGNATURE_SCHEMES)))
    if (spec.alpn && spec.alpn.length > 0) exts.push(...ext(EXT.alpn, vec16(spec.alpn.flatMap((p) => vec8([...Buffer.from(p, "ascii")])))))
    if (tls13) {
      exts.push(...ext(EXT.supported_versions, vec8(u16(VERSION_CODE.tls1_3))))
      exts.push(...ext(EXT.psk_key_exchange_modes, vec8([1])))
      const shares = (spec.keyShares ?? []).flatMap((s) => [...u16(s.group), ...vec16(s.key)])
      exts.push(...ext(EXT.key_share, vec16(shares)))
    }
  }
  const body = [
    // TLS 1.3 hellos say TLS 1.2 here and name 1.3 in supported_versions (RFC 8446 §4.1.2).
    ...u16(tls13 ? VERSION_CODE.tls1_2 : VERSION_CODE[spec.version]),
    ...random,
    // A 32-byte legacy session id in TLS 1.3 (middlebox compatibility mode, RFC 8446 §D.4).
    ...vec8(tls13 ? [...randomBytes(32)] : []),
    ...list16(suites),
    // DEFLATE (RFC 3749) offered before null below TLS 1.3, to see whether the server compresses (CRIME).
    ...vec8(tls13 ? [0] : [1, 0]),
    ...(exts.length > 0 ? vec16(exts) : [])
  ]
  const handshake = [1, ...u24(body.length), ...body]
  return new Uint8Array([22, ...u16(spec.version === "ssl3" ? 0x0300 : 0x0301), ...vec16(handshake)])
}
