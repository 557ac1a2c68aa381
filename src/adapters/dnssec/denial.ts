/** Authenticated denial of existence: NSEC (RFC 4035) and NSEC3 (RFC 5155) proofs. */
import type { DnsAnswerSet } from "../dns/DnsResolver"
import { type DnsRecord, type Nsec3Data, type Nsec3ParamData, recordsOf } from "../dns/records"
import { base32hex as base32, normName, nsec3Hash, type DnsKey } from "./crypto"
import { type Nsec3Params, type Verdict, verdict, type VerifyOutcome, type Walk } from "./result"
import { rrsigsOf, verifyRRset } from "./rrsig"

/** The NSEC3 parameters of an NSEC3PARAM or NSEC3 record, for the report (RFC 5155 §3.1, §4.1). */
export const nsec3ParamsOf = (d: Nsec3Data | Nsec3ParamData): Nsec3Params =>
  ({ algorithm: d.algorithm, iterations: d.iterations, salt: d.salt.toString("hex"), opt_out: (d.flags & 1) === 1 })

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
  const nsec = recordsOf(auth, "NSEC").filter((r) => normName(r.name) === name)
  if (nsec.length > 0) {
    if (nsec[0].data.rrtypes.includes("DS")) return { ok: false, reason: `NSEC at ${name} claims a DS exists but none was returned` }
    const check = verifyRRset(nsec, rrsigsOf(auth, name, "NSEC"), keys, parent, now)
    return check.ok ? { ok: true, reason: "signed NSEC proves the delegation is unsigned" } : { ok: false, reason: `NSEC proving no DS: ${check.reason}` }
  }
  for (const r of recordsOf(auth, "NSEC3")) {
    const d = r.data
    const hash = nsec3Hash(name, d.salt, d.iterations)
    const ownerHash = normName(r.name).split(".")[0]
    const next = base32(d.nextDomain)
    const matches = ownerHash === hash
    const covers = ownerHash < next ? ownerHash < hash && hash < next : ownerHash < hash || hash < next
    if (!matches && !(covers && (d.flags & 1) === 1)) continue
    if (matches && d.rrtypes.includes("DS")) return { ok: false, reason: `NSEC3 for ${name} claims a DS exists but none was returned` }
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
  const groups = new Map<string, Array<DnsRecord>>()
  for (const r of auth) {
    if (r.type !== "NSEC" && r.type !== "NSEC3") continue
    const k = `${normName(r.name)} ${r.type}`
    groups.set(k, [...(groups.get(k) ?? []), r])
  }
  if (groups.size === 0) return verdict("bogus", `denial of existence for ${probe} carries no NSEC or NSEC3 records`)
  for (const rrset of groups.values()) {
    const first = rrset[0]
    if (first.type === "NSEC3") {
      w.denial = "nsec3"
      if (!w.nsec3) w.nsec3 = nsec3ParamsOf(first.data)
    } else w.denial = w.denial ?? "nsec"
    const check = verifyRRset(rrset, rrsigsOf(auth, normName(rrset[0].name), rrset[0].type), keys, zone, now)
    if (!check.ok) return verdict("bogus", `denial of existence: ${check.reason}`)
  }
  w.verified.push(w.denial === "nsec3" ? "NSEC3" : "NSEC")
  return undefined
}
