/** Check 4: an apex wildcard (random labels resolve), by address or by CNAME. */
import { collector } from "../model/findings"
import { isIncomplete, type ZoneObservations } from "../model/observations"

/**
 * What the wildcard answers with: addresses, or (for a CNAME wildcard) the target and no
 * addresses. The sensitive-subdomains check filters by the same values.
 */
export const wildcardAnswer = (w: ZoneObservations["wildcard"]): { readonly ips: ReadonlyArray<string>; readonly cname: string | null } =>
  isIncomplete(w) ? { ips: [], cname: null } : { ips: w.cname_target !== null ? [] : w.ips, cname: w.cname_target }

export const wildcard = (o: Pick<ZoneObservations, "domain" | "wildcard">) => {
  const c = collector("wildcard")
  let detected = false
  if (isIncomplete(o.wildcard)) c.cannot(o.wildcard)
  else {
    detected = o.wildcard.ips.length > 0 || o.wildcard.cname_target !== null
    if (o.wildcard.cname_target !== null) {
      c.limit(`The apex wildcard is a CNAME to ${o.wildcard.cname_target}: wildcard_ips is empty and sensitive names are filtered by their CNAME target instead of by address`)
      c.add("medium", `${o.domain} has a wildcard CNAME (*.${o.domain} -> ${o.wildcard.cname_target}): every name resolves`, "Remove the wildcard or restrict it; wildcards hide typos and let arbitrary names resolve (cookie scoping, phishing).")
    } else if (detected) {
      c.add("medium", `${o.domain} has a wildcard record: random names resolve to ${o.wildcard.ips.join(", ")}`, "Remove the wildcard or restrict it; wildcards hide typos and let arbitrary names resolve (cookie scoping, phishing).")
    }
  }
  return c.done({ wildcard_detected: detected, wildcard_ips: wildcardAnswer(o.wildcard).ips })
}
