/**
 * One zone's validation: every query the walk may need is fetched at once through the recursive
 * resolvers with DO and CD set (so the walk itself costs no round trips, and the resolver's own
 * validation does not hide bogus data), then the zone's facts, the chain and the apex are judged.
 */
import { Clock, Effect, Either } from "effect"
import type { DnsError, DnsResolverShape } from "../dns/DnsResolver"
import { type DnsRecord, typeNameOf } from "../dns/records"
import type { TrustAnchor } from "./anchors"
import { verifyApex, zoneFacts } from "./apex"
import { type DnsKey, normName } from "./crypto"
import { type DnssecResult, type DnssecStatus, type Fetched, finish, type Get, isVerdict, newWalk, verdict } from "./result"
import { rrsigsOf, verifyRRset } from "./rrsig"
import { authenticateAnchor, coveringAnchor, descend, isAncestorOrSelf, pathBelow } from "./walk"

/** One RRset judged by the validator: its records and whether the chain from the anchor vouches for them. */
export interface RRsetValidation {
  readonly status: DnssecStatus
  readonly reason: string | null
  readonly rcode: string
  readonly records: ReadonlyArray<DnsRecord>
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

const failed = (d: unknown): DnssecResult => ({
  status: "indeterminate", reason: `validator error: ${String(d)}`, signed: false, ds_present: false, algorithms: [], denial: null,
  nsec3: null, nsec3_compliant: null, chain: [], verified_rrsets: [], earliest_expiration: null
})

export const makeValidator = (anchors: ReadonlyArray<TrustAnchor>, resolver: DnsResolverShape): DnssecValidatorShape => {
  const fetch = (name: string, type: string): Effect.Effect<Fetched, DnsError> =>
    resolver.query({ name: name || ".", type, dnssec: true, checkingDisabled: true }).pipe(
      Effect.map((ans) => ({
        ans,
        rrset: ans.answers.filter((r) => typeNameOf(r) === type && normName(r.name) === name),
        sigs: rrsigsOf(ans.answers, name, type)
      }))
    )

  /** A fetch made once per validation (the walk asks some names twice). */
  const memoised = (): Get => {
    const memo = new Map<string, Either.Either<Fetched, DnsError>>()
    return (name, type) => {
      const k = `${name}|${type}`
      const hit = memo.get(k)
      if (hit) return Effect.succeed(hit)
      return Effect.tap(Effect.either(fetch(name, type)), (r) => Effect.sync(() => memo.set(k, r)))
    }
  }

  // The DNSKEY set each secure result was verified with (validateRRset signs RRsets with it).
  const zoneKeys = new WeakMap<DnssecResult, ReadonlyArray<DnsKey>>()
  const validateZone = Effect.fn("DnssecValidator.validateZone")(function*(zoneIn: string) {
    const zone = normName(zoneIn)
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const w = newWalk()
    const get = memoised()
    const probe = `_dnssec-probe-${Math.random().toString(36).slice(2, 10)}.${zone}`
    const anchor = coveringAnchor(anchors, zone)
    const wanted: Array<[string, string]> = [
      ...["DNSKEY", "NSEC3PARAM", "SOA", "NS", "A", "AAAA", "MX", "TXT", "CAA"].map((t): [string, string] => [zone, t]),
      [probe, "A"]
    ]
    if (anchor) {
      wanted.push([anchor.owner, "DNSKEY"])
      for (const n of pathBelow(anchor.owner, zone)) wanted.push([n, "DS"], [n, "DNSKEY"], [n, "SOA"])
    }
    yield* Effect.forEach(wanted, ([n, t]) => get(n, t), { concurrency: "unbounded", discard: true })

    yield* zoneFacts(get, w, zone)
    if (!anchor) return finish(w, verdict("indeterminate", `no trust anchor covers ${zone || "."}`))
    const top = yield* authenticateAnchor(get, w, anchors, anchor.owner, now)
    if (isVerdict(top)) return finish(w, top)
    const keys = yield* descend(get, w, anchor.owner, zone, top, now)
    if (isVerdict(keys)) return finish(w, keys)
    const result = finish(w, yield* verifyApex(get, w, zone, probe, keys, now))
    if (result.status === "secure") zoneKeys.set(result, keys)
    return result
  }, (eff) => Effect.catchAllDefect(eff, (d) => Effect.succeed(failed(d))))

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
