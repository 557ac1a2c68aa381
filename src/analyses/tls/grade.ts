/**
 * The grade, pure: SSL Labs' SSL Server Rating Guide. A numeric score from three parts (protocol
 * support 30%, key exchange 30%, cipher strength 40%), its letter (A >= 80, B >= 65, C >= 50,
 * D >= 35, E >= 20, else F), then the guide's caps as SSL Labs has published them since (each
 * cap that applies is a finding naming its rule), `A+` for a strong HSTS policy on an otherwise
 * clean A, and `T` / `M` for an untrusted chain / a name mismatch.
 */
import { isPostQuantum, type Group } from "./groups"
import type { TlsCertificate, TlsFinding, TlsGrade, TlsReport } from "./schema"
import { VERSION_LABEL, VERSIONS, type Suite, type Version } from "./suites"

export interface TlsObservations {
  /** Accepted suites per version (empty: the version is not accepted). */
  readonly suites: Readonly<Record<Version, ReadonlyArray<Suite>>>
  readonly groups: ReadonlyArray<Group>
  /** Smallest DHE prime the server used, in bits. */
  readonly dhBits: number | null
  readonly forwardSecrecy: boolean
  readonly certificate: TlsCertificate | null
  readonly features: TlsReport["features"]
  readonly heartbleed: boolean
  /** max-age of the HSTS header of an HTTPS answer on the port, null when none. */
  readonly hstsMaxAge: number | null
}

const ORDER: ReadonlyArray<TlsGrade> = ["A+", "A", "A-", "B", "C", "D", "E", "F"]
const worse = (a: TlsGrade, b: TlsGrade): TlsGrade => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b)
/** The highest score each letter allows, so that score and capped grade agree. */
const BAND_TOP: Partial<Record<TlsGrade, number>> = { B: 79, C: 64, D: 49, E: 34, F: 19 }

const PROTOCOL_SCORE: Record<Version, number> = { ssl3: 80, tls1_0: 90, tls1_1: 95, tls1_2: 100, tls1_3: 100 }
/** SSL Labs rates an HSTS policy of at least 180 days (15768000 s) for A+. */
export const HSTS_MIN_AGE = 15_768_000

const kxScore = (bits: number) => (bits < 512 ? 20 : bits < 1024 ? 40 : bits < 2048 ? 80 : bits < 4096 ? 90 : 100)
const cipherScore = (bits: number) => (bits === 0 ? 0 : bits < 128 ? 20 : bits < 256 ? 80 : 100)
const letterOf = (s: number): TlsGrade => (s >= 80 ? "A" : s >= 65 ? "B" : s >= 50 ? "C" : s >= 35 ? "D" : s >= 20 ? "E" : "F")

/** RSA-equivalent strength of the certificate key (NIST SP 800-57 Part 1 Table 2). */
export const keyStrength = (keyType: string, bits: number | null): number | null => {
  if (bits === null) return null
  if (keyType === "EC") return bits >= 512 ? 15360 : bits >= 384 ? 7680 : bits >= 256 ? 3072 : bits >= 224 ? 2048 : 1024
  if (keyType === "ED25519") return 3072
  if (keyType === "ED448") return 7680
  return bits
}

interface Cap {
  readonly check: string
  readonly cap: TlsGrade
  readonly rule: string
  readonly message: string
  readonly recommendation: string
}
const SEVERITY_OF_CAP = (cap: TlsGrade): TlsFinding["severity"] =>
  cap === "F" ? "critical" : cap === "C" ? "high" : cap === "B" ? "medium" : "low"

export interface Graded {
  readonly grade: TlsGrade
  readonly score: number
  readonly findings: ReadonlyArray<TlsFinding>
}

