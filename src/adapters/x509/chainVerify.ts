/**
 * Certificate path validation for a chain read off the wire (the plaintext Certificate message of
 * a TLS 1.2-and-older handshake), for the servers the runtime's TLS client cannot complete a
 * handshake with (3DES, RC4, DHE or TLS 1.0 only). It decides what the runtime's verifier decides
 * for the TLS scan, from RFC 5280 §6 reduced to: each link's issuer name and signature, every
 * certificate of the path within its validity period, intermediates marked as CAs, and a path that
 * ends at a self-issued certificate of the trust store (the system roots plus
 * NODE_EXTRA_CA_CERTS). Name constraints, policies, key usage and revocation are not checked.
 */
import { X509Certificate } from "node:crypto"
import * as tls from "node:tls"

export interface VerifiedPath {
  readonly trusted: boolean
  /**
   * Leaf first. When trusted: the path to the store's root, root included. Otherwise the links
   * that name and signature allow (sent certificates, then store certificates), as far as they go.
   */
  readonly path: ReadonlyArray<X509Certificate>
}

let store: { readonly key: string; readonly certs: ReadonlyArray<X509Certificate> } | undefined

/** The trust store as certificates, parsed once per set of extra CAs (the system's ~150 roots take ~15 ms). */
export const trustStore = (extraCas: ReadonlyArray<string>): ReadonlyArray<X509Certificate> => {
  const key = extraCas.join("\n")
  if (store?.key !== key) {
    const certs = [...tls.rootCertificates, ...extraCas].flatMap((pem) => {
      try {
        return [new X509Certificate(pem)]
      } catch {
        return []
      }
    })
    store = { key, certs }
  }
  return store.certs
}

const MAX_DEPTH = 10

const issued = (child: X509Certificate, issuer: X509Certificate): boolean => {
  try {
    return child.checkIssued(issuer) && child.verify(issuer.publicKey)
  } catch {
    return false
  }
}
const selfIssued = (c: X509Certificate) => issued(c, c)
const within = (c: X509Certificate, now: number) => now >= Date.parse(c.validFrom) && now <= Date.parse(c.validTo)

/** `ders`: the certificates as the server sent them, leaf first. */
export const verifyChain = (ders: ReadonlyArray<Uint8Array>, anchors: ReadonlyArray<X509Certificate>, now: number): VerifiedPath => {
  const sent = ders.flatMap((d) => {
    try {
      return [new X509Certificate(d)]
    } catch {
      return []
    }
  })
  if (sent.length === 0) return { trusted: false, path: [] }
  const inStore = (c: X509Certificate) => anchors.some((a) => a.fingerprint256 === c.fingerprint256)
  const seen = (path: ReadonlyArray<X509Certificate>, c: X509Certificate) => path.some((p) => p.fingerprint256 === c.fingerprint256)

  /** A trusted path from path's last certificate, store issuers first (a cross-signed copy sent beside a stored root loses to the root). */
  const trustedFrom = (path: ReadonlyArray<X509Certificate>): ReadonlyArray<X509Certificate> | null => {
    const c = path[path.length - 1]
    if (!within(c, now) || path.length > MAX_DEPTH) return null
    if (inStore(c) && selfIssued(c)) return path
    for (const a of anchors) {
      if (seen(path, a) || !issued(c, a)) continue
      const found = trustedFrom([...path, a])
      if (found) return found
    }
    for (const s of sent) {
      if (seen(path, s) || !s.ca || !issued(c, s)) continue
      const found = trustedFrom([...path, s])
      if (found) return found
    }
    return null
  }
  const trusted = trustedFrom([sent[0]])
  if (trusted) return { trusted: true, path: trusted }

  // Untrusted: the links that can be followed, for the report's chain.
  const path = [sent[0]]
  while (path.length < MAX_DEPTH) {
    const c = path[path.length - 1]
    if (selfIssued(c)) break
    const next = [...sent, ...anchors].find((x) => !seen(path, x) && issued(c, x))
    if (!next) break
    path.push(next)
  }
  return { trusted: false, path }
}
