/**
 * DNSSEC cryptography, pure: canonical wire form (RFC 4034 section 6), RRSIG verification,
 * DS digests, key tags, NSEC3 hashing. Algorithms 8 (RSA/SHA-256), 10 (RSA/SHA-512),
 * 13 (ECDSA P-256/SHA-256), 14 (ECDSA P-384/SHA-384), 15 (Ed25519) and 16 (Ed448) through
 * node:crypto; digest types 1 (SHA-1), 2 (SHA-256) and 4 (SHA-384).
 */
import { createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from "node:crypto"
import { encodeRdata, packetTypeName } from "../dns/packetCodec"
import type { DnskeyData, DnsRecord, RrsigData } from "../dns/records"
import { typeCode } from "../dns/rrtypes"

/** The number of a type mnemonic (RRSIG's type covered); 0 for a name no registry knows. */
export const typeNumber = (type: string): number => typeCode(type) ?? 0

export const SUPPORTED_ALGORITHMS: ReadonlySet<number> = new Set([8, 10, 13, 14, 15, 16])
export const SUPPORTED_DIGESTS: ReadonlySet<number> = new Set([1, 2, 4])

export const algorithmName = (alg: number): string =>
  ({ 5: "RSASHA1", 7: "RSASHA1-NSEC3-SHA1", 8: "RSASHA256", 10: "RSASHA512", 13: "ECDSAP256SHA256", 14: "ECDSAP384SHA384", 15: "ED25519", 16: "ED448" } as Record<number, string>)[alg] ?? `algorithm ${alg}`

/** Lower-case, trailing dot removed, "" for the root. */
export const normName = (name: string): string => name.toLowerCase().replace(/\.$/, "")

/** ASCII letters lower-cased, nothing else (RFC 4034 §6.2, RFC 4343 §3). */
const lower = (name: string): string => name.replace(/[A-Z]+/g, (m) => m.toLowerCase())

/** Uncompressed wire form of a name, lower-cased (canonical form, RFC 4034 §6.2). */
export const nameWire = (name: string): Buffer => {
  const n = lower(name).replace(/\.$/, "")
  if (n === "") return Buffer.from([0])
  const parts: Array<Buffer> = []
  for (const label of n.split(".")) {
    const b = Buffer.from(label, "utf8")
    if (b.length === 0 || b.length > 63) throw new Error(`invalid label in ${name}`)
    parts.push(Buffer.from([b.length]), b)
  }
  parts.push(Buffer.from([0]))
  return Buffer.concat(parts)
}

const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff])
const u32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n >>> 0)
  return b
}

/** RRSIG RDATA up to the signer's name (RFC 4034 §3.1). */
const rrsigHead = (sig: RrsigData): Buffer =>
  Buffer.concat([u16(typeNumber(sig.typeCovered)), Buffer.from([sig.algorithm, sig.labels]), u32(sig.originalTTL), u32(sig.expiration), u32(sig.inception), u16(sig.keyTag)])

/** Type mnemonics as dns-packet's encoder reads them (it names some types `UNKNOWN_<n>`). */
const packetTypes = (types: ReadonlyArray<string>) => types.map((t) => packetTypeName(typeNumber(t)))

/**
 * Canonical RDATA of a record (RFC 4034 §6.2), re-encoded by dns-packet from the typed data:
 * uncompressed, and the names in the RDATA of the types listed there lower-cased (NSEC's
 * excepted, RFC 6840 §5.1). Types decoded from raw bytes (SVCB, HTTPS, CDS, CDNSKEY, SPF,
 * NSEC3PARAM, unknown ones) have no names to lower-case: their bytes as received.
 */
