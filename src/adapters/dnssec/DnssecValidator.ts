/**
 * DNSSEC chain-of-trust validation from a trust anchor down to a zone, done here rather than
 * trusting a resolver's AD bit: every query goes to the recursive resolvers with DO and CD set,
 * and this code checks DS↔DNSKEY digests, RRSIGs in canonical form and validity windows (Clock).
 *
 * Result: `secure` (chain verified to the zone and its apex RRsets verified), `insecure` (a
 * delegation on the way is proven unsigned, or uses only unsupported algorithms), `bogus` (a
 * signature, digest or proof fails; the reason says which), or `indeterminate` (no anchor covers
 * the zone, or the data could not be fetched).
 */
import { Clock, Context, Effect, Either, Layer, Option } from "effect"
import type * as packet from "dns-packet"
import { readFileSync } from "node:fs"
import { AppConfig } from "../../platform/Config"
import { DnsResolver, type DnsAnswerSet, type DnsError } from "../dns/DnsResolver"
import { builtinAnchors, parseTrustAnchors, type TrustAnchor } from "./anchors"
import {
  algorithmName,
  base32hex as base32,
  dsDigest,
  isRevoked,
  isZoneKey,
  keyTag,
  normName,
  nsec3Hash,
  signatureWindow,
  signedData,
  sigTime,
  SUPPORTED_ALGORITHMS,
  SUPPORTED_DIGESTS,
  verifySignature,
  type DnsKey,
  type Rrsig
} from "./crypto"

export type DnssecStatus = "secure" | "insecure" | "bogus" | "indeterminate"

export interface Nsec3Params {
  readonly algorithm: number
  readonly iterations: number
  readonly salt: string
  readonly opt_out: boolean
}

export interface ChainLink {
  readonly zone: string
  readonly status: "secure" | "insecure" | "bogus" | "indeterminate"
  readonly detail: string
}

export interface DnssecResult {
  readonly status: DnssecStatus
  readonly reason: string | null
  /** The zone publishes DNSKEY records. */
  readonly signed: boolean
  /** The parent publishes a DS for the zone. */
  readonly ds_present: boolean
  readonly algorithms: ReadonlyArray<number>
  /** NSEC, NSEC3 or null (not signed or not observed). */
  readonly denial: "nsec" | "nsec3" | null
  readonly nsec3: Nsec3Params | null
  /** RFC 9276: zero extra iterations and an empty salt. True for NSEC zones; null when unsigned. */
  readonly nsec3_compliant: boolean | null
  readonly chain: ReadonlyArray<ChainLink>
  /** RRsets whose signatures were verified at the zone. */
  readonly verified_rrsets: ReadonlyArray<string>
  /** Earliest expiration among the verified zone signatures. */
  readonly earliest_expiration: string | null
}

interface Fetched {
  readonly ans: DnsAnswerSet
  readonly rrset: ReadonlyArray<packet.Answer>
  readonly sigs: ReadonlyArray<Rrsig>
}

const rrsigsOf = (records: ReadonlyArray<packet.Answer>, owner: string, type: string): Array<Rrsig> =>
  records
    .filter((r) => r.type === "RRSIG" && normName(r.name) === owner && (r as any).data?.typeCovered === type)
    .map((r) => (r as any).data as Rrsig)

const keysOf = (rrset: ReadonlyArray<packet.Answer>): Array<DnsKey> =>
  rrset.filter((r) => r.type === "DNSKEY").map((r) => (r as any).data as DnsKey)

export interface VerifyOutcome {
  readonly ok: boolean
  readonly reason: string
  readonly expiration?: number
}

