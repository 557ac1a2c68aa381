/**
 * Walking the chain of trust from the trust anchor's zone down to the zone (RFC 4035 5): the
 * anchor authenticates the top DNSKEY set, then each delegation on the way either has a DS that
 * matches a DNSKEY of the child (secure cut), or a signed proof that it has none (insecure below).
 */
import { Effect } from "effect"
import { dataOf } from "../dns/records"
import type { TrustAnchor } from "./anchors"
import { keyTag, SUPPORTED_ALGORITHMS, SUPPORTED_DIGESTS, type DnsKey } from "./crypto"
import { proveNoDs } from "./denial"
import { type Get, type Verdict, verdict, type Walk } from "./result"
import { keysMatchingDs, keysOf, verifyRRset } from "./rrsig"

const parentOf = (name: string) => (name.includes(".") ? name.slice(name.indexOf(".") + 1) : "")

/** Names from just below `ancestor` down to `name`, top first. */
export const pathBelow = (ancestor: string, name: string): Array<string> => {
  const out: Array<string> = []
  let n = name
  while (n !== ancestor && n !== "") {
    out.unshift(n)
    n = parentOf(n)
  }
  if (n !== ancestor) return []
  return out
}

export const isAncestorOrSelf = (ancestor: string, name: string) => ancestor === "" || name === ancestor || name.endsWith("." + ancestor)

/** The most specific anchor owner at or above `zone`, if any. */
export const coveringAnchor = (anchors: ReadonlyArray<TrustAnchor>, zone: string): TrustAnchor | undefined =>
  anchors.filter((a) => isAncestorOrSelf(a.owner, zone)).sort((a, b) => b.owner.length - a.owner.length)[0]

/** Step 1: the anchor zone's DNSKEY set, authenticated by the anchors of that owner. */
export const authenticateAnchor = (get: Get, w: Walk, anchors: ReadonlyArray<TrustAnchor>, anchorOwner: string, now: number) =>
  Effect.gen(function*() {
    const anchorSet = anchors.filter((a) => a.owner === anchorOwner)
    const top = yield* get(anchorOwner, "DNSKEY")
    if (top._tag === "Left") return verdict("indeterminate", `cannot fetch DNSKEY of ${anchorOwner || "."}: ${top.left.message}`)
    const topKeys = keysOf(top.right.rrset)
    // No DNSKEY at all for the anchor's zone (the root, usually) is the resolvers failing to
    // answer, not a key that fails the anchor: nothing can be judged, so not bogus.
    if (topKeys.length === 0) return verdict("indeterminate", `the resolvers returned no DNSKEY of ${anchorOwner || "."} (${top.right.ans.rcode})`)
    const dsAnchors = anchorSet.flatMap((a) => (a.kind === "DS" ? [a] : []))
    const keyAnchors = anchorSet.flatMap((a) => (a.kind === "DNSKEY" ? [a] : []))
    const trusted = [
      ...keysMatchingDs(anchorOwner, topKeys, dsAnchors),
      ...topKeys.filter((k) => keyAnchors.some((a) => a.algorithm === k.algorithm && a.key.equals(k.key)))
    ]
    if (trusted.length === 0) {
      w.chain.push({ zone: anchorOwner || ".", status: "bogus", detail: "no DNSKEY matches the trust anchor" })
      return verdict("bogus", `no DNSKEY of ${anchorOwner || "."} matches the configured trust anchor`)
    }
    const topCheck = verifyRRset(top.right.rrset, top.right.sigs, trusted, anchorOwner, now)
    if (!topCheck.ok) {
      w.chain.push({ zone: anchorOwner || ".", status: "bogus", detail: topCheck.reason })
      return verdict("bogus", topCheck.reason)
    }
    w.chain.push({ zone: anchorOwner || ".", status: "secure", detail: `DNSKEY set verified by trust anchor key tag ${keyTag(trusted[0])}` })
    return topKeys
  })

/**
 * Step 2: down the tree, one name at a time; a DS marks a secure cut, a proven absent DS at a cut
 * makes everything below insecure. Returns the zone's DNSKEYs when the chain reaches it secure.
 */
export const descend = (get: Get, w: Walk, anchorOwner: string, zone: string, anchorKeys: Array<DnsKey>, now: number) =>
  Effect.gen(function*() {
    let current = anchorOwner
    let keys = anchorKeys
    for (const name of pathBelow(anchorOwner, zone)) {
      const ds = yield* get(name, "DS")
      if (ds._tag === "Left") return verdict("indeterminate", `cannot fetch DS of ${name}: ${ds.left.message}`)
      if (ds.right.ans.rcode === "NXDOMAIN") return verdict("indeterminate", `${name} does not exist (NXDOMAIN)`)
      if (ds.right.rrset.length > 0) {
        if (name === zone) w.dsPresent = true
        const dsCheck = verifyRRset(ds.right.rrset, ds.right.sigs, keys, current, now)
        if (!dsCheck.ok) {
          w.chain.push({ zone: name, status: "bogus", detail: dsCheck.reason })
          return verdict("bogus", dsCheck.reason)
        }
        const dsList = dataOf(ds.right.rrset, "DS")
        const usable = dsList.filter((d) => SUPPORTED_ALGORITHMS.has(d.algorithm) && SUPPORTED_DIGESTS.has(d.digestType))
        if (usable.length === 0) {
          w.chain.push({ zone: name, status: "insecure", detail: "DS records use only unsupported algorithms or digests" })
          return verdict("insecure", `DS records of ${name} use only unsupported algorithms or digest types`)
        }
        const child = yield* get(name, "DNSKEY")
        if (child._tag === "Left") return verdict("indeterminate", `cannot fetch DNSKEY of ${name}: ${child.left.message}`)
        const childKeys = keysOf(child.right.rrset)
        const matched = keysMatchingDs(name, childKeys, usable)
        if (matched.length === 0) {
          const reason = childKeys.length === 0 ? `${name} has a DS at its parent but publishes no DNSKEY` : `no DNSKEY of ${name} matches its DS records`
          w.chain.push({ zone: name, status: "bogus", detail: reason })
          return verdict("bogus", reason)
        }
        const keyCheck = verifyRRset(child.right.rrset, child.right.sigs, matched, name, now)
        if (!keyCheck.ok) {
          w.chain.push({ zone: name, status: "bogus", detail: keyCheck.reason })
          return verdict("bogus", keyCheck.reason)
        }
        w.chain.push({ zone: name, status: "secure", detail: `DS matches DNSKEY key tag ${keyTag(matched[0])}; DNSKEY set verified` })
        current = name
        keys = childKeys
        continue
      }
      // No DS: is `name` a zone cut?
      let isCut = name === zone
      if (!isCut) {
        const soa = yield* get(name, "SOA")
        if (soa._tag === "Left") return verdict("indeterminate", `cannot fetch SOA of ${name}: ${soa.left.message}`)
        isCut = soa.right.rrset.length > 0
      }
      if (!isCut) continue
      const proof = proveNoDs(name, current, ds.right.ans, keys, now)
      if (!proof.ok) {
        w.chain.push({ zone: name, status: "bogus", detail: proof.reason })
        return verdict("bogus", proof.reason)
      }
      w.chain.push({ zone: name, status: "insecure", detail: proof.reason })
      return verdict("insecure", `no DS for ${name} at ${current || "."}: ${proof.reason}`)
    }
    return keys
  }) as Effect.Effect<Verdict | Array<DnsKey>>
