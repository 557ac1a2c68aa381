/**
 * Where a takeover check finds names besides the domain, the caller's list and the word list
 * (docs/operations/takeover.md, "The names checked"): the certificates CT logs hold for the
 * domain (the CT logs operation's inventory, through `CtAggregator`), and a zone transfer where
 * one of the domain's name servers allows it (RFC 5936, the zone hygiene AXFR adapter). Neither
 * source failing fails the check: CT failing is a limitation; a refused transfer is the norm.
 */
import { Duration, Effect } from "effect"
import type { CtAggregatorShape } from "../../adapters/ct/CtAggregator"
import { axfr } from "../../adapters/dns/axfr"
import type { DirectAsk } from "./delegations"
import { norm } from "./lookups"

export interface Found {
  readonly names: ReadonlyArray<string>
  readonly limitations: ReadonlyArray<string>
}

/** Every SAN (and common name) of the domain's logged certificates; which are under the domain is names.ts's decision. */
export const ctNames = (ct: CtAggregatorShape, domain: string, timeoutMs: number): Effect.Effect<Found> =>
  ct.search(domain).pipe(
    Effect.timeoutFail({ duration: Duration.millis(timeoutMs), onTimeout: () => ({ message: `no answer within ${timeoutMs} ms` }) }),
    Effect.map((entries): Found => ({ names: [...new Set(entries.flatMap((e) => (e.common_name === null ? e.names : [...e.names, e.common_name])))], limitations: [] })),
    Effect.catchAll((e) => Effect.succeed<Found>({ names: [], limitations: [`Certificate transparency could not be read (${e.message}); names seen only there were not checked`] }))
  )

/** A transfer bigger than this is not used (a hostile server could send without end). */
const MAX_TRANSFER_RECORDS = 50_000

export interface Transfer extends Found {
  /** Delegations the zone holds (NS sets below its apex), by name. */
  readonly delegations: ReadonlyMap<string, ReadonlyArray<string>>
  /** The name server that allowed the transfer, or null. */
  readonly from: string | null
}

/**
 * The zone's names through AXFR from the first of its name servers' addresses that allows it (all
 * asked at once, at most four; each address passes the guard's classification first).
 */
export const transferNames = (d: DirectAsk, domain: string, hosts: ReadonlyArray<string>, timeoutMs: number): Effect.Effect<Transfer> =>
  Effect.gen(function*() {
    const none: Transfer = { names: [], limitations: [], delegations: new Map(), from: null }
    const ips = yield* Effect.forEach(hosts.slice(0, 4), (h) => d.resolver.lookupAddresses(h).pipe(Effect.orElseSucceed((): ReadonlyArray<string> => [])), { concurrency: 4 })
    const allowed = [...new Set(ips.flat())].filter((ip) => d.allowed(ip) === null).slice(0, 4)
    if (allowed.length === 0) return none
    const got = yield* Effect.either(Effect.raceAll(allowed.map((ip) =>
      Effect.map(axfr(domain, { host: ip, port: d.authPort }, timeoutMs, MAX_TRANSFER_RECORDS), (t) => ({ t, ip })))))
    if (got._tag === "Left") return none
    const owners = new Set<string>()
    const delegations = new Map<string, Array<string>>()
    for (const r of got.right.t.records) {
      const owner = norm(r.name)
      owners.add(owner)
      if (r.type === "NS" && owner !== domain) delegations.set(owner, [...(delegations.get(owner) ?? []), norm(r.data)])
    }
    return { names: [...owners], limitations: [], delegations, from: got.right.ip }
  })
