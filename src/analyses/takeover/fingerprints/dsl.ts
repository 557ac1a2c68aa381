/**
 * The vocabulary of the takeover fingerprint table (docs/operations/takeover.md): data, not code
 * paths. Each entry names a service, the CNAME targets that lead to it, what the service answers
 * for a name nobody has claimed there (its "no such resource" evidence), and whether a stranger
 * can then claim it (its status, which sets the confidence of a candidate).
 *
 * The facts come from public lists, each entry naming where it was read:
 *  - can-i-take-over-xyz (EdOverflow and contributors, CC BY 4.0): the services, their status
 *    (vulnerable, edge case, not vulnerable) and their fingerprints;
 *  - nuclei-templates `http/takeovers` (ProjectDiscovery, MIT): body texts and status codes;
 *  - subjack `fingerprints.json` (haccer, Apache-2.0): CNAME targets, body texts, NXDOMAIN services;
 *  - dnsReaper `signatures/` (Punk Security, AGPL-3.0, facts only): CNAME targets, body texts,
 *    status codes, and the DNS hosts whose unclaimed zones can be created by anyone.
 * Where the lists disagree on the status, can-i-take-over-xyz's word is taken; a service only the
 * scanners list (no verified status) is an edge case: its match is a `potential` candidate.
 */

/** Whether a stranger can claim an unclaimed name at the service (can-i-take-over-xyz's word). */
export type TakeoverStatus = "vulnerable" | "edge_case" | "not_vulnerable"

export type Source = "can-i-take-over-xyz" | "nuclei-templates" | "subjack" | "dnsReaper"

/** What the service answers over HTTP for a name nobody has claimed there. */
export interface HttpEvidence {
  /** The schemes it answers that way on (asked with the name in the Host header / SNI). */
  readonly schemes: ReadonlyArray<"http" | "https">
  /** The status code of that answer; null when any status will do (the body decides). */
  readonly status: number | null
  /**
   * Texts of that answer's body, any one of which marks it (compared without regard to case,
   * runs of whitespace, curly or straight quotes and the common HTML entities); empty when the
   * status alone marks it.
   */
  readonly body: ReadonlyArray<string>
}

export interface Fingerprint {
  /** The service's name, as reports show it. */
  readonly provider: string
  /**
   * CNAME targets that lead to the service, as suffixes: lower case, a leading dot, no trailing
   * dot (`.github.io` matches `github.io` itself and every name below it). A `*` stands for any
   * run of letters, digits and hyphens inside one label (`.s3-website-*.amazonaws.com`).
   */
  readonly cnames: ReadonlyArray<string>
  /** NXDOMAIN for the service's name means nobody holds it there (it can be created). */
  readonly nxdomain: boolean
  readonly http: HttpEvidence | null
  readonly status: TakeoverStatus
  readonly sources: ReadonlyArray<Source>
}

const BOTH = ["http", "https"] as const

/** An entry whose evidence is a body text (any scheme, any status unless `status` is given). */
export const body = (
  provider: string,
  cnames: ReadonlyArray<string>,
  texts: ReadonlyArray<string>,
  status: TakeoverStatus,
  sources: ReadonlyArray<Source>,
  options: { readonly code?: number; readonly schemes?: ReadonlyArray<"http" | "https">; readonly nxdomain?: boolean } = {}
): Fingerprint => ({
  provider,
  cnames,
  nxdomain: options.nxdomain ?? false,
  http: { schemes: options.schemes ?? BOTH, status: options.code ?? null, body: texts },
  status,
  sources
})

/** An entry whose evidence is the status code alone. */
export const code = (provider: string, cnames: ReadonlyArray<string>, status: number, takeover: TakeoverStatus, sources: ReadonlyArray<Source>): Fingerprint => ({
  provider,
  cnames,
  nxdomain: false,
  http: { schemes: BOTH, status, body: [] },
  status: takeover,
  sources
})

/** An entry whose evidence is NXDOMAIN for the service's name. */
export const nx = (provider: string, cnames: ReadonlyArray<string>, status: TakeoverStatus, sources: ReadonlyArray<Source>): Fingerprint => ({
  provider,
  cnames,
  nxdomain: true,
  http: null,
  status,
  sources
})

export const CIAT: Source = "can-i-take-over-xyz"
export const NUCLEI: Source = "nuclei-templates"
export const SUBJACK: Source = "subjack"
export const REAPER: Source = "dnsReaper"
