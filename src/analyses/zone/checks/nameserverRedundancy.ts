/** Check 1: nameserver redundancy (RFC 2182: at least two servers, on distinct addresses and networks). */
import { collector } from "../model/findings"
import type { ZoneObservations } from "../model/observations"

export const nameserverRedundancy = (o: Pick<ZoneObservations, "domain" | "ns_error" | "nameservers">) => {
  const c = collector("nameserver_redundancy")
  const nsNames = o.nameservers.map((n) => n.name)
  const allIps = new Set(o.nameservers.flatMap((n) => n.ips))
  if (o.ns_error !== null && o.nameservers.length === 0) {
    c.add("critical", `No authoritative nameservers found for ${o.domain}: ${o.ns_error}`, "Delegate the zone to at least two authoritative nameservers.")
  } else if (o.nameservers.length === 0) {
    c.add("critical", `${o.domain} has no NS records`, "Delegate the zone to at least two authoritative nameservers.")
  } else if (o.nameservers.length === 1) {
    c.add("high", `Only one nameserver (${nsNames[0]}) serves ${o.domain}`, "Add at least one more nameserver, on a different network (RFC 2182).")
  } else if (allIps.size === 1) {
    c.add("high", `All ${o.nameservers.length} nameservers share one address (${[...allIps][0]})`, "Host the nameservers on distinct addresses and networks (RFC 2182).")
  }
  for (const ns of o.nameservers) {
    if (ns.ips.length === 0) {
      c.add("medium", `Nameserver ${ns.name} has no A or AAAA address`, `Publish an address for ${ns.name} or remove it from the NS set.`)
    }
  }
  for (const ns of o.nameservers) if (ns.skipped && ns.ips.length > 0) c.limit(`${ns.name} not queried directly: ${ns.skipped}`)
  return c.done({
    nameservers: nsNames,
    nameserver_addresses: Object.fromEntries(o.nameservers.map((n) => [n.name, n.ips]))
  })
}
