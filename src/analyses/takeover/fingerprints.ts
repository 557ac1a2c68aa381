/**
 * The takeover fingerprint table (docs/operations/takeover.md), assembled from its data files by
 * kind of service (fingerprints/*.ts, vocabulary and sources in fingerprints/dsl.ts), and the
 * lookups that find a name's service: the longest matching suffix wins, so a specific entry
 * (`.elb.amazonaws.com`) is never shadowed by a wider one.
 */
import { memoize } from "../../kernel/memo"
import { CLOUD } from "./fingerprints/cloud"
import { DNS_HOSTS, type DnsHost } from "./fingerprints/dnsHosts"
import type { Fingerprint } from "./fingerprints/dsl"
import { SAAS } from "./fingerprints/saas"
import { SITES } from "./fingerprints/sites"

export type { DnsHost } from "./fingerprints/dnsHosts"
export type { Fingerprint, HttpEvidence, Source, TakeoverStatus } from "./fingerprints/dsl"
export { DNS_HOSTS } from "./fingerprints/dnsHosts"

export const FINGERPRINTS: ReadonlyArray<Fingerprint> = [...CLOUD, ...SITES, ...SAAS]

/** Compiled `*` suffixes (a handful, from the tables). */
const globs = new Map<string, RegExp>()

/** Whether `name` (lower case, no trailing dot) is `suffix` without its dot or lies below it; `*` spans one label's letters, digits and hyphens. */
export const suffixMatches = (name: string, suffix: string): boolean => {
  if (!suffix.includes("*")) return name === suffix.slice(1) || name.endsWith(suffix)
  let re = globs.get(suffix)
  if (re === undefined) {
    const pattern = suffix.slice(1).split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[a-z0-9-]+")
    re = new RegExp(`(^|\\.)${pattern}$`)
    globs.set(suffix, re)
  }
  return re.test(name)
}

/** The length of the longest of `suffixes` that `name` matches, or -1. */
const bestMatch = (name: string, suffixes: ReadonlyArray<string>) =>
  suffixes.reduce((best, s) => (s.length > best && suffixMatches(name, s) ? s.length : best), -1)

const longest = <T>(name: string, entries: ReadonlyArray<T>, suffixes: (t: T) => ReadonlyArray<string>): T | null => {
  const host = name.toLowerCase().replace(/\.$/, "")
  let found: T | null = null
  let length = -1
  for (const entry of entries) {
    const l = bestMatch(host, suffixes(entry))
    if (l > length) {
      found = entry
      length = l
    }
  }
  return found
}

/** The service a CNAME target belongs to, or null (remembered: a check asks for each hop of each chain, twice). */
export const fingerprintFor: (name: string) => Fingerprint | null = memoize((name: string) => longest(name, FINGERPRINTS, (f) => f.cnames), 10_000)

/** The DNS hosting service a name server belongs to, or null. */
export const dnsHostFor = (nameserver: string): DnsHost | null => longest(nameserver, DNS_HOSTS, (h) => h.nameservers)

/** A candidate's confidence from its service's status (docs/operations/takeover.md). */
export const confidenceOf = (status: Fingerprint["status"]): "confirmed" | "potential" | "unlikely" =>
  status === "vulnerable" ? "confirmed" : status === "edge_case" ? "potential" : "unlikely"
