/**
 * Check 5: sensitive names (admin, vpn, jenkins...) that resolve publicly. Names answered only
 * by the apex wildcard (same addresses, or the same CNAME target) are not exposures.
 */
import { collector } from "../model/findings"
import { isIncomplete, type ExposedName, type ZoneObservations } from "../model/observations"
import { wildcardAnswer } from "./wildcard"

const bare = (name: string) => name.toLowerCase().replace(/\.$/, "")

export const sensitiveSubdomains = (o: Pick<ZoneObservations, "sensitive" | "wildcard">) => {
  const c = collector("sensitive_subdomains")
  let exposed: Array<ExposedName> = []
  if (isIncomplete(o.sensitive)) c.cannot(o.sensitive)
  else {
    const w = wildcardAnswer(o.wildcard)
    const wild = new Set(w.ips)
    exposed = o.sensitive.resolved.filter((e) => {
      if (w.cname !== null && e.cname_target !== null && bare(e.cname_target) === bare(w.cname)) return false
      if (wild.size > 0 && e.ips.length > 0 && e.ips.every((ip) => wild.has(ip))) return false
      return true
    })
    if (exposed.length > 0) {
      c.add("medium", `${exposed.length} sensitive subdomain${exposed.length === 1 ? "" : "s"} resolve publicly: ${exposed.map((e) => e.name).join(", ")}`, "Move administrative and internal services off public DNS (split-horizon or VPN-only names), or make sure they require strong authentication.")
    }
    if (o.sensitive.errors > 0) c.limit(`${o.sensitive.errors} sensitive-name lookups failed (timeout or server failure) and are not counted`)
  }
  return c.done({ exposed_subdomains: exposed, exposed_count: exposed.length })
}
