/** Check 9: zone transfer (AXFR, RFC 5936) open to anyone hands out the whole zone. */
import { collector } from "../model/findings"
import { type AxfrObservation, isIncomplete, type ZoneObservations } from "../model/observations"

export const zoneTransfer = (o: Pick<ZoneObservations, "domain" | "axfr">) => {
  const c = collector("zone_transfer")
  let list: ReadonlyArray<AxfrObservation> = []
  let vulnerable = false
  if (isIncomplete(o.axfr)) c.cannot(o.axfr)
  else {
    list = o.axfr
    const open = list.filter((a) => a.allowed)
    vulnerable = open.length > 0
    if (vulnerable) {
      c.add("high", `Zone transfer (AXFR) of ${o.domain} is allowed to anyone by ${open.map((a) => `${a.nameserver} (${a.ip}, ${a.records} records)`).join(", ")}`, "Restrict AXFR to the secondaries' addresses or TSIG keys (allow-transfer / provide-xfr / acl).")
    }
  }
  return c.done({ zone_transfer: list, zone_transfer_vulnerable: vulnerable })
}
