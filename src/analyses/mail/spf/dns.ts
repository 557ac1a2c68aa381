/**
 * The DNS an SPF evaluation runs over (RFC 7208 §4-§5). No I/O here: the mail analysis adapts its
 * resolver to this shape, tests serve zone data through it. CNAME chasing is the resolver's job.
 * `Void` keeps the RCODE because RFC 7208 §4.3 and §4.6.4 treat NXDOMAIN and an empty NOERROR
 * answer alike for the void-lookup limit, yet a reader of a report may want to tell them apart.
 */
import { Data, type Effect } from "effect"

export type SpfLookup<A> =
  | { readonly _tag: "Found"; readonly records: ReadonlyArray<A> }
  | { readonly _tag: "Void"; readonly rcode: "NXDOMAIN" | "NOERROR" }

/** A timeout or a server failure (any RCODE other than 0 and 3): RFC 7208 §5 makes it "temperror". */
export class SpfTempError extends Data.TaggedError("SpfTempError")<{ readonly name: string; readonly reason: string }> {}

export interface SpfMx {
  readonly preference: number
  readonly exchange: string
}

export interface SpfDns {
  /** Each TXT RR with its character-strings concatenated (RFC 7208 §3.3). */
  readonly txt: (name: string) => Effect.Effect<SpfLookup<string>, SpfTempError>
  readonly a: (name: string) => Effect.Effect<SpfLookup<string>, SpfTempError>
  readonly aaaa: (name: string) => Effect.Effect<SpfLookup<string>, SpfTempError>
  readonly mx: (name: string) => Effect.Effect<SpfLookup<SpfMx>, SpfTempError>
  /** PTR names for an address (the resolver forms the in-addr.arpa / ip6.arpa name). */
  readonly ptr: (ip: string) => Effect.Effect<SpfLookup<string>, SpfTempError>
}

export const found = <A>(records: ReadonlyArray<A>): SpfLookup<A> =>
  records.length === 0 ? { _tag: "Void", rcode: "NOERROR" } : { _tag: "Found", records }
export const nxdomain: SpfLookup<never> = { _tag: "Void", rcode: "NXDOMAIN" }

export const recordsOf = <A>(l: SpfLookup<A>): ReadonlyArray<A> => (l._tag === "Found" ? l.records : [])
