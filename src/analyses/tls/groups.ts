/**
 * TLS Supported Groups (IANA registry, RFC 8422, RFC 7919, RFC 8446 §4.2.7,
 * draft-ietf-tls-ecdhe-mlkem), named as the registry writes them. `share` is the size of a
 * client key share (RFC 8446 §4.2.8.2: uncompressed points; the ML-KEM hybrids concatenate the
 * encapsulation key and the ECDH share); `strength` the RSA-equivalent bits SSL Labs' key
 * exchange score uses (NIST SP 800-57 Part 1 Table 2).
 */
export interface Group {
  readonly code: number
  readonly name: string
  readonly kind: "ec" | "ffdhe" | "pq-hybrid" | "pq"
  readonly share: number
  readonly strength: number
  /** Probed over TLS 1.2 ECDHE as well (the ML-KEM and FFDHE groups exist in key_share only). */
  readonly tls12: boolean
}

const g = (code: number, name: string, kind: Group["kind"], share: number, strength: number, tls12 = kind === "ec"): Group =>
  ({ code, name, kind, share, strength, tls12 })

export const GROUPS: ReadonlyArray<Group> = [
  g(0x11ec, "X25519MLKEM768", "pq-hybrid", 1216, 3072),
  g(0x11eb, "SecP256r1MLKEM768", "pq-hybrid", 1249, 3072),
  g(0x11ed, "SecP384r1MLKEM1024", "pq-hybrid", 1665, 7680),
  g(0x6399, "X25519Kyber768Draft00", "pq-hybrid", 1216, 3072),
  g(0x0200, "MLKEM512", "pq", 800, 3072),
  g(0x0201, "MLKEM768", "pq", 1184, 7680),
  g(0x0202, "MLKEM1024", "pq", 1568, 15360),
  g(29, "x25519", "ec", 32, 3072),
  g(30, "x448", "ec", 56, 7680),
  g(23, "secp256r1", "ec", 65, 3072),
  g(24, "secp384r1", "ec", 97, 7680),
  g(25, "secp521r1", "ec", 133, 15360),
  g(26, "brainpoolP256r1", "ec", 65, 3072),
  g(27, "brainpoolP384r1", "ec", 97, 7680),
  g(28, "brainpoolP512r1", "ec", 129, 15360),
  g(31, "brainpoolP256r1tls13", "ec", 65, 3072, false),
  g(32, "brainpoolP384r1tls13", "ec", 97, 7680, false),
  g(33, "brainpoolP512r1tls13", "ec", 129, 15360, false),
  g(22, "secp256k1", "ec", 65, 3072),
  g(21, "secp224r1", "ec", 57, 2048),
  g(19, "secp192r1", "ec", 49, 1536),
  g(14, "sect571r1", "ec", 145, 15360),
  g(13, "sect571k1", "ec", 145, 15360),
  g(12, "sect409r1", "ec", 105, 7680),
  g(11, "sect409k1", "ec", 105, 7680),
  g(10, "sect283r1", "ec", 73, 3072),
  g(9, "sect283k1", "ec", 73, 3072),
  g(0x0100, "ffdhe2048", "ffdhe", 256, 2048),
  g(0x0101, "ffdhe3072", "ffdhe", 384, 3072),
  g(0x0102, "ffdhe4096", "ffdhe", 512, 4096),
  g(0x0103, "ffdhe6144", "ffdhe", 768, 6144),
  g(0x0104, "ffdhe8192", "ffdhe", 1024, 8192)
]

/** An ML-KEM group, hybrid or pure. */
export const isPostQuantum = (g: Group): boolean => g.kind === "pq-hybrid" || g.kind === "pq"

const byCode = new Map(GROUPS.map((x) => [x.code, x]))
export const groupByCode = (code: number): Group | undefined => byCode.get(code)
/** A registry name for any code point, known or not (`0x1234`). */
export const groupName = (code: number): string => byCode.get(code)?.name ?? `0x${code.toString(16).padStart(4, "0")}`

/** The groups whose shares a ClientHello for suite enumeration carries: what browsers send. */
export const DEFAULT_SHARE_GROUPS: ReadonlyArray<number> = [29, 23]
/** supported_groups of an enumeration hello: every EC and FFDHE group, most wanted first. */
export const OFFERED_GROUPS: ReadonlyArray<number> = GROUPS.filter((x) => x.kind === "ec" || x.kind === "ffdhe").map((x) => x.code)
