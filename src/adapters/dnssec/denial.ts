/** Authenticated denial of existence: NSEC (RFC 4035) and NSEC3 (RFC 5155) proofs. */
import type * as packet from "dns-packet"
import type { DnsAnswerSet } from "../dns/DnsResolver"
import { base32hex as base32, normName, nsec3Hash, type DnsKey } from "./crypto"
import { type Nsec3Params, type Verdict, verdict, type VerifyOutcome, type Walk } from "./result"
import { rrsigsOf, verifyRRset } from "./rrsig"

/** Parses NSEC3PARAM RDATA (dns-packet leaves type 51 as raw bytes). */
export const parseNsec3Param = (raw: Buffer): Nsec3Params | undefined => {
  if (!Buffer.isBuffer(raw) || raw.length < 5) return undefined
  const saltLen = raw[4]
  if (raw.length < 5 + saltLen) return undefined
  return { algorithm: raw[0], iterations: raw.readUInt16BE(2), salt: raw.subarray(5, 5 + saltLen).toString("hex"), opt_out: (raw[1] & 1) === 1 }
}

/**
 * Proof that `name` has no DS in `parent` (RFC 4035 5.2, RFC 5155 8.6/8.9): a signed NSEC at
 * `name` without the DS bit, a signed NSEC3 matching its hash without the DS bit, or an opt-out
 * NSEC3 covering it.
 */
export const proveNoDs = (
  name: string,
  parent: string,
  ans: DnsAnswerSet,
  keys: ReadonlyArray<DnsKey>,
  now: number
): VerifyOutcome => {
  const auth = ans.authorities
  const nsec = auth.filter((r) => r.type === "NSEC" && normName(r.name) === name)
  if (nsec.length > 0) {
    const types: ReadonlyArray<string> = (nsec[0] as any).data?.rrtypes ?? []
    if (types.includes("DS")) return { ok: false, reason: `NSEC at ${name} claims a DS exists but none was returned` }
    const check = verifyRRset(nsec, rrsigsOf(auth, name, "NSEC"), keys, parent, now)
    return check.ok ? { ok: true, reason: "signed NSEC proves the delegation is unsigned" } : { ok: false, reason: `NSEC proving no DS: ${check.reason}` }
  }
  const nsec3 = auth.filter((r) => r.type === "NSEC3")
  for (const r of nsec3) {
    const d: any = (r as any).data
    const hash = nsec3Hash(name, Buffer.from(d.salt), d.iterations)
    const ownerHash = normName(r.name).split(".")[0]
    const next = base32(Buffer.from(d.nextDomain))
    const matches = ownerHash === hash
    const covers = ownerHash < next ? ownerHash < hash && hash < next : ownerHash < hash || hash < next
    if (!matches && !(covers && (d.flags & 1) === 1)) continue
    const types: ReadonlyArray<string> = d.rrtypes ?? []
    if (matches && types.includes("DS")) return { ok: false, reason: `NSEC3 for ${name} claims a DS exists but none was returned` }
    const check = verifyRRset([r], rrsigsOf(auth, normName(r.name), "NSEC3"), keys, parent, now)
    return check.ok
      ? { ok: true, reason: matches ? "signed NSEC3 proves the delegation is unsigned" : "signed opt-out NSEC3 covers the delegation" }
      : { ok: false, reason: `NSEC3 proving no DS: ${check.reason}` }
  }
  return { ok: false, reason: `no DS for ${name} and no signed NSEC/NSEC3 proof of its absence from ${parent || "."}` }
}

/**
 * A random name under a secure zone must be denied with NSEC or NSEC3 records signed by the
 * zone's keys. Records what the proof shows (denial kind, NSEC3 parameters, the verified set)
 * in `w`; a bogus verdict when the proof is missing or does not verify, undefined when it holds.
 */
export const proveNonexistence = (
  w: Walk,
  probe: string,
  zone: string,
  ans: DnsAnswerSet,
  keys: ReadonlyArray<DnsKey>,
  now: number
): Verdict | undefined => {
  if (!(ans.rcode === "NXDOMAIN" || ans.answers.length === 0)) return undefined
  const auth = ans.authorities
  const groups = new Map<string, Array<packet.Answer>>()
  for (const r of auth) {
    if (r.type !== "NSEC" && r.type !== "NSEC3") continue
    const k = `${normName(r.name)} ${r.type}`
    groups.set(k, [...(groups.get(k) ?? []), r])
  }
  if (groups.size === 0) return verdict("bogus", `denial of existence for ${probe} carries no NSEC or NSEC3 records`)
  for (const rrset of groups.values()) {
    if (rrset[0].type === "NSEC3") {
      w.denial = "nsec3"
      if (!w.nsec3) {
        const d: any = (rrset[0] as any).data
        w.nsec3 = { algorithm: d.algorithm, iterations: d.iterations, salt: Buffer.from(d.salt).toString("hex"), opt_out: (d.flags & 1) === 1 }
      }
    } else w.denial = w.denial ?? "nsec"
    const check = verifyRRset(rrset, rrsigsOf(auth, normName(rrset[0].name), rrset[0].type), keys, zone, now)
    if (!check.ok) return verdict("bogus", `denial of existence: ${check.reason}`)
  }
  w.verified.push(w.denial === "nsec3" ? "NSEC3" : "NSEC")
  return undefined
}
