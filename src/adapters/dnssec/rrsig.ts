/** RRSIG verification (RFC 4035 5.3) and DS-to-DNSKEY matching (RFC 4034 5). */
import { dataOf, type DnsRecord, recordsOf } from "../dns/records"
import {
  algorithmName,
  dsDigest,
  isRevoked,
  isZoneKey,
  keyTag,
  normName,
  signatureWindow,
  signedData,
  sigTime,
  SUPPORTED_ALGORITHMS,
  SUPPORTED_DIGESTS,
  verifySignature,
  type DnsKey,
  type Rrsig
} from "./crypto"
import type { VerifyOutcome } from "./result"

export const rrsigsOf = (records: ReadonlyArray<DnsRecord>, owner: string, type: string): Array<Rrsig> =>
  recordsOf(records, "RRSIG").filter((r) => normName(r.name) === owner && r.data.typeCovered === type).map((r) => r.data)

export const keysOf = (rrset: ReadonlyArray<DnsRecord>): Array<DnsKey> => dataOf(rrset, "DNSKEY")

/** Is `rrset` (owner, type) signed by one of `keys` of zone `signer` with a valid signature now? */
export const verifyRRset = (
  rrset: ReadonlyArray<DnsRecord>,
  sigs: ReadonlyArray<Rrsig>,
  keys: ReadonlyArray<DnsKey>,
  signer: string,
  nowSeconds: number
): VerifyOutcome => {
  if (rrset.length === 0) return { ok: false, reason: "empty RRset" }
  const label = `${rrset[0].type} ${normName(rrset[0].name) || "."}`
  if (sigs.length === 0) return { ok: false, reason: `no RRSIG over ${label}` }
  const problems: Array<string> = []
  for (const sig of sigs) {
    if (normName(sig.signersName) !== signer) {
      problems.push(`RRSIG over ${label} names signer ${sig.signersName}, expected ${signer || "."}`)
      continue
    }
    if (!SUPPORTED_ALGORITHMS.has(sig.algorithm)) {
      problems.push(`RRSIG over ${label} uses unsupported ${algorithmName(sig.algorithm)}`)
      continue
    }
    const candidates = keys.filter((k) => k.algorithm === sig.algorithm && keyTag(k) === sig.keyTag && isZoneKey(k) && !isRevoked(k))
    if (candidates.length === 0) {
      problems.push(`RRSIG over ${label} (key tag ${sig.keyTag}) has no matching DNSKEY`)
      continue
    }
    const win = signatureWindow(sig, nowSeconds)
    if (win === "expired") {
      problems.push(`RRSIG over ${label} expired at ${sigTime(sig.expiration)}`)
      continue
    }
    if (win === "not_yet_valid") {
      problems.push(`RRSIG over ${label} is not valid before ${sigTime(sig.inception)}`)
      continue
    }
    const data = signedData(sig, rrset)
    if (candidates.some((k) => verifySignature(sig, k, data))) return { ok: true, reason: "", expiration: sig.expiration }
    problems.push(`RRSIG over ${label} (key tag ${sig.keyTag}, ${algorithmName(sig.algorithm)}) does not verify`)
  }
  return { ok: false, reason: problems.join("; ") }
}

/** DNSKEYs of `owner` that a DS (or anchor DS) matches by tag, algorithm and digest. */
export const keysMatchingDs = (
  owner: string,
  keys: ReadonlyArray<DnsKey>,
  ds: ReadonlyArray<{ keyTag: number; algorithm: number; digestType: number; digest: Buffer }>
): Array<DnsKey> =>
  keys.filter((k) =>
    ds.some((d) => {
      if (d.keyTag !== keyTag(k) || d.algorithm !== k.algorithm || !SUPPORTED_DIGESTS.has(d.digestType)) return false
      const digest = dsDigest(owner, k, d.digestType)
      return digest !== undefined && digest.equals(d.digest)
    })
  )
