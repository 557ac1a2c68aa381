/**
 * The WAF signature table's vocabulary: data, not code paths. Each provider lists signatures, each naming its
 * evidence kind and weight (0-1). The detector (analyze.ts) combines the weights of matching
 * signatures by noisy-OR: confidence = 1 − Π(1 − weight).
 *
 * Evidence kinds:
 *  - block-header: a response header that states the request was challenged or blocked (highest confidence)
 *  - header:       a provider-specific response header (name, optionally a value pattern)
 *  - server:       the Server header
 *  - cookie:       a Set-Cookie name; `challenge` marks cookies issued by a challenge / bot check
 *  - body:         block or challenge page text; `page` says which
 *  - status:       a status code the provider uses for its blocks (weak alone)
 *
 * `last_verified_at` is the date the entry was last reviewed against the vendor documentation
 * cited in `source_url` and the replica tests (test/waf), not a live scan.
 */

export type EvidenceKind = "block-header" | "header" | "server" | "cookie" | "body" | "status"
export type BlockCategory = "none" | "waf-block" | "rate-limit" | "provider-block" | "country-block" | "custom-block"

export interface Signature {
  readonly kind: EvidenceKind
  /** Header name (lower case) for header and block-header kinds. */
  readonly header?: string
  /** Tested against the header value, Server value, cookie name, body text or status code. */
  readonly pattern: RegExp
  readonly weight: number
  /** Cookie issued by a challenge (medium enforcement). */
  readonly challenge?: boolean
  /** Body pattern of a block page or a challenge page. */
  readonly page?: "block" | "challenge"
  /** What a match says about why the request was refused. */
  readonly category?: Exclude<BlockCategory, "none" | "custom-block">
  /** Body pattern that also appears on ordinary pages (bot-detection scripts, quoted error codes): counts only on a refusal status (≥ 400). */
  readonly refusalOnly?: boolean
}

export interface ProviderEntry {
  readonly name: string
  readonly vendor: string
  readonly source_url: string
  readonly last_verified_at: string
  /** Via header pattern naming this provider's hop (topology ordering). */
  readonly via?: RegExp
  readonly signatures: ReadonlyArray<Signature>
}

export const REVIEWED = "2026-11-22"

export const h = (header: string, pattern: RegExp = /./, weight = 0.6): Signature => ({ kind: "header", header, pattern, weight })
export const bh = (header: string, pattern: RegExp, weight = 0.95, category?: Signature["category"]): Signature => ({ kind: "block-header", header, pattern, weight, ...(category ? { category } : {}) })
export const server = (pattern: RegExp, weight = 0.7): Signature => ({ kind: "server", pattern, weight })
export const cookie = (pattern: RegExp, weight = 0.6, challenge = false): Signature => ({ kind: "cookie", pattern, weight, ...(challenge ? { challenge } : {}) })
export const body = (pattern: RegExp, weight = 0.7, page: "block" | "challenge" = "block", category?: Signature["category"]): Signature => ({ kind: "body", pattern, weight, page, ...(category ? { category } : {}) })
/** Body signature that counts only when the status is a refusal (≥ 400). */
export const bodyR = (pattern: RegExp, weight = 0.7, page: "block" | "challenge" = "block", category?: Signature["category"]): Signature => ({ ...body(pattern, weight, page, category), refusalOnly: true })
export const status = (pattern: RegExp, weight = 0.15): Signature => ({ kind: "status", pattern, weight })

export const p = (name: string, vendor: string, source_url: string, signatures: ReadonlyArray<Signature>, via?: RegExp): ProviderEntry =>
  ({ name, vendor, source_url, last_verified_at: REVIEWED, signatures, ...(via ? { via } : {}) })

