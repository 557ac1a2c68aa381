/**
 * What the Zone Hygiene probes observed (the gathered data the pure checks judge). A check
 * that could not finish is `Incomplete` instead: a limitation and an info finding, never a 500.
 */

/** A check that could not finish: becomes a limitation and an info finding, never a 500. */
export interface Incomplete {
  readonly incomplete: string
}
export const isIncomplete = (u: unknown): u is Incomplete => typeof u === "object" && u !== null && "incomplete" in u

/** Why a check failed, from whatever it failed with: its `incomplete`, else its message. */
export const failureReason = (e: unknown, fallback: string): string => {
  if (typeof e !== "object" || e === null) return fallback
  if ("incomplete" in e && e.incomplete !== undefined && e.incomplete !== null) return String(e.incomplete)
  if ("message" in e && e.message !== undefined && e.message !== null) return String(e.message)
  return fallback
}

export interface SoaFields {
  readonly serial: number
  readonly primary_ns: string
  readonly rname: string
  readonly refresh: number
  readonly retry: number
  readonly expire: number
  readonly minimum: number
}

export interface SoaObservation {
  readonly kind: "authoritative" | "recursive"
  readonly nameserver: string | null
  readonly ip: string
  readonly port: number
  readonly soa: SoaFields | null
  /** The answer carried the AA bit (authoritative servers only). */
  readonly authoritative: boolean
  readonly error: string | null
}

export interface NameserverObservation {
  readonly name: string
  readonly ips: ReadonlyArray<string>
  /** Why the nameserver was not queried directly (no address, non-public address). */
  readonly skipped: string | null
}

export interface WildcardObservation {
  readonly probes: ReadonlyArray<string>
  readonly ips: ReadonlyArray<string>
  /** CNAME target of the wildcard, when the wildcard is a CNAME. */
  readonly cname_target: string | null
}

export interface ExposedName {
  readonly name: string
  readonly ips: ReadonlyArray<string>
  readonly record_type: "A" | "AAAA" | "CNAME"
  readonly cname_target: string | null
}

export interface SensitiveObservation {
  readonly probed: number
  /** Names that resolved, before wildcard filtering. */
  readonly resolved: ReadonlyArray<ExposedName>
  readonly errors: number
}

export interface OpenResolverObservation {
  readonly nameserver: string
  readonly ip: string
  readonly is_open_resolver: boolean
  readonly status: string
}

export interface AxfrObservation {
  readonly nameserver: string
  readonly ip: string
  readonly allowed: boolean
  readonly records: number
  readonly status: string
}

export interface CaaRecord {
  readonly flags: number
  readonly tag: string
  readonly value: string
}

export interface CaaObservation {
  /** Name the relevant CAA set was found at (RFC 8659 climbing), or null. */
  readonly found_at: string | null
  readonly records: ReadonlyArray<CaaRecord>
  /** Issuer organisations seen in currently valid CT-logged certificates, or the reason they are unknown. */
  readonly ct_issuers: ReadonlyArray<string> | Incomplete
}

export interface DnssecObservation {
  readonly status: "secure" | "insecure" | "bogus" | "indeterminate"
  readonly reason: string | null
  readonly signed: boolean
  readonly ds_present: boolean
  readonly algorithms: ReadonlyArray<number>
  readonly denial: "nsec" | "nsec3" | null
  readonly nsec3: { readonly algorithm: number; readonly iterations: number; readonly salt: string; readonly opt_out: boolean } | null
  readonly nsec3_compliant: boolean | null
  readonly chain: ReadonlyArray<{ readonly zone: string; readonly status: string; readonly detail: string }>
  readonly verified_rrsets: ReadonlyArray<string>
  readonly earliest_expiration: string | null
}

export interface ZoneObservations {
  readonly domain: string
  /** ISO time of the audit (for signature-expiry warnings). */
  readonly now: string
  /** Error looking up the NS set, if any (NXDOMAIN, timeout...). */
  readonly ns_error: string | null
  readonly nameservers: ReadonlyArray<NameserverObservation>
  readonly soa: ReadonlyArray<SoaObservation> | Incomplete
  readonly soa_apex: SoaFields | Incomplete
  readonly wildcard: WildcardObservation | Incomplete
  readonly sensitive: SensitiveObservation | Incomplete
  readonly open_resolver: ReadonlyArray<OpenResolverObservation> | Incomplete
  readonly dnssec: DnssecObservation | Incomplete
  readonly caa: CaaObservation | Incomplete
  readonly axfr: ReadonlyArray<AxfrObservation> | Incomplete
}
