/**
 * Check 7: DNSSEC. Bogus is critical (validating resolvers refuse the zone); unsigned or without
 * a DS at the parent is medium; NSEC3 parameters are judged by RFC 9276; signatures that expire
 * within three days are a low finding.
 */
import { collector } from "../model/findings"
import { isIncomplete, type DnssecObservation, type ZoneObservations } from "../model/observations"

const EXPIRY_WARNING_DAYS = 3

export const dnssec = (o: Pick<ZoneObservations, "domain" | "now" | "dnssec">) => {
  const c = collector("dnssec")
  let detail: DnssecObservation | null = null
  if (isIncomplete(o.dnssec)) c.cannot(o.dnssec)
  else {
    const d = o.dnssec
    detail = d
    switch (d.status) {
      case "bogus":
        c.add("critical", `DNSSEC validation fails (bogus): ${d.reason}`, "Re-sign the zone (check signature validity periods and the signer's clock) and make the parent's DS match a published DNSKEY; validating resolvers refuse bogus answers, so the zone is unreachable for them.")
        break
      case "insecure":
        if (!d.signed) {
          c.add("medium", `${o.domain} is not DNSSEC-signed`, "Sign the zone (algorithm 13 or 15) and publish its DS at the parent.")
        } else if (!d.ds_present) {
          c.add("medium", `${o.domain} publishes DNSKEY records but the parent has no DS: the chain of trust is broken (${d.reason})`, "Publish the DS record of the key-signing key at the registrar/parent zone.")
        } else {
          c.add("info", `DNSSEC chain is insecure: ${d.reason}`, null)
        }
        break
      case "indeterminate":
        c.limit(`DNSSEC could not be determined: ${d.reason}`)
        c.add("info", `DNSSEC status could not be determined: ${d.reason}`, null)
        break
      case "secure":
        break
    }
    if (d.nsec3 && d.nsec3_compliant === false) {
      c.add("low", `NSEC3 parameters do not follow RFC 9276: ${d.nsec3.iterations} extra iterations, salt ${d.nsec3.salt === "" ? "empty" : `"${d.nsec3.salt}"`}`, "Use NSEC3 with 0 extra iterations and an empty salt (RFC 9276), or NSEC.")
    }
    if (d.status === "secure" && d.earliest_expiration !== null) {
      const left = (Date.parse(d.earliest_expiration) - Date.parse(o.now)) / 86_400_000
      if (left < EXPIRY_WARNING_DAYS) c.add("low", `DNSSEC signatures expire within ${Math.max(0, left).toFixed(1)} days (${d.earliest_expiration})`, "Check that automatic re-signing runs.")
    }
  }
  return c.done({
    dnssec: detail,
    dnssec_status: detail === null ? ("indeterminate" as DnssecObservation["status"]) : detail.status,
    nsec3_compliant: detail === null ? null : detail.nsec3_compliant
  })
}
