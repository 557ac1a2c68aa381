/**
 * Resolving one permutation (docs/operations/lookalikes.md, "Resolution"). A permutation is
 * registered when it has any A, AAAA, MX or NS record, so all four types matter, and a name with
 * only an MX (or only NS, or only AAAA) must be found. The plan that costs least while staying
 * exact:
 *
 * 1. Ask A. NXDOMAIN means the name does not exist at all (RFC 1034 §4.3.2, RFC 8020: nothing
 *    at or below it), so none of the four types can exist: the permutation is free after one
 *    query. Nearly every permutation is in this case.
 * 2. Otherwise the name exists (NOERROR, with or without addresses, or a CNAME whose target does
 *    not exist): ask AAAA, MX and NS at once, and judge the four answers together.
 *
 * Queries: one per permutation plus three per existing name; no plan can ask fewer than one per
 * permutation, and an existing name needs every type for its report. Asking NS of each name's
 * registered domain first would not save a query (almost every permutation is its own registered
 * domain) and would miss names that exist below a registered domain without an NS set of their
 * own (`exa.mple.com` with only an MX).
 *
 * A lookup that fails (timeout, SERVFAIL, REFUSED, a malformed answer) decides nothing: a name
 * whose answers hold no record and at least one failure is unresolved (reported in
 * `limitations`, never as registered or free). A name with a record is registered even when
 * another of its lookups failed; that failure is named in `limitations`.
 */
import { Effect } from "effect"
import { dataOf, type DnsAnswerSet, type DnsError, type DnsResolverShape } from "../../adapters/dns/DnsResolver"

/** The four types a permutation is judged by, in the order the report lists them. */
export const LOOKUP_TYPES = ["A", "AAAA", "MX", "NS"] as const
export type LookupType = (typeof LOOKUP_TYPES)[number]

/** One lookup's outcome: the records of its type (names without the final dot, lower case), or why there is none. */
export type Lookup =
  | { readonly _tag: "Answer"; readonly rcode: string; readonly values: ReadonlyArray<string> }
  | { readonly _tag: "Failed"; readonly reason: string }

export type Resolution =
  /** At least one of the four records exists; `failed` names the types whose lookup failed. */
  | {
    readonly _tag: "Registered"
    readonly a: ReadonlyArray<string>
    readonly aaaa: ReadonlyArray<string>
    readonly mx: ReadonlyArray<string>
    readonly ns: ReadonlyArray<string>
    readonly failed: ReadonlyArray<LookupType>
  }
  /** NXDOMAIN, or the name exists with none of the four types. */
  | { readonly _tag: "Free" }
  /** No record found and at least one lookup failed: neither registered nor free. */
  | { readonly _tag: "Unresolved"; readonly reason: string }

const hostName = (name: string) => {
  const n = name.toLowerCase().replace(/\.$/, "")
  return n === "" ? "." : n
}

/** The values of `type` in an answer (a CNAME chain's final records included), as the report lists them. */
export const valuesOf = (ans: DnsAnswerSet, type: LookupType): ReadonlyArray<string> => {
  const values = type === "MX"
    ? dataOf(ans.answers, "MX").map((mx) => hostName(mx.exchange))
    : type === "NS"
      ? dataOf(ans.answers, "NS").map(hostName)
      : dataOf(ans.answers, type)
  return [...new Set(values)].sort()
}

/** Step 1's verdict: an NXDOMAIN without a CNAME chain ends the lookups (the name does not exist). */
export const absent = (first: Lookup, chained: boolean): boolean => first._tag === "Answer" && first.rcode === "NXDOMAIN" && !chained

/** The four lookups of an existing name judged together (pure). */
export const judge = (lookups: Readonly<Record<LookupType, Lookup>>): Resolution => {
  const values = (t: LookupType) => {
    const l = lookups[t]
    return l._tag === "Answer" ? l.values : []
  }
  const failed = LOOKUP_TYPES.filter((t) => lookups[t]._tag === "Failed")
  const found = LOOKUP_TYPES.some((t) => values(t).length > 0)
  if (found) return { _tag: "Registered", a: values("A"), aaaa: values("AAAA"), mx: values("MX"), ns: values("NS"), failed }
  if (failed.length > 0) {
    const first = lookups[failed[0]]
    return { _tag: "Unresolved", reason: first._tag === "Failed" ? first.reason : "lookup failed" }
  }
  return { _tag: "Free" }
}

/** Why a lookup failed, in a word a limitation can count by. */
export const failureOf = (e: DnsError): string => {
  switch (e._tag) {
    case "DnsTimeout": return "timeout"
    case "DnsRcode": return e.rcode
    case "DnsMalformed": return "malformed answer"
    case "DnsFailure": return "lookup failed"
  }
}

const lookup = (resolver: DnsResolverShape, name: string, type: LookupType) =>
  resolver.query({ name, type }).pipe(
    Effect.map((ans) => ({
      lookup: { _tag: "Answer", rcode: ans.rcode, values: valuesOf(ans, type) } as Lookup,
      chained: ans.answers.some((r) => r.type === "CNAME" || r.type === "DNAME")
    })),
    Effect.catchAll((e) => Effect.succeed({ lookup: { _tag: "Failed", reason: failureOf(e) } as Lookup, chained: false }))
  )

/** The plan above for one name, through the service's resolvers. Never fails. */
export const resolveName = (resolver: DnsResolverShape, name: string): Effect.Effect<Resolution> =>
  Effect.flatMap(lookup(resolver, name, "A"), (a) => {
    if (a.lookup._tag === "Failed") return Effect.succeed<Resolution>({ _tag: "Unresolved", reason: a.lookup.reason })
    if (absent(a.lookup, a.chained)) return Effect.succeed<Resolution>({ _tag: "Free" })
    return Effect.map(
      Effect.all([lookup(resolver, name, "AAAA"), lookup(resolver, name, "MX"), lookup(resolver, name, "NS")], { concurrency: 3 }),
      ([aaaa, mx, ns]) => judge({ A: a.lookup, AAAA: aaaa.lookup, MX: mx.lookup, NS: ns.lookup })
    )
  })