export const canonicalRdata = (rr: DnsRecord): Buffer => {
  switch (rr.type) {
    case "NS":
    case "CNAME":
    case "PTR":
    case "DNAME":
      return encodeRdata(rr.type, lower(rr.data))
    case "SOA":
      return encodeRdata(rr.type, { ...rr.data, mname: lower(rr.data.mname), rname: lower(rr.data.rname) })
    case "MX":
      return encodeRdata(rr.type, { ...rr.data, exchange: lower(rr.data.exchange) })
    case "SRV":
      return encodeRdata(rr.type, { ...rr.data, target: lower(rr.data.target) })
    case "RP":
      return encodeRdata(rr.type, { mbox: lower(rr.data.mbox), txt: lower(rr.data.txt) })
    case "NAPTR":
      return encodeRdata(rr.type, { ...rr.data, replacement: lower(rr.data.replacement) })
    case "RRSIG":
      return encodeRdata(rr.type, { ...rr.data, typeCovered: packetTypeName(typeNumber(rr.data.typeCovered)), signersName: lower(rr.data.signersName) })
    case "NSEC":
      return encodeRdata(rr.type, { ...rr.data, rrtypes: packetTypes(rr.data.rrtypes) })
    case "NSEC3":
      return encodeRdata(rr.type, { ...rr.data, rrtypes: packetTypes(rr.data.rrtypes) })
    case "CAA":
      // dns-packet's encoder overwrites the flags with 128 when issuerCritical is set; the flags carry that bit already.
      return encodeRdata(rr.type, { ...rr.data, issuerCritical: false })
    case "TXT":
      return encodeRdata(rr.type, [...rr.data])
    case "A":
    case "AAAA":
    case "DS":
    case "DNSKEY":
    case "TLSA":
    case "HINFO":
    case "SSHFP":
      return encodeRdata(rr.type, rr.data)
    case "UNKNOWN":
      return rr.data
    default:
      return rr.rdata
  }
}

/** RDATA of a DNSKEY record: flags, protocol 3, algorithm, public key. */
export type DnsKey = DnskeyData

export const dnskeyRdata = (k: DnsKey): Buffer =>
  Buffer.concat([Buffer.from([k.flags >> 8, k.flags & 0xff, 3, k.algorithm]), k.key])

/** RFC 4034 Appendix B. */
export const keyTag = (k: DnsKey): number => {
  const rdata = dnskeyRdata(k)
  let ac = 0
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i] : rdata[i] << 8
  ac += (ac >> 16) & 0xffff
  return ac & 0xffff
}

export const isZoneKey = (k: DnsKey) => (k.flags & 0x0100) !== 0
export const isRevoked = (k: DnsKey) => (k.flags & 0x0080) !== 0

/** DS digest of a DNSKEY under `owner` (RFC 4034 5.1.4, RFC 6605). */
export const dsDigest = (owner: string, k: DnsKey, digestType: number): Buffer | undefined => {
  const alg = digestType === 1 ? "sha1" : digestType === 2 ? "sha256" : digestType === 4 ? "sha384" : undefined
  if (!alg) return undefined
  return createHash(alg).update(nameWire(owner)).update(dnskeyRdata(k)).digest()
}

const b64url = (b: Buffer) => b.toString("base64url")

/** node:crypto public key from DNSKEY key material; undefined when unusable. */
export const publicKeyOf = (k: DnsKey): KeyObject | undefined => {
  try {
    switch (k.algorithm) {
      case 8:
      case 10: {
        // RFC 3110: exponent length (1 byte, or 0 then 2 bytes), exponent, modulus.
        let off = 1
        let elen = k.key[0]
        if (elen === 0) {
          elen = k.key.readUInt16BE(1)
          off = 3
        }
        const e = k.key.subarray(off, off + elen)
        const n = k.key.subarray(off + elen)
        if (e.length === 0 || n.length === 0) return undefined
        return createPublicKey({ key: { kty: "RSA", n: b64url(n), e: b64url(e) }, format: "jwk" })
      }
      case 13:
      case 14: {
        const size = k.algorithm === 13 ? 32 : 48
        if (k.key.length !== 2 * size) return undefined
        return createPublicKey({
          key: { kty: "EC", crv: k.algorithm === 13 ? "P-256" : "P-384", x: b64url(k.key.subarray(0, size)), y: b64url(k.key.subarray(size)) },
          format: "jwk"
        })
      }
      case 15:
      case 16:
        return createPublicKey({ key: { kty: "OKP", crv: k.algorithm === 15 ? "Ed25519" : "Ed448", x: b64url(k.key) }, format: "jwk" })
      default:
        return undefined
    }
  } catch {
    return undefined
  }
}

