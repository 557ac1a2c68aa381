/** Gathering the zone's CAA set (RFC 8659 tree climbing) and the issuers of its certificates in CT logs. */
import { Duration, Effect } from "effect"
import type { CtAggregatorShape } from "../../../adapters/ct/CtAggregator"
import { recordsOf } from "../../../adapters/dns/DnsResolver"
import { norm } from "../model/answers"
import { type CaaObservation, type CaaRecord, failureReason, type Incomplete } from "../model/observations"
import type { Gatherer } from "./context"

export const caaLookup = (g: Gatherer, ct: CtAggregatorShape, zone: string) =>
  Effect.gen(function*() {
    // RFC 8659 tree climbing: the relevant CAA set is the closest one at or above the zone.
    // Every level is asked at once, and the CT issuers are fetched meanwhile.
    const labels = zone.split(".")
    const names = labels.map((_, i) => labels.slice(i).join("."))
    const ctIssuers = ct.currentIssuers(zone).pipe(
      Effect.timeoutFail({ duration: Duration.millis(Math.max(1000, g.checkBudgetMs - 1000)), onTimeout: () => ({ incomplete: "CT aggregator did not answer in time" }) }),
      Effect.catchAll((e) => Effect.succeed<Incomplete>({ incomplete: failureReason(e, "CT lookup failed") }))
    )
    const [levels, issuers] = yield* Effect.all([
      Effect.forEach(names, (name) =>
        g.resolver.query({ name, type: "CAA" }).pipe(
          Effect.map((ans) => recordsOf(ans.answers, "CAA").filter((a) => norm(a.name) === name).map((a): CaaRecord =>
            ({ flags: a.data.flags, tag: a.data.tag, value: a.data.value })))
        ), { concurrency: "unbounded" }),
      ctIssuers
    ], { concurrency: 2 })
    const at = levels.findIndex((recs) => recs.length > 0)
    const found = at < 0 ? null : { at: names[at], records: levels[at] }
    return { found_at: found?.at ?? null, records: found?.records ?? [], ct_issuers: issuers } satisfies CaaObservation
  })
