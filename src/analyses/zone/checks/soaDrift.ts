/**
 * Check 2: SOA drift. Every server should serve the same serial (a difference means zone
 * replication fails silently); an authoritative server without an SOA or without the AA bit is
 * a lame delegation (RFC 1034 section 4.2.2).
 */
import { collector } from "../model/findings"
import { isIncomplete, type ZoneObservations } from "../model/observations"

export const soaDrift = (o: Pick<ZoneObservations, "domain" | "soa">) => {
  const c = collector("soa_drift")
  const soaConsistency: Record<string, unknown> = {}
  let uniqueSerials: Array<number> = []
  let drift = false
  if (isIncomplete(o.soa)) c.cannot(o.soa)
  else {
    const soa = o.soa
    for (const s of soa) {
      const key = s.kind === "authoritative" ? `${s.nameserver} (${s.ip})` : `resolver ${s.ip}:${s.port}`
      soaConsistency[key] = {
        kind: s.kind,
        nameserver: s.nameserver,
        ip: s.ip,
        serial: s.soa?.serial ?? null,
        primary_ns: s.soa?.primary_ns ?? null,
        rname: s.soa?.rname ?? null,
        refresh: s.soa?.refresh ?? null,
        retry: s.soa?.retry ?? null,
        expire: s.soa?.expire ?? null,
        minimum: s.soa?.minimum ?? null,
        error: s.error
      }
    }
    uniqueSerials = [...new Set(soa.flatMap((s) => (s.soa ? [s.soa.serial] : [])))].sort((a, b) => a - b)
    drift = uniqueSerials.length > 1
    if (drift) {
      const by = uniqueSerials.map((serial) => `${serial} at ${soa.filter((s) => s.soa?.serial === serial).map((s) => s.nameserver ?? `resolver ${s.ip}`).join(", ")}`)
      c.add("high", `SOA serials differ across servers (${by.join("; ")}): zone replication is failing silently`, "Check zone transfers (NOTIFY/IXFR/AXFR) from the primary to every secondary and make all nameservers serve the same serial.")
    }
    for (const s of soa.filter((x) => x.kind === "authoritative")) {
      if (s.error !== null) {
        c.add("high", `Nameserver ${s.nameserver} (${s.ip}) gave no SOA for ${o.domain}: ${s.error}`, `Make ${s.nameserver} answer authoritatively for ${o.domain} or remove it from the delegation.`)
      } else if (!s.authoritative) {
        c.add("high", `Nameserver ${s.nameserver} (${s.ip}) answers for ${o.domain} without authority (lame delegation)`, `Configure ${s.nameserver} as authoritative for ${o.domain} or remove it from the NS set.`)
      }
    }
  }
  soaConsistency.unique_serials = uniqueSerials
  return c.done({ soa_consistency: soaConsistency, soa_drift_detected: drift })
}
