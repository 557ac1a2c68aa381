/**
 * Key shares for the post-quantum groups of a TLS 1.3 ClientHello (RFC 8446 §4.2.8), so a probe
 * offers them as a browser does: the share in the first hello, the server answering with a
 * ServerHello (or a HelloRetryRequest) that names the group. The scan needs only the server's
 * choice, never the handshake's secret, so no private key is kept.
 *
 * An ML-KEM encapsulation key (FIPS 203 §5.1) is ByteEncode12 of k·256 coefficients below
 * q = 3329, then a 32-byte seed. Servers run FIPS 203's modulus check (§7.2) on it: random bytes
 * fail it (BoringSSL answers illegal_parameter) and the group would be reported as refused. A
 * key of uniformly random coefficients below q and a random seed passes and, like every real
 * key, looks uniformly random; the server encapsulates to it and the scan closes the connection.
 * The classical half is a real public key (a point on the curve), which servers also check.
 */
import { createECDH, randomBytes } from "node:crypto"
import { makeKeyShare, type KeyShare } from "./clientHello"

const Q = 3329

/** `n` values uniform below q: 12-bit draws from the CSPRNG, those at or above q rejected (about 19%). */
const belowQ = (n: number): Uint16Array => {
  const out = new Uint16Array(n)
  let filled = 0
  while (filled < n) {
    const bytes = randomBytes(2 * (n - filled) + 64)
    for (let i = 0; i + 1 < bytes.length && filled < n; i += 2) {
      const v = ((bytes[i] << 8) | bytes[i + 1]) & 0x0fff
      if (v < Q) out[filled++] = v
    }
  }
  return out
}

/** An ML-KEM (or Kyber round 3) encapsulation key of rank k: 384·k + 32 bytes. */
export const mlkemEncapsulationKey = (k: 2 | 3 | 4): Uint8Array => {
  const out = new Uint8Array(384 * k + 32)
  const cs = belowQ(256 * k)
  for (let i = 0; i < 128 * k; i++) {
    const a = cs[2 * i]
    const b = cs[2 * i + 1]
    out[3 * i] = a & 0xff
    out[3 * i + 1] = (a >> 8) | ((b & 0x0f) << 4)
    out[3 * i + 2] = b >> 4
  }
  out.set(randomBytes(32), 384 * k)
  return out
}

let p384Key: Uint8Array | undefined
/**
 * A P-384 public key, made once per process: its generation costs ~3 ms of CPU here (against
 * 0.15 ms for P-256), and the server needs only a point on the curve, never a secret of ours.
 */
const p384 = (): Uint8Array => {
  if (p384Key === undefined) {
    const ecdh = createECDH("secp384r1")
    ecdh.generateKeys()
    p384Key = new Uint8Array(ecdh.getPublicKey())
  }
  return p384Key
}

const cat = (...parts: ReadonlyArray<Uint8Array>) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let i = 0
  for (const p of parts) {
    out.set(p, i)
    i += p.length
  }
  return out
}

/**
 * The share for a post-quantum group, in the order its specification concatenates the parts
 * (draft-ietf-tls-ecdhe-mlkem: X25519MLKEM768 puts ML-KEM first, the NIST-curve hybrids put the
 * curve first; draft-tls-westerbaan-xyber768d00: X25519 first; draft-ietf-tls-mlkem: the key
 * alone); null for a group that is not post-quantum.
 */
export const pqShare = (group: number): KeyShare | null => {
  const x25519 = () => makeKeyShare(29).key
  const p256 = () => makeKeyShare(23).key
  const key = group === 0x11ec ? cat(mlkemEncapsulationKey(3), x25519())
    : group === 0x11eb ? cat(p256(), mlkemEncapsulationKey(3))
    : group === 0x11ed ? cat(p384(), mlkemEncapsulationKey(4))
    : group === 0x6399 ? cat(x25519(), mlkemEncapsulationKey(3))
    : group === 0x0200 ? mlkemEncapsulationKey(2)
    : group === 0x0201 ? mlkemEncapsulationKey(3)
    : group === 0x0202 ? mlkemEncapsulationKey(4)
    : null
  return key === null ? null : { group, key }
}
