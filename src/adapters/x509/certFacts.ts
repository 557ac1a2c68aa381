/**
 * Certificate facts from DER (pure): names, dates, key, signature algorithm and the embedded
 * SCT list (extension 1.3.6.1.4.1.11129.2.4.2, RFC 6962 §3.3) parsed with @peculiar/x509.
 */
import { X509Certificate } from "node:crypto"

/**
 * The x509 stack, evaluated on the first certificate rather than at start (its ~20 ms and ~5 MB;
 * docs/operating.md, "The binary"). `require` keeps `certFacts` synchronous; the bundle evaluates
 * the module at this call, once.
 */
const stack = (): typeof import("../pkix/peculiar") => require("../pkix/peculiar")

export const SCT_LIST_OID = "1.3.6.1.4.1.11129.2.4.2"

/** Reads a DER length at `i`; returns [length, headerBytes]. */
const derLength = (b: Uint8Array, i: number): [number, number] => {
  const first = b[i]
  if (first < 0x80) return [first, 1]
  const n = first & 0x7f
  if (n === 0 || n > 4) throw new Error("unsupported DER length")
  let len = 0
  for (let k = 1; k <= n; k++) len = len * 256 + b[i + k]
  return [len, 1 + n]
}

/**
 * Counts the SCTs in the extension value: an OCTET STRING holding the TLS-encoded
 * SignedCertificateTimestampList (u16 total length, then u16-length-prefixed SCTs).
 */
export const countScts = (extnValue: Uint8Array): number => {
  let list = extnValue
  if (list[0] === 0x04) {
    const [len, hdr] = derLength(list, 1)
    list = list.subarray(1 + hdr, 1 + hdr + len)
  }
  if (list.length < 2) throw new Error("SCT list too short")
  const total = (list[0] << 8) | list[1]
  if (total + 2 > list.length) throw new Error("SCT list length exceeds the extension")
  let i = 2
  let n = 0
  while (i < 2 + total) {
    if (i + 2 > list.length) throw new Error("truncated SCT")
    const len = (list[i] << 8) | list[i + 1]
    if (len === 0 || i + 2 + len > 2 + total) throw new Error("malformed SCT entry")
    i += 2 + len
    n++
  }
  return n
}

export interface CertFacts {
  readonly subject: string
  readonly issuer: string
  readonly serial_number: string
  readonly not_before: string
  readonly not_after: string
  readonly sans: ReadonlyArray<string>
  readonly key: { readonly type: string; readonly size: number | null; readonly curve: string | null }
  readonly signature_algorithm: string
  readonly embedded_sct_count: number
  readonly self_signed: boolean
  readonly fingerprint_sha256: string
}

const curveBits: Record<string, number> = { "P-256": 256, "P-384": 384, "P-521": 521, prime256v1: 256, secp384r1: 384, secp521r1: 521 }

export const certFacts = (der: Uint8Array): CertFacts => {
  const { x509 } = stack()
  const cert = new x509.X509Certificate(der)
  const node = new X509Certificate(der)
  const sanExt = cert.getExtension(x509.SubjectAlternativeNameExtension)
  const sans = sanExt ? sanExt.names.items.map((n) => (n.type === "dns" || n.type === "ip" ? n.value : `${n.type}:${n.value}`)) : []
  const sctExt = cert.getExtension(SCT_LIST_OID)
  let scts = 0
  if (sctExt) {
    try {
      scts = countScts(new Uint8Array(sctExt.value))
    } catch {
      scts = 0
    }
  }
  const keyType = node.publicKey.asymmetricKeyType ?? "unknown"
  const details = node.publicKey.asymmetricKeyDetails ?? {}
  const curve = (details as { namedCurve?: string }).namedCurve ?? null
  const size = (details as { modulusLength?: number }).modulusLength ??
    (curve ? curveBits[curve] ?? null : keyType === "ed25519" ? 256 : keyType === "ed448" ? 456 : null)
  const sig = cert.signatureAlgorithm as { name: string; hash?: { name: string } }
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    serial_number: cert.serialNumber,
    not_before: cert.notBefore.toISOString(),
    not_after: cert.notAfter.toISOString(),
    sans,
    key: { type: keyType.toUpperCase() === "EC" ? "EC" : keyType.toUpperCase(), size, curve },
    signature_algorithm: sig.hash ? `${sig.hash.name.replace("-", "")}-with-${sig.name === "ECDSA" ? "ECDSA" : sig.name.startsWith("RSA") ? "RSA" : sig.name}` : sig.name,
    embedded_sct_count: scts,
    self_signed: cert.subject === cert.issuer,
    fingerprint_sha256: node.fingerprint256.replace(/:/g, "").toLowerCase()
  }
}

/** Chrome's CT policy as docs/operations/ct-logs.md ("embedded_sct") states it for embedded SCTs (distinct operators approximated by count). */
export const chromeCompliant = (scts: number, notBefore: string, notAfter: string): boolean => {
  const lifetimeDays = (Date.parse(notAfter) - Date.parse(notBefore)) / 86_400_000
  const issuedAfterPolicy = Date.parse(notBefore) >= Date.parse("2022-04-15T00:00:00Z")
  const needed = issuedAfterPolicy && lifetimeDays >= 180 ? 3 : 2
  return scts >= needed
}
