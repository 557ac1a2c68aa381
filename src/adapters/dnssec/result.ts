/** The validator's answer (DnssecResult) and the record the walk fills in on its way down. */
import type { Effect, Either } from "effect"
import type { DnsAnswerSet, DnsError } from "../dns/DnsResolver"
import type { DnsRecord } from "../dns/records"
import { sigTime, type Rrsig } from "./crypto"

export type DnssecStatus = "secure" | "insecure" | "bogus" | "indeterminate"

export interface Nsec3Params {
  readonly algorithm: number
  readonly iterations: number
  readonly salt: string
  readonly opt_out: boolean
}

export interface ChainLink {
  readonly zone: string
  readonly status: "secure" | "insecure" | "bogus" | "indeterminate"
  readonly detail: string
}

export interface DnssecResult {
  readonly status: DnssecStatus
  readonly reason: string | null
  /** The zone publishes DNSKEY records. */
  readonly signed: boolean
  /** The parent publishes a DS for the zone. */
  readonly ds_present: boolean
  readonly algorithms: ReadonlyArray<number>
  /** NSEC, NSEC3 or null (not signed or not observed). */
  readonly denial: "nsec" | "nsec3" | null
  readonly nsec3: Nsec3Params | null
  /** RFC 9276: zero extra iterations and an empty salt. True for NSEC zones; null when unsigned. */
  readonly nsec3_compliant: boolean | null
  readonly chain: ReadonlyArray<ChainLink>
  /** RRsets whose signatures were verified at the zone. */
  readonly verified_rrsets: ReadonlyArray<string>
  /** Earliest expiration among the verified zone signatures. */
  readonly earliest_expiration: string | null
}

export interface VerifyOutcome {
  readonly ok: boolean
  readonly reason: string
  readonly expiration?: number
}

/** One RRset as fetched with DO and CD set: the answer, the records of the type, their RRSIGs. */
export interface Fetched {
  readonly ans: DnsAnswerSet
  readonly rrset: ReadonlyArray<DnsRecord>
  readonly sigs: ReadonlyArray<Rrsig>
}

/** A memoised fetch: every query of one validation is made once. */
export type Get = (name: string, type: string) => Effect.Effect<Either.Either<Fetched, DnsError>>

/** What one validation has learned so far; the steps fill it in, `finish` turns it into the answer. */
export interface Walk {
  signed: boolean
  dsPresent: boolean
  algorithms: Array<number>
  denial: "nsec" | "nsec3" | null
  nsec3: Nsec3Params | null
  readonly chain: Array<ChainLink>
  readonly verified: Array<string>
  earliest: number | undefined
}

export const newWalk = (): Walk => ({ signed: false, dsPresent: false, algorithms: [], denial: null, nsec3: null, chain: [], verified: [], earliest: undefined })

/** A step's last word: the status and its reason. */
export interface Verdict {
  readonly status: DnssecStatus
  readonly reason: string | null
}
export const verdict = (status: DnssecStatus, reason: string | null): Verdict => ({ status, reason })
export const isVerdict = (u: unknown): u is Verdict => typeof u === "object" && u !== null && "status" in u && "reason" in u

export const nsec3IsCompliant = (p: Nsec3Params) => p.iterations === 0 && p.salt.length === 0

export const finish = (w: Walk, v: Verdict): DnssecResult => ({
  status: v.status,
  reason: v.reason,
  signed: w.signed,
  ds_present: w.dsPresent,
  algorithms: w.algorithms,
  denial: w.denial,
  nsec3: w.nsec3,
  nsec3_compliant: w.nsec3 ? nsec3IsCompliant(w.nsec3) : w.denial === "nsec" ? true : null,
  chain: w.chain,
  verified_rrsets: w.verified,
  earliest_expiration: w.earliest === undefined ? null : sigTime(w.earliest)
})
