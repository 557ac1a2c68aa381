/**
 * What one DNS question of the email analysis came back with, as the pure cores see it: the
 * records of the asked type, an empty answer (NODATA or NXDOMAIN: a "void lookup" in RFC 7208
 * terms), or a failure of the target's DNS (SERVFAIL, a timeout of its servers), which becomes a
 * finding, never an error of the operation.
 */
export type Lookup<A> =
  | { readonly _tag: "Found"; readonly records: ReadonlyArray<A> }
  | { readonly _tag: "Void"; readonly rcode: "NXDOMAIN" | "NOERROR" }
  | { readonly _tag: "Failed"; readonly reason: string }

export const recordsOf = <A>(l: Lookup<A>): ReadonlyArray<A> => (l._tag === "Found" ? l.records : [])

export const failureOf = (l: Lookup<unknown>): string | null => (l._tag === "Failed" ? l.reason : null)

export const found = <A>(records: ReadonlyArray<A>): Lookup<A> =>
  records.length > 0 ? { _tag: "Found", records } : { _tag: "Void", rcode: "NOERROR" }
