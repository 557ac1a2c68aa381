/**
 * One zone's validation: every query the walk may need is fetched at once through the recursive
 * resolvers with DO and CD set (so the walk itself costs no round trips, and the resolver's own
 * validation does not hide bogus data), then the zone's facts, the chain and the apex are judged.
 */
import { Clock, Effect, Either } from "effect"
import type { DnsError, DnsResolverShape } from "../dns/DnsResolver"
import type { TrustAnchor } from "./anchors"
import { verifyApex, zoneFacts } from "./apex"
import { normName } from "./crypto"
import { type DnssecResult, type Fetched, finish, type Get, isVerdict, newWalk, verdict } from "./result"
import { rrsigsOf } from "./rrsig"
import { authenticateAnchor, coveringAnchor, descend, pathBelow } from "./walk"

export interface DnssecValidatorShape {
  readonly validateZone: (zone: string) => Effect.Effect<DnssecResult>
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
        rrset: ans.answers.filter((r) => r.type === type && normName(r.name) === name),
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
    return finish(w, yield* verifyApex(get, w, zone, probe, keys, now))
  }, (eff) => Effect.catchAllDefect(eff, (d) => Effect.succeed(failed(d))))

  return { validateZone }
}
