/**
 * The few facts the CT merge needs from a certificate's DER (RFC 5280 §4.1), read by walking its
 * TLVs: the serial number, the subject's common name, whether it is a precertificate (the
 * poison extension of RFC 6962 §3.1) and how many SCTs it embeds (RFC 6962 §3.3). A Cert Spotter
 * answer carries one certificate per issuance, hundreds per domain; a full X.509 parser costs
 * about a millisecond each, this walk a few microseconds. Pure; malformed input gives undefined.
 */
import { countSctList } from "./entries"

interface Tlv {
  readonly tag: number
  /** Offset of the contents. */
  readonly start: number
  /** Offset just past the contents. */
  readonly end: number
}

/** The TLV at `at` within `limit`, or undefined (single-byte tags, definite lengths: DER). */
const tlv = (b: Uint8Array, at: number, limit: number): Tlv | undefined => {
  if (at + 2 > limit) return undefined
  const tag = b[at]
  let len = b[at + 1]
  let start = at + 2
  if (len & 0x80) {
    const n = len & 0x7f
    if (n === 0 || n > 4 || start + n > limit) return undefined
    len = 0
    for (let i = 0; i < n; i++) len = len * 256 + b[start + i]
    start += n
  }
  const end = start + len
  return end > limit ? undefined : { tag, start, end }
}

/** The TLVs directly inside `outer`. */
const children = (b: Uint8Array, outer: Tlv): Array<Tlv> | undefined => {
  const out: Array<Tlv> = []
  for (let at = outer.start; at < outer.end;) {
    const t = tlv(b, at, outer.end)
    if (t === undefined) return undefined
    out.push(t)
    at = t.end
  }
  return out
}

const SEQUENCE = 0x30
const SET = 0x31
const INTEGER = 0x02
const OID = 0x06
const OCTET_STRING = 0x04
const EXTENSIONS = 0xa3
const VERSION = 0xa0

const OID_CN = [0x55, 0x04, 0x03]
const OID_SCT_LIST = [0x2b, 0x06, 0x01, 0x04, 0x01, 0xd6, 0x79, 0x02, 0x04, 0x02]
const OID_PRECERT_POISON = [0x2b, 0x06, 0x01, 0x04, 0x01, 0xd6, 0x79, 0x02, 0x04, 0x03]

const isOid = (b: Uint8Array, t: Tlv, oid: ReadonlyArray<number>): boolean =>
  t.tag === OID && t.end - t.start === oid.length && oid.every((x, i) => b[t.start + i] === x)

const hex = (b: Uint8Array, t: Tlv): string => Buffer.from(b.subarray(t.start, t.end)).toString("hex")

/** A directory string (UTF8String, PrintableString, IA5String, T61String, BMPString) as text. */
const text = (b: Uint8Array, t: Tlv): string | null => {
  const bytes = Buffer.from(b.subarray(t.start, t.end))
  switch (t.tag) {
    case 0x0c: return bytes.toString("utf8")
    case 0x13: case 0x16: case 0x14: return bytes.toString("latin1")
    case 0x1e: return bytes.length % 2 === 0 ? bytes.swap16().toString("utf16le") : null
    default: return null
  }
}

/** The last common name of an X.501 Name (the most specific one, as certificates order them). */
const commonName = (b: Uint8Array, name: Tlv): string | null => {
  let cn: string | null = null
  for (const rdn of children(b, name) ?? []) {
    if (rdn.tag !== SET) continue
    for (const atv of children(b, rdn) ?? []) {
      const [type, value] = children(b, atv) ?? []
      if (type !== undefined && value !== undefined && isOid(b, type, OID_CN)) cn = text(b, value) ?? cn
    }
  }
  return cn
}

export interface DerFacts {
  /** Lower-case hex of the serial number's content octets (as crt.sh prints it). */
  readonly serial: string
  readonly commonName: string | null
  readonly precertificate: boolean
  /** SCTs in the embedded list; 0 without the extension; undefined when the list is malformed. */
  readonly sctCount: number | undefined
}

export const readDer = (der: Uint8Array): DerFacts | undefined => {
  const cert = tlv(der, 0, der.length)
  if (cert === undefined || cert.tag !== SEQUENCE) return undefined
  const tbs = tlv(der, cert.start, cert.end)
  if (tbs === undefined || tbs.tag !== SEQUENCE) return undefined
  const fields = children(der, tbs)
  if (fields === undefined) return undefined
  const rest = fields[0]?.tag === VERSION ? fields.slice(1) : fields
  // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, then optional fields.
  const [serial, , , , subject] = rest
  if (serial?.tag !== INTEGER || subject?.tag !== SEQUENCE) return undefined
  let precertificate = false
  let sctCount: number | undefined = 0
  const extensions = rest.find((f) => f.tag === EXTENSIONS)
  if (extensions !== undefined) {
    const list = tlv(der, extensions.start, extensions.end)
    for (const ext of (list && children(der, list)) ?? []) {
      const parts = children(der, ext)
      const id = parts?.[0]
      const value = parts?.[parts.length - 1]
      if (id === undefined || value === undefined || value.tag !== OCTET_STRING) continue
      if (isOid(der, id, OID_PRECERT_POISON)) precertificate = true
      if (isOid(der, id, OID_SCT_LIST)) {
        // extnValue holds an OCTET STRING holding the TLS-encoded list.
        const inner = tlv(der, value.start, value.end)
        sctCount = inner !== undefined && inner.tag === OCTET_STRING ? countSctList(der.subarray(inner.start, inner.end)) : undefined
      }
    }
  }
  return { serial: hex(der, serial), commonName: commonName(der, subject), precertificate, sctCount }
}

/** `readDer` over base64 text (Cert Spotter's `cert_der`). */
export const readDerBase64 = (b64: string): DerFacts | undefined => {
  const bytes = Buffer.from(b64, "base64")
  return bytes.length === 0 ? undefined : readDer(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length))
}