export const gradeTls = (o: TlsObservations): Graded => {
  const on = VERSIONS.filter((v) => o.suites[v].length > 0)
  const all = on.flatMap((v) => o.suites[v])
  const below13 = on.filter((v) => v !== "tls1_3").flatMap((v) => o.suites[v])
  const caps: Array<Cap> = []
  const notes: Array<TlsFinding> = []
  const cap = (check: string, grade: TlsGrade, rule: string, message: string, recommendation: string) =>
    caps.push({ check, cap: grade, rule, message, recommendation })

  // Protocols.
  if (on.length === 0) cap("protocols", "F", "no protocol in common", "the server refused every ClientHello (SSL 3.0 to TLS 1.3, every known suite)", "Enable TLS 1.2 and TLS 1.3 with standard cipher suites.")
  if (o.suites.ssl3.length > 0) cap("protocols", "C", "SSL 3.0 supported (POODLE)", "the server accepts SSL 3.0", "Disable SSL 3.0.")
  const old = (["tls1_0", "tls1_1"] as const).filter((v) => o.suites[v].length > 0)
  if (old.length > 0) cap("protocols", "B", "TLS 1.0/1.1 supported", `the server accepts ${old.map((v) => VERSION_LABEL[v]).join(" and ")}`, "Disable TLS 1.0 and TLS 1.1; keep TLS 1.2 and TLS 1.3.")
  if (on.length > 0 && o.suites.tls1_2.length === 0 && o.suites.tls1_3.length === 0) cap("protocols", "C", "no TLS 1.2 or TLS 1.3", "the server accepts neither TLS 1.2 nor TLS 1.3", "Enable TLS 1.2 and TLS 1.3.")
  if (on.length > 0 && o.suites.tls1_3.length === 0) notes.push({ check: "protocols", severity: "low", message: "the server does not accept TLS 1.3", recommendation: "Enable TLS 1.3." })

  // Cipher suites.
  const names = (f: (s: Suite) => boolean) => [...new Set(all.filter(f).map((s) => s.name))]
  const list = (xs: ReadonlyArray<string>) => `${xs.slice(0, 4).join(", ")}${xs.length > 4 ? ` and ${xs.length - 4} more` : ""}`
  const nul = names((s) => s.bits === 0)
  if (nul.length > 0) cap("cipher_suites", "F", "NULL cipher suites", `the server accepts suites without encryption: ${list(nul)}`, "Remove the NULL cipher suites.")
  const anon = names((s) => s.anonymous)
  if (anon.length > 0) cap("cipher_suites", "F", "anonymous cipher suites", `the server accepts unauthenticated key exchange: ${list(anon)}`, "Remove the anonymous (ADH/AECDH) suites.")
  const exp = names((s) => s.export)
  if (exp.length > 0) cap("cipher_suites", "F", "export cipher suites (FREAK, Logjam)", `the server accepts export-grade suites: ${list(exp)}`, "Remove the export suites.")
  const rc4 = names((s) => s.cipher === "RC4")
  if (rc4.length > 0) cap("cipher_suites", "C", "RC4", `the server accepts RC4 (RFC 7465 forbids it): ${list(rc4)}`, "Remove the RC4 suites.")
  const modern64 = [...new Set((["tls1_1", "tls1_2"] as const).flatMap((v) => o.suites[v]).filter((s) => s.block_bits === 64).map((s) => s.name))]
  if (modern64.length > 0) cap("cipher_suites", "C", "3DES / 64-bit block cipher with TLS 1.1+ (Sweet32)", `the server accepts 64-bit block ciphers with TLS 1.1 or newer: ${list(modern64)}`, "Remove the 3DES, IDEA and other 64-bit block cipher suites.")
  else {
    const legacy64 = names((s) => s.block_bits === 64)
    if (legacy64.length > 0) notes.push({ check: "cipher_suites", severity: "low", message: `64-bit block ciphers with old protocols only: ${list(legacy64)}`, recommendation: "Remove the 3DES suites." })
  }
  if (on.length > 0 && !o.forwardSecrecy) cap("key_exchange", "B", "no forward secrecy", "a client offering every suite gets one without forward secrecy", "Prefer ECDHE suites (and enable TLS 1.3).")
  const noFs = names((s) => !s.forward_secrecy && !s.anonymous)
  if (o.forwardSecrecy && noFs.length > 0) notes.push({ check: "cipher_suites", severity: "low", message: `suites without forward secrecy are still accepted: ${list(noFs)}`, recommendation: "Remove the static RSA key-exchange suites." })
  if (all.length > 0 && !all.some((s) => s.aead)) cap("cipher_suites", "A-", "no AEAD cipher suites", "the server accepts no AEAD suite (GCM, ChaCha20-Poly1305, CCM)", "Enable AES-GCM and ChaCha20-Poly1305 suites.")
  const cbc = names((s) => s.mode === "CBC")
  if (cbc.length > 0 && modern64.length === 0) notes.push({ check: "cipher_suites", severity: "info", message: `CBC-mode suites are accepted: ${list(cbc)}`, recommendation: null })

  // Key exchange strength.
  const c = o.certificate
  const certStrength = c ? keyStrength(c.key_type, c.key_bits) : null
  if (c && c.key_type === "RSA" && c.key_bits !== null && c.key_bits < 1024) cap("certificate", "F", "weak key (RSA below 1024 bits)", `the certificate's RSA key has ${c.key_bits} bits`, "Use an RSA key of at least 2048 bits or an ECDSA P-256 key.")
  else if (certStrength !== null && certStrength < 2048) cap("certificate", "B", "weak key (below 2048-bit RSA strength)", `the certificate's ${c!.key_type} key has ${c!.key_bits} bits`, "Use an RSA key of at least 2048 bits or an ECDSA P-256 key.")
  if (o.dhBits !== null && o.dhBits < 1024) cap("key_exchange", "F", "DH parameters below 1024 bits (Logjam)", `the server's DHE prime has ${o.dhBits} bits`, "Use 2048-bit or larger DH parameters (RFC 7919 ffdhe2048), or drop DHE.")
  else if (o.dhBits !== null && o.dhBits < 2048) cap("key_exchange", "B", "DH parameters below 2048 bits", `the server's DHE prime has ${o.dhBits} bits`, "Use 2048-bit or larger DH parameters (RFC 7919 ffdhe2048).")
  const weakGroups = o.groups.filter((g) => g.strength < 2048).map((g) => g.name)
  if (weakGroups.length > 0) notes.push({ check: "key_exchange", severity: "medium", message: `groups weaker than 2048-bit RSA are accepted: ${weakGroups.join(", ")}`, recommendation: "Offer only x25519, secp256r1, secp384r1 (and X25519MLKEM768)." })
  if (o.groups.length > 0 && !o.groups.some(isPostQuantum)) notes.push({ check: "key_exchange", severity: "info", message: "no post-quantum key exchange group (X25519MLKEM768) is accepted", recommendation: "Enable X25519MLKEM768 where the TLS library supports it." })

  // Features and vulnerabilities.
  if (o.heartbleed) cap("vulnerabilities", "F", "Heartbleed (CVE-2014-0160)", "the server answered a malformed heartbeat with more bytes than it was sent: it leaks memory", "Upgrade OpenSSL and replace the private key and certificate.")
  if (o.features.compression) cap("features", "C", "TLS compression (CRIME)", "the server accepts DEFLATE compression", "Disable TLS compression.")
  if (o.features.secure_renegotiation === false) cap("features", "A-", "no secure renegotiation (RFC 5746)", "the server does not support the renegotiation_info extension", "Upgrade the TLS library; RFC 5746 support is universal.")
  if (o.features.fallback_scsv === false) notes.push({ check: "features", severity: "low", message: "the server accepts a downgraded retry carrying TLS_FALLBACK_SCSV (RFC 7507)", recommendation: "Support TLS_FALLBACK_SCSV, or accept only TLS 1.2 and newer." })
  if (o.features.heartbeat && !o.heartbleed) notes.push({ check: "features", severity: "info", message: "the heartbeat extension is enabled (not vulnerable to Heartbleed)", recommendation: null })

  // Score (the guide's three parts) and its letter.
  const protoScores = on.map((v) => PROTOCOL_SCORE[v])
  const protocolScore = protoScores.length ? (Math.max(...protoScores) + Math.min(...protoScores)) / 2 : 0
  const strengths = [certStrength, o.dhBits, ...o.groups.map((g) => g.strength)].filter((x): x is number => x !== null)
  const keyExchangeScore = all.some((s) => s.anonymous) ? 0 : all.some((s) => s.export) ? 40 : kxScore(strengths.length ? Math.min(...strengths) : 2048)
  const bits = all.map((s) => s.bits)
  const cipherPart = bits.length ? (cipherScore(Math.max(...bits)) + cipherScore(Math.min(...bits))) / 2 : 0
  const raw = Math.round(0.3 * protocolScore + 0.3 * keyExchangeScore + 0.4 * cipherPart)
  let grade = letterOf(raw)
  for (const k of caps) grade = worse(grade, k.cap)
  if (grade === "A" && o.hstsMaxAge !== null && o.hstsMaxAge >= HSTS_MIN_AGE) grade = "A+"
  else if (grade === "A" && o.hstsMaxAge !== null) notes.push({ check: "hsts", severity: "low", message: `HSTS max-age ${o.hstsMaxAge} is below 180 days, short of A+`, recommendation: "Send Strict-Transport-Security with max-age of at least 15768000." })
  else if (grade === "A" && on.length > 0) notes.push({ check: "hsts", severity: "low", message: "no HSTS header on an HTTPS answer from this port, short of A+", recommendation: "Send Strict-Transport-Security: max-age=31536000." })
  const score = Math.min(raw, BAND_TOP[grade] ?? 100)

  const findings: Array<TlsFinding> = caps.map((k) => ({
    check: k.check,
    severity: SEVERITY_OF_CAP(k.cap),
    message: `${k.message} (rating rule "${k.rule}": grade capped at ${k.cap})`,
    recommendation: k.recommendation
  }))
  // Trust and name decide the letter last: SSL Labs shows T / M whatever the rest earns.
  let final: TlsGrade = grade
  if (c && !c.hostname_match) {
    final = "M"
    findings.push({ check: "certificate", severity: "high", message: `the certificate does not name the host (rating rule "certificate name mismatch": grade M; ${grade} if the name matched)`, recommendation: "Serve a certificate whose subjectAltName covers the host." })
  }
  if (c && !c.chain_trusted) {
    final = "T"
    const why = c.days_left < 0 ? "the certificate has expired" : "the chain does not lead to a trusted root (self-signed, unknown CA, or a missing intermediate)"
    findings.push({ check: "certificate", severity: "critical", message: `${why} (rating rule "certificate not trusted": grade T; ${grade} if trust issues were ignored)`, recommendation: c.days_left < 0 ? "Renew the certificate." : "Serve the full chain up to a publicly trusted root." })
  }
  if (c && /sha1|md5/i.test(c.signature_algorithm)) findings.push({ check: "certificate", severity: "high", message: `the certificate is signed with ${c.signature_algorithm}`, recommendation: "Reissue the certificate with a SHA-256 signature." })
  if (c && c.chain_trusted && c.days_left >= 0 && c.days_left < 14) findings.push({ check: "certificate", severity: "medium", message: `the certificate expires in ${c.days_left} days`, recommendation: "Renew the certificate." })
  return { grade: final, score, findings: [...findings, ...notes] }
}
