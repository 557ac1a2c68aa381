/**
 * Cipher suites, pure: the IANA table (./suiteTable.ts) with each suite's properties derived from
 * its registered name, so that a property is decided once for all suites of a family.
 * Name grammar: `TLS_<kx>_WITH_<cipher>_<mac>` (SSL 3.0 .. TLS 1.2) or `TLS_<aead>_<hash>` (TLS 1.3).
 */
import { SUITE_TABLE } from "./suiteTable"

export const VERSIONS = ["ssl3", "tls1_0", "tls1_1", "tls1_2", "tls1_3"] as const
export type Version = (typeof VERSIONS)[number]

/** Wire values of the protocol versions (RFC 8446 §4.2.1 and its predecessors). */
export const VERSION_CODE: Record<Version, number> = { ssl3: 0x0300, tls1_0: 0x0301, tls1_1: 0x0302, tls1_2: 0x0303, tls1_3: 0x0304 }
export const VERSION_LABEL: Record<Version, string> = { ssl3: "SSL 3.0", tls1_0: "TLS 1.0", tls1_1: "TLS 1.1", tls1_2: "TLS 1.2", tls1_3: "TLS 1.3" }
export const versionOfCode = (code: number): Version | null => VERSIONS.find((v) => VERSION_CODE[v] === code) ?? null

export type CipherMode = "none" | "stream" | "CBC" | "GCM" | "CCM" | "CCM_8" | "POLY1305"

export interface Suite {
  readonly code: number
  /** IANA name, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256. */
  readonly name: string
  /** RSA, DH, DHE, ECDH, ECDHE, PSK, DHE_PSK, RSA_PSK, ECDHE_PSK, SRP, KRB5, NULL, or ANY (TLS 1.3). */
  readonly kx: string
  /** RSA, DSS, ECDSA, anon, PSK, KRB5, SRP, NULL, or ANY (TLS 1.3: the certificate decides). */
  readonly auth: string
  /** Cipher name without key size and mode: AES, CHACHA20, 3DES_EDE, RC4, DES, DES40, RC2, IDEA, CAMELLIA, ARIA, SEED, SM4, NULL. */
  readonly cipher: string
  /** Key bits of the cipher (0 for NULL, 40 for export ciphers, 112 for 3DES as SSL Labs counts it). */
  readonly bits: number
  /** Block size in bits (64 for DES, 3DES, IDEA, RC2: Sweet32), null for stream and NULL ciphers. */
  readonly block_bits: number | null
  readonly mode: CipherMode
  readonly aead: boolean
  /** MD5, SHA, SHA256, SHA384, SM3, or AEAD. */
  readonly mac: string
  readonly forward_secrecy: boolean
  readonly export: boolean
  readonly anonymous: boolean
  readonly versions: ReadonlyArray<Version>
}

const SSL3_UP: ReadonlyArray<Version> = ["ssl3", "tls1_0", "tls1_1", "tls1_2"]
const TLS10_UP: ReadonlyArray<Version> = ["tls1_0", "tls1_1", "tls1_2"]

const cipherOf = (c: string): Pick<Suite, "cipher" | "bits" | "block_bits" | "mode" | "aead"> => {
  if (c === "NULL") return { cipher: "NULL", bits: 0, block_bits: null, mode: "none", aead: false }
  if (c.startsWith("RC4_")) return { cipher: "RC4", bits: Number(c.slice(4)), block_bits: null, mode: "stream", aead: false }
  if (c === "CHACHA20_POLY1305") return { cipher: "CHACHA20", bits: 256, block_bits: null, mode: "POLY1305", aead: true }
  // The 64-bit block ciphers of SSL 3.0; 3DES counts 112 bits (meet-in-the-middle), as SSL Labs rates it.
  const legacy: Record<string, [string, number, number]> = {
    "3DES_EDE_CBC": ["3DES_EDE", 112, 64],
    DES_CBC: ["DES", 56, 64],
    DES40_CBC: ["DES40", 40, 64],
    DES_CBC_40: ["DES40", 40, 64],
    RC2_CBC_40: ["RC2", 40, 64],
    IDEA_CBC: ["IDEA", 128, 64],
    SEED_CBC: ["SEED", 128, 128]
  }
  const l = legacy[c]
  if (l) return { cipher: l[0], bits: l[1], block_bits: l[2], mode: "CBC", aead: false }
  const m = /^(AES|CAMELLIA|ARIA|SM4)(?:_(\d+))?_(CBC|GCM|CCM_8|CCM)$/.exec(c)
  if (m) {
    const mode = m[3] as CipherMode
    return { cipher: m[1], bits: m[2] ? Number(m[2]) : 128, block_bits: 128, mode, aead: mode !== "CBC" }
  }
  throw new Error(`unknown cipher in suite table: ${c}`)
}

