/**
 * The MX set (RFC 5321 §5.1) and RFC 7505 null MX. Pure.
 * A null MX is a single MX record of preference 0 whose exchange is the root (`.`).
 */
import type { Lookup } from "./lookup"
import type { MxReport } from "./schema"
import { lowerHost } from "./tags"

export interface MxRecord {
  readonly preference: number
  readonly exchange: string
}

export interface MxObservation {
  readonly lookup: Lookup<MxRecord>
  /** Addresses of each exchange host (absent: not looked up or failed). */
  readonly ips: Readonly<Record<string, ReadonlyArray<string>>>
}

export const isNullMx = (r: MxRecord) => lowerHost(r.exchange) === "" || r.exchange === "."

/** The exchange hosts mail is delivered to, lowest preference first (null MX entries excluded). */
export const mxHosts = (records: ReadonlyArray<MxRecord>): ReadonlyArray<string> =>
  [...new Set([...records].filter((r) => !isNullMx(r)).sort((a, b) => a.preference - b.preference).map((r) => lowerHost(r.exchange)))]

export const mxReport = (o: MxObservation): MxReport => {
  const records = o.lookup._tag === "Found" ? o.lookup.records : []
  const sorted = [...records].sort((a, b) => a.preference - b.preference || lowerHost(a.exchange).localeCompare(lowerHost(b.exchange)))
  return {
    records: sorted.filter((r) => !isNullMx(r)).map((r) => ({ host: lowerHost(r.exchange), preference: r.preference, ips: [...(o.ips[lowerHost(r.exchange)] ?? [])] })),
    // RFC 7505 §3: the null MX is the only MX record; with others beside it the domain is misconfigured (reported as a finding).
    null_mx: records.some(isNullMx)
  }
}
