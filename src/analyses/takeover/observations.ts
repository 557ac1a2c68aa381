/**
 * What the takeover probes observe, as the pure classifier (classify.ts) takes it. The service
 * that fills these asks the service's resolvers and `HttpProbe`; `plan` (classify.ts) tells it,
 * for a CNAME chain, which further observations decide it, so nothing is fetched in vain.
 */

/**
 * How a resolver answered one question; `TIMEOUT` when it did not answer in time. Two more end a
 * chain without an answer: `LOOP` (a CNAME leads back to a name of the chain) and `TOO_LONG`
 * (more CNAME hops than the prober follows).
 */
export type Rcode = "NOERROR" | "NXDOMAIN" | "SERVFAIL" | "REFUSED" | "TIMEOUT" | "LOOP" | "TOO_LONG"

/** One step of a CNAME chain: the name asked, the answer's code, and its CNAME (null where the chain ends). */
export interface Hop {
  readonly name: string
  readonly rcode: Rcode
  readonly cname: string | null
}

/**
 * Whether the registered domain of a name (its public suffix plus one label) exists in the DNS:
 * `exists` false when the resolver says NXDOMAIN for it, null when it could not tell (a timeout,
 * SERVFAIL).
 */
export interface RegisteredDomain {
  readonly domain: string
  readonly exists: boolean | null
}

/** What one request to the name answered: its status and the start of its body, or why there was no answer. */
export type HttpAnswer = { readonly status: number; readonly bodySnippet: string } | { readonly error: string }

/** One name checked for a dangling CNAME. */
export interface NameObservation {
  readonly name: string
  /** The chain from the name (`hops[0].name` is the name itself) to its end. */
  readonly hops: ReadonlyArray<Hop>
  /** A and AAAA addresses at the end of the chain. */
  readonly addresses: ReadonlyArray<string>
  /** The name exists only through the zone's wildcard record (it answers what a random label answers). */
  readonly wildcard: boolean
  /** The answers to `http://name/` and `https://name/`; absent or null when not asked. */
  readonly http?: { readonly http?: HttpAnswer | null; readonly https?: HttpAnswer | null }
  /** The registered domain of the chain's last name, when that name is NXDOMAIN; absent when not asked. */
  readonly registered?: RegisteredDomain | null
}

/** How one name server answered an SOA question for the zone delegated to it. */
export type NameserverAnswer = "answered" | "refused" | "servfail" | "timeout" | "no_address"

export interface NameserverObservation {
  readonly host: string
  readonly registered: RegisteredDomain
  readonly answer: NameserverAnswer
}

/** A delegation (NS records) at or below the domain. */
export interface DelegationObservation {
  readonly zone: string
  readonly nameservers: ReadonlyArray<NameserverObservation>
}

/** One MX host of a name. */
export interface MxObservation {
  readonly name: string
  readonly host: string
  readonly registered: RegisteredDomain
}

/** One `include:` or `redirect=` of a name's SPF record (RFC 7208 §5.2, §6.1). */
export interface SpfObservation {
  readonly name: string
  readonly mechanism: "include" | "redirect"
  readonly target: string
  readonly registered: RegisteredDomain
}

export interface TakeoverObservations {
  readonly names: ReadonlyArray<NameObservation>
  readonly delegations: ReadonlyArray<DelegationObservation>
  readonly mx: ReadonlyArray<MxObservation>
  readonly spf: ReadonlyArray<SpfObservation>
}
