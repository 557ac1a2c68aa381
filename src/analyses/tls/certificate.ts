/**
 * The report's certificate, from whichever handshake succeeded: the runtime's TLS client when it
 * completes one (its verifier judges the chain), else the plaintext Certificate message of a
 * TLS 1.2-and-older ServerHello flight the scan already read (3DES-, RC4-, DHE- or TLS 1.0-only
 * servers, which the runtime's client refuses), judged by chainVerify.ts against the same trust
 * store. Both give the same fields for the same certificate; the hostname check is the runtime's
 * `checkServerIdentity` (RFC 6125) in both.
 */
import * as tls from "node:tls"
import type { X509Certificate } from "node:crypto"
import { certFacts, type CertFacts } from "../../adapters/x509/certFacts"
import { chainEntryOf, chainOf, type Handshake } from "../../adapters/x509/CertInspector"
import { verifyChain } from "../../adapters/x509/chainVerify"
import type { TlsCertificate } from "./schema"

const DAY_MS = 86_400_000

const fields = (facts: CertFacts, now: number) => ({
  subject: facts.subject,
  issuer: facts.issuer,
  sans: facts.sans,
  not_before: facts.not_before,
  not_after: facts.not_after,
  days_left: Math.floor((Date.parse(facts.not_after) - now) / DAY_MS),
  key_type: facts.key.type,
  key_bits: facts.key.size,
  signature_algorithm: facts.signature_algorithm,
  sct_count: facts.embedded_sct_count
})

const expiredAt = (facts: CertFacts, now: number) => now > Date.parse(facts.not_after) || now < Date.parse(facts.not_before)

/** From a handshake the runtime's TLS client completed. */
export const certificateOfHandshake = (hs: Handshake, host: string, now: number, ocsp: boolean | null): TlsCertificate => {
  const facts = certFacts(hs.peer.raw)
  return {
    ...fields(facts, now),
    chain_trusted: hs.chainValid && !expiredAt(facts, now),
    hostname_match: tls.checkServerIdentity(host, hs.peer) === undefined,
    chain: chainOf(hs.peer),
    ocsp_stapled: ocsp
  }
}

/** From the certificates a server sent in the clear, leaf first. */
export const certificateOfChain = (
  ders: ReadonlyArray<Uint8Array>,
  host: string,
  now: number,
  anchors: ReadonlyArray<X509Certificate>,
  ocsp: boolean | null
): TlsCertificate => {
  const facts = certFacts(ders[0])
  const verified = verifyChain(ders, anchors, now)
  const leaf = verified.path[0]
  return {
    ...fields(facts, now),
    chain_trusted: verified.trusted && !expiredAt(facts, now),
    hostname_match: leaf !== undefined && tls.checkServerIdentity(host, leaf.toLegacyObject()) === undefined,
    chain: verified.path.map((c) => chainEntryOf(new Uint8Array(c.raw))),
    ocsp_stapled: ocsp
  }
}
