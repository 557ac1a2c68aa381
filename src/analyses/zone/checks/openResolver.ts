/** Check 6: authoritative nameservers that also recurse for anyone (amplification, cache poisoning). */
import { collector } from "../model/findings"
import { isIncomplete, type OpenResolverObservation, type ZoneObservations } from "../model/observations"

export const openResolver = (o: Pick<ZoneObservations, "open_resolver">) => {
  const c = collector("open_resolver")
  let list: ReadonlyArray<OpenResolverObservation> = []
  if (isIncomplete(o.open_resolver)) c.cannot(o.open_resolver)
  else {
    list = o.open_resolver
    for (const r of list.filter((x) => x.is_open_resolver)) {
      c.add("high", `Nameserver ${r.nameserver} (${r.ip}) answers recursive queries for anyone (open resolver)`, `Disable recursion on ${r.nameserver} or restrict it to your own networks; open resolvers are used for DDoS amplification and cache poisoning.`)
    }
  }
  return c.done({ open_resolver_check: list, open_resolvers_detected: list.filter((r) => r.is_open_resolver).length })
}
