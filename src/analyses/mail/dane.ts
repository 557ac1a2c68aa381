/**
 * DANE for SMTP (RFC 7672, RFC 6698): TLSA records at `_25._tcp.<mx host>`. A TLSA set counts
 * only when the service's own DNSSEC validator found it secure (RFC 7672 §2.2); the usable
 * records for SMTP are DANE-TA(2) and DANE-EE(3) (§3.1.3: PKIX-TA/EE SHOULD NOT be used), with a
 * known selector (0 full certificate, 1 public key) and matching type (0 exact, 1 SHA-256 of 32
 * bytes, 2 SHA-512 of 64 bytes). Pure.
 */
import type { TlsaData } from "../../adapters/dns/records"
import type { DaneMx } from "./schema"

export interface DaneObservation {
  readonly host: string
  readonly tlsa: ReadonlyArray<TlsaData>
  /** The DNSSEC status of the TLSA answer from the service's validator. */
  readonly status: "secure" | "insecure" | "bogus" | "indeterminate"
  readonly reason: string | null
  /** The lookup itself failed (the target's DNS). */
  readonly error: string | null
}

export const tlsaName = (host: string, port = 25) => `_${port}._tcp.${host}`

/** Why a TLSA record cannot authenticate an SMTP server, or null when it can. */
export const tlsaProblem = (r: TlsaData): string | null => {
  if (r.usage === 0 || r.usage === 1) return `usage ${r.usage} (PKIX-${r.usage === 0 ? "TA" : "EE"}) is not for SMTP (RFC 7672 §3.1.3)`
  if (r.usage !== 2 && r.usage !== 3) return `unknown usage ${r.usage}`
  if (r.selector !== 0 && r.selector !== 1) return `unknown selector ${r.selector}`
  if (r.matchingType === 1 && r.certificate.length !== 32) return `SHA-256 data is ${r.certificate.length} bytes, not 32`
  if (r.matchingType === 2 && r.certificate.length !== 64) return `SHA-512 data is ${r.certificate.length} bytes, not 64`
  if (r.matchingType > 2) return `unknown matching type ${r.matchingType}`
  if (r.matchingType === 0 && r.certificate.length === 0) return "empty certificate data"
  return null
}

export const daneMx = (o: DaneObservation): DaneMx => {
  const secure = o.status === "secure" && o.tlsa.length > 0
  return {
    host: o.host,
    tlsa: o.tlsa.map((r) => ({ usage: r.usage, selector: r.selector, matching_type: r.matchingType })),
    dnssec_secure: secure,
    valid: secure && o.tlsa.some((r) => tlsaProblem(r) === null)
  }
}