/** Is `rrset` (owner, type) signed by one of `keys` of zone `signer` with a valid signature now? */
export const verifyRRset = (
  rrset: ReadonlyArray<packet.Answer>,
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

/** Parses NSEC3PARAM RDATA (dns-packet leaves type 51 as raw bytes). */
export const parseNsec3Param = (raw: Buffer): Nsec3Params | undefined => {
  if (!Buffer.isBuffer(raw) || raw.length < 5) return undefined
  const saltLen = raw[4]
  if (raw.length < 5 + saltLen) return undefined
  return { algorithm: raw[0], iterations: raw.readUInt16BE(2), salt: raw.subarray(5, 5 + saltLen).toString("hex"), opt_out: (raw[1] & 1) === 1 }
}

export const nsec3IsCompliant = (p: Nsec3Params) => p.iterations === 0 && p.salt.length === 0

const parentOf = (name: string) => (name.includes(".") ? name.slice(name.indexOf(".") + 1) : "")

/** Names from just below `ancestor` down to `name`, top first. */
const pathBelow = (ancestor: string, name: string): Array<string> => {
  const out: Array<string> = []
  let n = name
  while (n !== ancestor && n !== "") {
    out.unshift(n)
    n = parentOf(n)
  }
  if (n !== ancestor) return []
  return out
}

const isAncestorOrSelf = (ancestor: string, name: string) => ancestor === "" || name === ancestor || name.endsWith("." + ancestor)

/** One RRset judged by the validator: its records and whether the chain from the anchor vouches for them. */
export interface RRsetValidation {
  readonly status: DnssecStatus
  readonly reason: string | null
  readonly rcode: string
  readonly records: ReadonlyArray<packet.Answer>
}

export interface DnssecValidatorShape {
  readonly validateZone: (zone: string) => Effect.Effect<DnssecResult>
  /**
   * An RRset (DANE's TLSA) fetched with DO and CD, secure only when its signer zone is secure and
   * one of that zone's verified keys signs it. An empty answer carries its zone's status (the
   * denial of that one name is not itself proven). Lookup failures are the error channel.
   */
  readonly validateRRset: (name: string, type: string) => Effect.Effect<RRsetValidation, DnsError>
}

export const makeValidator = (anchors: ReadonlyArray<TrustAnchor>, resolver: DnsResolver["Type"]): DnssecValidatorShape => {
  const fetch = (name: string, type: string): Effect.Effect<Fetched, DnsError> =>
    resolver.query({ name: name || ".", type, dnssec: true, checkingDisabled: true }).pipe(
      Effect.map((ans) => ({
        ans,
        rrset: ans.answers.filter((r) => r.type === type && normName(r.name) === name),
        sigs: rrsigsOf(ans.answers, name, type)
      }))
    )

  // The DNSKEY set each secure result was verified with (validateRRset signs RRsets with it).
  const zoneKeys = new WeakMap<DnssecResult, ReadonlyArray<DnsKey>>()
  const validateZone = Effect.fn("DnssecValidator.validateZone")(function*(zoneIn: string) {
    const zone = normName(zoneIn)
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const chain: Array<ChainLink> = []
    let signed = false
    let dsPresent = false
    let algorithms: Array<number> = []
    let denial: "nsec" | "nsec3" | null = null
    let nsec3: Nsec3Params | null = null
    const verified: Array<string> = []
    let earliest: number | undefined

    // Every query the walk may need, fetched at once (the walk itself then costs no round trips).
    const memo = new Map<string, Either.Either<Fetched, DnsError>>()
    const get = (name: string, type: string): Effect.Effect<Either.Either<Fetched, DnsError>> => {
      const k = `${name}|${type}`
      const hit = memo.get(k)
      if (hit) return Effect.succeed(hit)
      return Effect.tap(Effect.either(fetch(name, type)), (r) => Effect.sync(() => memo.set(k, r)))
    }
    const probe = `_dnssec-probe-${Math.random().toString(36).slice(2, 10)}.${zone}`
    {
      const coveringAnchor = anchors.filter((a) => isAncestorOrSelf(a.owner, zone)).sort((a, b) => b.owner.length - a.owner.length)[0]
      const wanted: Array<[string, string]> = [
        ...["DNSKEY", "NSEC3PARAM", "SOA", "NS", "A", "AAAA", "MX", "TXT", "CAA"].map((t): [string, string] => [zone, t]),
        [probe, "A"]
      ]
      if (coveringAnchor) {
        wanted.push([coveringAnchor.owner, "DNSKEY"])
        for (const n of pathBelow(coveringAnchor.owner, zone)) wanted.push([n, "DS"], [n, "DNSKEY"], [n, "SOA"])
      }
      yield* Effect.forEach(wanted, ([n, t]) => get(n, t), { concurrency: "unbounded", discard: true })
    }

    const result = (status: DnssecStatus, reason: string | null): DnssecResult => ({
      status,
      reason,
      signed,
      ds_present: dsPresent,
      algorithms,
      denial,
      nsec3,
      nsec3_compliant: nsec3 ? nsec3IsCompliant(nsec3) : denial === "nsec" ? true : signed ? null : null,
      chain,
      verified_rrsets: verified,
      earliest_expiration: earliest === undefined ? null : sigTime(earliest)
    })

    // What the zone itself publishes (for the report even when the chain is not secure).
    const own = yield* get(zone, "DNSKEY")
    if (own._tag === "Right") {
      const keys = keysOf(own.right.rrset)
      signed = keys.length > 0
      algorithms = [...new Set(keys.map((k) => k.algorithm))].sort((a, b) => a - b)
    }
    if (signed) {
      const np = yield* get(zone, "NSEC3PARAM")
      if (np._tag === "Right" && np.right.rrset.length > 0) {
        const p = parseNsec3Param((np.right.rrset[0] as any).data)
        if (p) {
          nsec3 = p
          denial = "nsec3"
        }
      } else if (np._tag === "Right" && np.right.ans.rcode === "NOERROR") {
        denial = "nsec" // signed, no NSEC3PARAM at the apex: NSEC chain
      }
    }

    const anchor = anchors
      .filter((a) => isAncestorOrSelf(a.owner, zone))
      .sort((a, b) => b.owner.length - a.owner.length)[0]
    if (!anchor) return result("indeterminate", `no trust anchor covers ${zone || "."}`)
    const anchorOwner = anchor.owner
    const anchorSet = anchors.filter((a) => a.owner === anchorOwner)

    // 1. The anchor zone's DNSKEY set, authenticated by the anchor.
    const top = yield* get(anchorOwner, "DNSKEY")
    if (top._tag === "Left") return result("indeterminate", `cannot fetch DNSKEY of ${anchorOwner || "."}: ${top.left.message}`)
    const topKeys = keysOf(top.right.rrset)
    // No DNSKEY at all for the anchor's zone (the root, usually) is the resolvers failing to
    // answer, not a key that fails the anchor: nothing can be judged, so not bogus.
    if (topKeys.length === 0) return result("indeterminate", `the resolvers returned no DNSKEY of ${anchorOwner || "."} (${top.right.ans.rcode})`)
    const dsAnchors = anchorSet.flatMap((a) => (a.kind === "DS" ? [a] : []))
    const keyAnchors = anchorSet.flatMap((a) => (a.kind === "DNSKEY" ? [a] : []))
    const trusted = [
      ...keysMatchingDs(anchorOwner, topKeys, dsAnchors),
      ...topKeys.filter((k) => keyAnchors.some((a) => a.algorithm === k.algorithm && a.key.equals(k.key)))
    ]
    if (trusted.length === 0) {
      chain.push({ zone: anchorOwner || ".", status: "bogus", detail: "no DNSKEY matches the trust anchor" })
      return result("bogus", `no DNSKEY of ${anchorOwner || "."} matches the configured trust anchor`)
    }
    const topCheck = verifyRRset(top.right.rrset, top.right.sigs, trusted, anchorOwner, now)
    if (!topCheck.ok) {
      chain.push({ zone: anchorOwner || ".", status: "bogus", detail: topCheck.reason })
      return result("bogus", topCheck.reason)
    }
    chain.push({ zone: anchorOwner || ".", status: "secure", detail: `DNSKEY set verified by trust anchor key tag ${keyTag(trusted[0])}` })
    let current = anchorOwner
    let keys = topKeys

    // 2. Down the tree, one name at a time; a DS marks a secure cut, a proven absent DS at a cut
    // makes everything below insecure.
    for (const name of pathBelow(anchorOwner, zone)) {
      const ds = yield* get(name, "DS")
      if (ds._tag === "Left") return result("indeterminate", `cannot fetch DS of ${name}: ${ds.left.message}`)
      if (ds.right.ans.rcode === "NXDOMAIN") return result("indeterminate", `${name} does not exist (NXDOMAIN)`)
      if (ds.right.rrset.length > 0) {
        dsPresent = name === zone ? true : dsPresent
        const dsCheck = verifyRRset(ds.right.rrset, ds.right.sigs, keys, current, now)
        if (!dsCheck.ok) {
          chain.push({ zone: name, status: "bogus", detail: dsCheck.reason })
          return result("bogus", dsCheck.reason)
        }
        const dsList = ds.right.rrset.map((r) => (r as any).data as { keyTag: number; algorithm: number; digestType: number; digest: Buffer })
        const usable = dsList.filter((d) => SUPPORTED_ALGORITHMS.has(d.algorithm) && SUPPORTED_DIGESTS.has(d.digestType))
        if (usable.length === 0) {
          chain.push({ zone: name, status: "insecure", detail: "DS records use only unsupported algorithms or digests" })
          return result("insecure", `DS records of ${name} use only unsupported algorithms or digest types`)
        }
        const child = yield* get(name, "DNSKEY")
        if (child._tag === "Left") return result("indeterminate", `cannot fetch DNSKEY of ${name}: ${child.left.message}`)
        const childKeys = keysOf(child.right.rrset)
        const matched = keysMatchingDs(name, childKeys, usable)
        if (matched.length === 0) {
          const reason = childKeys.length === 0 ? `${name} has a DS at its parent but publishes no DNSKEY` : `no DNSKEY of ${name} matches its DS records`
          chain.push({ zone: name, status: "bogus", detail: reason })
          return result("bogus", reason)
        }
        const keyCheck = verifyRRset(child.right.rrset, child.right.sigs, matched, name, now)
        if (!keyCheck.ok) {
          chain.push({ zone: name, status: "bogus", detail: keyCheck.reason })
          return result("bogus", keyCheck.reason)
        }
        chain.push({ zone: name, status: "secure", detail: `DS matches DNSKEY key tag ${keyTag(matched[0])}; DNSKEY set verified` })
        current = name
        keys = childKeys
        continue
      }
      // No DS: is `name` a zone cut?
      let isCut = name === zone
      if (!isCut) {
        const soa = yield* get(name, "SOA")
        if (soa._tag === "Left") return result("indeterminate", `cannot fetch SOA of ${name}: ${soa.left.message}`)
        isCut = soa.right.rrset.length > 0
      }
      if (!isCut) continue
      const proof = proveNoDs(name, current, ds.right.ans, keys, now)
      if (!proof.ok) {
        chain.push({ zone: name, status: "bogus", detail: proof.reason })
        return result("bogus", proof.reason)
      }
      chain.push({ zone: name, status: "insecure", detail: proof.reason })
      return result("insecure", `no DS for ${name} at ${current || "."}: ${proof.reason}`)
    }

    // 3. The zone is secure by its chain: every apex RRset must carry a valid signature.
    for (const type of ["DNSKEY", "SOA", "NS", "A", "AAAA", "MX", "TXT", "CAA"]) {
      const f = yield* get(zone, type)
      if (f._tag === "Left") {
        if (type === "DNSKEY" || type === "SOA") return result("indeterminate", `cannot fetch ${type} of ${zone}: ${f.left.message}`)
        continue
      }
      if (f.right.rrset.length === 0) continue
      const check = verifyRRset(f.right.rrset, f.right.sigs, keys, zone, now)
      if (!check.ok) return result("bogus", check.reason)
      verified.push(type)
      if (check.expiration !== undefined && (earliest === undefined || check.expiration < earliest)) earliest = check.expiration
    }
    // Denial of existence: a random name must be denied with a verifiable NSEC or NSEC3 proof.
    const nxf = yield* get(probe, "A")
    const nx = Either.map(nxf, (f) => f.ans)
    if (nx._tag === "Right" && (nx.right.rcode === "NXDOMAIN" || nx.right.answers.length === 0)) {
      const auth = nx.right.authorities
      const groups = new Map<string, Array<packet.Answer>>()
      for (const r of auth) {
        if (r.type !== "NSEC" && r.type !== "NSEC3") continue
        const k = `${normName(r.name)} ${r.type}`
        groups.set(k, [...(groups.get(k) ?? []), r])
      }
      if (groups.size === 0) return result("bogus", `denial of existence for ${probe} carries no NSEC or NSEC3 records`)
      for (const rrset of groups.values()) {
        if (rrset[0].type === "NSEC3") {
          denial = "nsec3"
          if (!nsec3) {
            const d: any = (rrset[0] as any).data
            nsec3 = { algorithm: d.algorithm, iterations: d.iterations, salt: Buffer.from(d.salt).toString("hex"), opt_out: (d.flags & 1) === 1 }
          }
        } else denial = denial ?? "nsec"
        const check = verifyRRset(rrset, rrsigsOf(auth, normName(rrset[0].name), rrset[0].type), keys, zone, now)
        if (!check.ok) return result("bogus", `denial of existence: ${check.reason}`)
      }
      verified.push(denial === "nsec3" ? "NSEC3" : "NSEC")
    }
    const secure = result("secure", null)
    zoneKeys.set(secure, keys)
    return secure
  }, (eff) => Effect.catchAllDefect(eff, (d) => Effect.succeed<DnssecResult>({
    status: "indeterminate", reason: `validator error: ${String(d)}`, signed: false, ds_present: false, algorithms: [], denial: null,
    nsec3: null, nsec3_compliant: null, chain: [], verified_rrsets: [], earliest_expiration: null
  })))

  const validateRRset = Effect.fn("DnssecValidator.validateRRset")(function*(nameIn: string, type: string) {
    const name = normName(nameIn)
    const f = yield* fetch(name, type)
    const base = { rcode: f.ans.rcode, records: f.rrset }
    // The zone that signs the answer: the RRSIG's signer, or for an empty answer the SOA owner.
    const soa = f.ans.authorities.find((r) => r.type === "SOA")
    const zone = f.sigs.length > 0 ? normName(f.sigs[0].signersName) : soa ? normName(soa.name) : null
    if (zone === null || !isAncestorOrSelf(zone, name)) {
      // Unsigned records: find their zone (the SOA a SOA query for the name returns) and judge
      // it: unsigned data in a zone proven insecure is insecure, in a secure zone it is bogus.
      const s = yield* fetch(name, "SOA")
      const owner = [...s.ans.answers, ...s.ans.authorities].find((r) => r.type === "SOA")
      if (!owner || !isAncestorOrSelf(normName(owner.name), name)) return { ...base, status: "indeterminate" as const, reason: `no zone found for ${name}` }
      const z = yield* validateZone(normName(owner.name))
      return { ...base, status: z.status === "secure" ? "bogus" as const : z.status, reason: z.status === "secure" ? `no RRSIG over ${type} ${name} in a signed zone` : z.reason }
    }
    const z = yield* validateZone(zone)
    if (z.status !== "secure") return { ...base, status: z.status, reason: z.reason }
    if (f.rrset.length === 0) return { ...base, status: "secure" as const, reason: null }
    const keys = zoneKeys.get(z) ?? []
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const check = verifyRRset(f.rrset, f.sigs, keys, zone, now)
    return { ...base, status: check.ok ? "secure" as const : "bogus" as const, reason: check.ok ? null : check.reason }
  })

  return { validateZone, validateRRset }
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

export class DnssecValidator extends Context.Tag("domain-intel/DnssecValidator")<DnssecValidator, DnssecValidatorShape>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const resolver = yield* DnsResolver
      const anchors = yield* Option.match(config.dnssecTrustAnchors, {
        onNone: () => Effect.succeed(builtinAnchors),
        onSome: (file) =>
          Effect.try(() => parseTrustAnchors(readFileSync(file, "utf8"))).pipe(
            Effect.orDieWith((e) => new Error(`DNSSEC_TRUST_ANCHORS=${file}: ${String((e as any)?.error ?? e)}`))
          )
      })
      return makeValidator(anchors, resolver)
    })
  )
}