export type Rrsig = RrsigData

/**
 * The data an RRSIG signs (RFC 4034 3.1.8.1 and 6.2/6.3): the RRSIG RDATA without the signature,
 * then each RR of the set in canonical form and order, with the original TTL and, for wildcard
 * expansions, the owner rewritten to "*.<closest encloser>".
 */
export const signedData = (sig: Rrsig, rrset: ReadonlyArray<DnsRecord>): Buffer => {
  const parts: Array<Buffer> = [rrsigHead(sig), nameWire(sig.signersName)]
  const owner0 = normName(rrset[0].name)
  const ownerLabels = owner0 === "" ? [] : owner0.split(".")
  const owner = sig.labels < ownerLabels.length ? ["*", ...ownerLabels.slice(ownerLabels.length - sig.labels)].join(".") : owner0
  const ownerWire = nameWire(owner)
  const rdatas = rrset.map(canonicalRdata)
  rdatas.sort(Buffer.compare)
  let prev: Buffer | undefined
  for (const rd of rdatas) {
    if (prev && prev.equals(rd)) continue
    prev = rd
    const fixed = Buffer.alloc(10)
    fixed.writeUInt16BE(typeNumber(sig.typeCovered), 0)
    fixed.writeUInt16BE(1, 2) // class IN
    fixed.writeUInt32BE(sig.originalTTL >>> 0, 4)
    fixed.writeUInt16BE(rd.length, 8)
    parts.push(ownerWire, fixed, rd)
  }
  return Buffer.concat(parts)
}

/** Verifies one signature with one key; false on any mismatch or unusable key. */
export const verifySignature = (sig: Rrsig, key: DnsKey, data: Buffer): boolean => {
  const pub = publicKeyOf(key)
  if (!pub) return false
  try {
    switch (sig.algorithm) {
      case 8:
        return cryptoVerify("sha256", data, pub, sig.signature)
      case 10:
        return cryptoVerify("sha512", data, pub, sig.signature)
      case 13:
        return cryptoVerify("sha256", data, { key: pub, dsaEncoding: "ieee-p1363" }, sig.signature)
      case 14:
        return cryptoVerify("sha384", data, { key: pub, dsaEncoding: "ieee-p1363" }, sig.signature)
      case 15:
      case 16:
        return cryptoVerify(null, data, pub, sig.signature)
      default:
        return false
    }
  } catch {
    return false
  }
}

/** RFC 1982 serial-number comparison of 32-bit times: a <= b. */
const serialLe = (a: number, b: number) => a === b || ((b - a) >>> 0) < 0x80000000

export type WindowState = "valid" | "expired" | "not_yet_valid"
export const signatureWindow = (sig: Rrsig, nowSeconds: number): WindowState => {
  const now = nowSeconds >>> 0
  if (!serialLe(sig.inception >>> 0, now)) return "not_yet_valid"
  if (!serialLe(now, sig.expiration >>> 0)) return "expired"
  return "valid"
}

const b32hex = "0123456789abcdefghijklmnopqrstuv"
export const base32hex = (b: Buffer): string => {
  let bits = 0
  let value = 0
  let out = ""
  for (const byte of b) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += b32hex[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += b32hex[(value << (5 - bits)) & 31]
  return out
}

/** NSEC3 owner hash (RFC 5155 section 5), base32hex, lower case. */
export const nsec3Hash = (name: string, salt: Buffer, iterations: number): string => {
  let h = createHash("sha1").update(nameWire(name)).update(salt).digest()
  for (let i = 0; i < iterations; i++) h = createHash("sha1").update(h).update(salt).digest()
  return base32hex(h)
}

/** Date of an RRSIG time field, for messages. */
export const sigTime = (t: number) => new Date((t >>> 0) * 1000).toISOString()
