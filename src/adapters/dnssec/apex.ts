/** What the zone itself publishes (keys, NSEC or NSEC3), and, once its chain is secure, its signed apex. */
import { Effect } from "effect"
import type { DnsKey } from "./crypto"
import { dataOf } from "../dns/records"
import { nsec3ParamsOf, proveNonexistence } from "./denial"
import { type Get, verdict, type Walk } from "./result"
import { keysOf, verifyRRset } from "./rrsig"

/** The apex RRsets whose signatures a secure zone must carry (DNSKEY and SOA must be fetchable). */
export const APEX_TYPES = ["DNSKEY", "SOA", "NS", "A", "AAAA", "MX", "TXT", "CAA"] as const

/** For the report even when the chain is not secure: signed?, algorithms, and the denial kind. */
export const zoneFacts = (get: Get, w: Walk, zone: string) =>
  Effect.gen(function*() {
    const own = yield* get(zone, "DNSKEY")
    if (own._tag === "Right") {
      const keys = keysOf(own.right.rrset)
      w.signed = keys.length > 0
      w.algorithms = [...new Set(keys.map((k) => k.algorithm))].sort((a, b) => a - b)
    }
    if (!w.signed) return
    const np = yield* get(zone, "NSEC3PARAM")
    const param = np._tag === "Right" ? dataOf(np.right.rrset, "NSEC3PARAM")[0] : undefined
    if (param) {
      w.nsec3 = nsec3ParamsOf(param)
      w.denial = "nsec3"
    } else if (np._tag === "Right" && np.right.ans.rcode === "NOERROR") {
      w.denial = "nsec" // signed, no NSEC3PARAM at the apex: NSEC chain
    }
  })

/**
 * Step 3: the zone is secure by its chain, so every apex RRset must carry a valid signature by
 * its keys, and a random name (`probe`) must be denied with a verifiable NSEC or NSEC3 proof.
 */
export const verifyApex = (get: Get, w: Walk, zone: string, probe: string, keys: ReadonlyArray<DnsKey>, now: number) =>
  Effect.gen(function*() {
    for (const type of APEX_TYPES) {
      const f = yield* get(zone, type)
      if (f._tag === "Left") {
        if (type === "DNSKEY" || type === "SOA") return verdict("indeterminate", `cannot fetch ${type} of ${zone}: ${f.left.message}`)
        continue
      }
      if (f.right.rrset.length === 0) continue
      const check = verifyRRset(f.right.rrset, f.right.sigs, keys, zone, now)
      if (!check.ok) return verdict("bogus", check.reason)
      w.verified.push(type)
      if (check.expiration !== undefined && (w.earliest === undefined || check.expiration < w.earliest)) w.earliest = check.expiration
    }
    const nx = yield* get(probe, "A")
    if (nx._tag === "Right") {
      const denied = proveNonexistence(w, probe, zone, nx.right.ans, keys, now)
      if (denied) return denied
    }
    return verdict("secure", null)
  })
