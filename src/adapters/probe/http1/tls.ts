/** TLS outcome of a handshake made with rejectUnauthorized off, so a bad certificate is reported, not fatal. */
import * as tls from "node:tls"
import type { TlsOutcome } from "./types"

const tlsReasons: Record<string, string> = {
  ERR_TLS_CERT_ALTNAME_INVALID: "certificate is not valid for HOST",
  DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed certificate",
  SELF_SIGNED_CERT_IN_CHAIN: "self-signed certificate in the chain",
  CERT_HAS_EXPIRED: "certificate has expired",
  CERT_NOT_YET_VALID: "certificate is not yet valid",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "unable to verify the certificate: issuer unknown",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "unable to verify the certificate: issuer unknown",
  UNABLE_TO_GET_ISSUER_CERT: "unable to verify the certificate: issuer unknown",
  CERT_REVOKED: "certificate revoked"
}

/** A readable reason with the OpenSSL/Node code kept in parentheses. */
export const describeTlsError = (code: string, host: string): string => {
  if (code === "") return "certificate not trusted"
  const reason = tlsReasons[code]
  return reason ? `${reason.replace("HOST", host)} (${code})` : code
}

/** What the handshake showed: trust (with the hostname checked here, RFC 6125), protocol, cipher, ALPN, certificate. */
export const tlsOutcomeOf = (s: tls.TLSSocket, host: string): TlsOutcome => {
  let error: string | null = s.authorized ? null : describeTlsError(String(s.authorizationError ?? ""), host)
  // Hostname check (rejectUnauthorized is off so that the handshake can be reported).
  const cert = s.getPeerCertificate(true)
  if (s.authorized && cert && Object.keys(cert).length > 0) {
    const mismatch = tls.checkServerIdentity(host, cert)
    if (mismatch) error = mismatch.message
  }
  const cipher = s.getCipher?.()
  return {
    authorized: error === null,
    error,
    protocol: s.getProtocol?.() ?? null,
    cipher: cipher?.name ?? null,
    alpn: (s.alpnProtocol as string | false) || null,
    peerCertificate: cert && Object.keys(cert).length > 0 ? cert : null
  }
}
