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
 *  - status:       a status code the provider uses for its blocks (weak alone), or its reason phrase
 *
 * Roles: a provider whose product is a security service (WAF, DDoS or bot protection) is a WAF
 * wherever it is seen. A CDN, a hosting platform or a load balancer / gateway (`role`) is only a
 * delivery layer when seen in its headers, cookies or Server value: it is reported as a WAF only
 * when it is seen refusing or challenging the request (its block header, a challenge cookie, its
 * challenge page, its block page or `edge` evidence on a refusal status; docs/waf.md, "Roles").
 *
 * `last_verified_at` is the date the entry was last reviewed against the vendor documentation
 * cited in `source_url` and the replica tests (test/waf), not a live scan.
 */

export type EvidenceKind = "block-header" | "header" | "server" | "cookie" | "body" | "status"
export type BlockCategory = "none" | "waf-block" | "rate-limit" | "provider-block" | "country-block" | "custom-block"
/** What a provider was seen as: a WAF, or a delivery layer (CDN, hosting platform, load balancer or gateway). */
export type Role = "waf" | "cdn" | "hosting" | "proxy"

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
  /** status kind: the pattern is tested against the reason phrase instead of the code. */
  readonly reason?: boolean
  /**
   * Evidence the provider writes only into responses its edge generates itself (its own error
   * and refusal pages, not the origin's answers passed through): on a refusal status it shows
   * the provider refused the request.
   */
  readonly edge?: boolean
}

export interface ProviderEntry {
  readonly name: string
  readonly vendor: string
  readonly source_url: string
  readonly last_verified_at: string
  /** Via header pattern naming this provider's hop (topology ordering). */
  readonly via?: RegExp
  /** A delivery layer (CDN, hosting platform, load balancer or gateway); absent for a security service. */
  readonly role?: Exclude<Role, "waf">
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
/** The reason phrase of the status line (DenyAll's "Condition Intercepted"). */
export const reason = (pattern: RegExp, weight = 0.85): Signature => ({ kind: "status", pattern, weight, reason: true })
/** Marks a signature as written only by the provider's own edge responses (see Signature.edge). */
export const edge = (sig: Signature): Signature => ({ ...sig, edge: true })

export const p = (name: string, vendor: string, source_url: string, signatures: ReadonlyArray<Signature>, via?: RegExp): ProviderEntry =>
  ({ name, vendor, source_url, last_verified_at: REVIEWED, signatures, ...(via ? { via } : {}) })

/** Delivery layers: a WAF only when seen refusing or challenging (see Role). */
export const cdn = (e: ProviderEntry): ProviderEntry => ({ ...e, role: "cdn" })
export const hosting = (e: ProviderEntry): ProviderEntry => ({ ...e, role: "hosting" })
export const proxy = (e: ProviderEntry): ProviderEntry => ({ ...e, role: "proxy" })