/** Key exchange and authentication of the part before `_WITH_`. */
const kxOf = (k: string): Pick<Suite, "kx" | "auth" | "export" | "anonymous" | "forward_secrecy"> => {
  const exp = k.includes("EXPORT")
  const base = k.replace("_EXPORT", "")
  const table: Record<string, [string, string]> = {
    NULL: ["NULL", "NULL"], RSA: ["RSA", "RSA"], KRB5: ["KRB5", "KRB5"], PSK: ["PSK", "PSK"],
    DH_DSS: ["DH", "DSS"], DH_RSA: ["DH", "RSA"], DHE_DSS: ["DHE", "DSS"], DHE_RSA: ["DHE", "RSA"], DH_anon: ["DH", "anon"],
    ECDH_ECDSA: ["ECDH", "ECDSA"], ECDH_RSA: ["ECDH", "RSA"], ECDHE_ECDSA: ["ECDHE", "ECDSA"], ECDHE_RSA: ["ECDHE", "RSA"], ECDH_anon: ["ECDH", "anon"],
    DHE_PSK: ["DHE_PSK", "PSK"], PSK_DHE: ["DHE_PSK", "PSK"], RSA_PSK: ["RSA_PSK", "RSA"], ECDHE_PSK: ["ECDHE_PSK", "PSK"],
    SRP_SHA: ["SRP", "SRP"], SRP_SHA_RSA: ["SRP", "RSA"], SRP_SHA_DSS: ["SRP", "DSS"]
  }
  const t = table[base]
  if (!t) throw new Error(`unknown key exchange in suite table: ${k}`)
  return { kx: t[0], auth: t[1], export: exp, anonymous: t[1] === "anon", forward_secrecy: t[0].startsWith("DHE") || t[0].startsWith("ECDHE") }
}

const describe = (code: number, short: string): Suite => {
  const name = `TLS_${short}`
  if (code >= 0x1300 && code <= 0x13ff || code === 0x00c6 || code === 0x00c7) {
    const m = /^(.*)_(SHA256|SHA384|SM3)$/.exec(short)!
    return { code, name, kx: "ANY", auth: "ANY", ...cipherOf(m[1]), mac: "AEAD", forward_secrecy: true, export: false, anonymous: false, versions: ["tls1_3"] }
  }
  const w = /^(.*)_WITH_(.*?)(?:_(MD5|SHA|SHA256|SHA384|NULL))?$/.exec(short)
  if (!w) throw new Error(`unparsable suite name: ${name}`)
  const kx = kxOf(w[1])
  const cipher = cipherOf(w[2])
  // SHA-256/384 PRFs and AEAD modes exist from TLS 1.2 (RFC 5246); export suites were removed in
  // TLS 1.1 (RFC 4346 §A.5); ECC suites are TLS-only (RFC 4492).
  const mac = w[3] ?? "AEAD"
  const versions: ReadonlyArray<Version> = mac === "SHA256" || mac === "SHA384" || cipher.aead
    ? ["tls1_2"]
    : kx.export
    ? ["ssl3", "tls1_0"]
    : kx.kx.startsWith("ECDH") || kx.kx.includes("PSK") || kx.kx === "SRP"
    ? TLS10_UP
    : SSL3_UP
  return { code, name, ...kx, ...cipher, mac: cipher.aead ? "AEAD" : mac, versions }
}

/**
 * The table, parsed at its first use (a TLS scan), not at start-up, where it cost ~1 ms
 * (docs/operating.md, "The binary").
 */
let table: { readonly all: ReadonlyArray<Suite>; readonly byCode: ReadonlyMap<number, Suite>; readonly byName: ReadonlyMap<string, Suite> } | undefined
const parsed = () => {
  if (table === undefined) {
    const all = SUITE_TABLE.trim().split("\n").map((line) => {
      const [hex, short] = line.trim().split(/\s+/)
      return describe(parseInt(hex, 16), short)
    })
    table = { all, byCode: new Map(all.map((s) => [s.code, s])), byName: new Map(all.map((s) => [s.name, s])) }
  }
  return table
}

export const allSuites = (): ReadonlyArray<Suite> => parsed().all
export const suiteByCode = (code: number): Suite | undefined => parsed().byCode.get(code)
export const suiteByName = (name: string): Suite | undefined => parsed().byName.get(name)

/** Signalling values, not suites: RFC 5746 §3.3 and RFC 7507 §2. */
export const EMPTY_RENEGOTIATION_INFO_SCSV = 0x00ff
export const FALLBACK_SCSV = 0x5600

/**
 * The suites offered for a version, in the client's preference: forward-secret AEAD first, then by
 * strength, so a server that follows the client's order answers as a modern client would see it.
 */
export const suitesFor = (v: Version): ReadonlyArray<Suite> =>
  allSuites().filter((s) => s.versions.includes(v) && s.code !== 0).sort((a, b) => rank(b) - rank(a) || a.code - b.code)

const rank = (s: Suite): number =>
  (s.forward_secrecy ? 1000 : 0) + (s.kx.startsWith("ECDHE") ? 20 : 0) + (s.aead ? 500 : 0) + (s.anonymous || s.export || s.bits === 0 ? -2000 : 0) +
  (s.kx.includes("PSK") || s.kx === "SRP" || s.kx === "KRB5" ? -500 : 0) + (s.mac === "MD5" ? -50 : 0) +
  (s.block_bits === 64 ? -100 : 0) + (s.cipher === "RC4" ? -150 : 0) + Math.min(s.bits, 256) / 4
