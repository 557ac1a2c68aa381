/**
 * WAF detection, pure core: one response (status, headers, cookies, body) matched against the
 * signature table; enforcement signal, block category, topology; canary verdicts and the active
 * probe summary; recommendations. Thresholds are documented in docs/operations/waf-detection.md
 * ("Report", "Provider entries") and docs/page-intelligence.md ("Detection").
 */
import { providerCodeCategory } from "./providerCodes"
import { type BlockCategory, type EvidenceKind, PROVIDERS, type ProviderEntry, type Role, type Signature } from "./signatures"

export interface ObservedResponse {
  readonly status: number
  /** The reason phrase of the status line, when the server sent one. */
  readonly reason?: string
  readonly headers: Readonly<Record<string, string>>
  readonly setCookies: ReadonlyArray<string>
  readonly body: string
}

export interface Evidence {
  readonly kind: EvidenceKind
  readonly detail: string
  readonly weight: number
}

export interface ProviderMatch {
  readonly name: string
  readonly vendor: string
  readonly confidence: number
  readonly confidence_level: "high" | "medium" | "low"
  readonly evidence: ReadonlyArray<Evidence>
  readonly last_verified_at: string
  readonly source_url: string
  /** Internal: the strongest enforcement facts behind this match. */
  readonly blockHeader: boolean
  readonly challengeCookie: boolean
  readonly pageMatch: "block" | "challenge" | null
  /** Highest weight among matched block/challenge page signatures (0 when none). */
  readonly pageWeight: number
  readonly categories: ReadonlyArray<Exclude<BlockCategory, "none" | "custom-block">>
  /**
   * Combined weight of the provider's own headers, Server value and cookies (block pages and
   * statuses left out): what can make it a layer of its own (see topologyOf).
   */
  readonly ownConfidence: number
  /**
   * What it was seen as: "waf" for a security service, or for a delivery layer seen refusing or
   * challenging the request; otherwise the delivery layer's role (cdn, hosting, proxy).
   */
  readonly role: Role
}

/**
 * A provider's block or challenge page is proof of a refusal when served with a refusal status,
 * or whatever the status when the page signature is specific enough (F5 ASM answers 200).
 */
export const STRONG_PAGE = 0.9
export const refusalSeen = (p: ProviderMatch, status: number) =>
  p.blockHeader || (p.pageMatch !== null && (status >= 400 || p.pageWeight >= STRONG_PAGE))

/** A provider is reported from this combined confidence up. */
export const DETECTION_THRESHOLD = 0.3
/** "High-confidence" for topology: two or more providers at or above this make a layered setup. */
export const HIGH_CONFIDENCE = 0.8
export const MEDIUM_CONFIDENCE = 0.5

const BODY_SCAN = 256 * 1024
/** Block and challenge pages are small: the text form is tried on pages up to this size only. */
const TEXT_SCAN = 64 * 1024

const cookieName = (c: string) => c.split(";")[0].split("=")[0].trim()
/**
 * Cookie names of the Set-Cookie lines, also when a server or proxy folded several cookies into
 * one line with commas (a comma followed by `name=`; the comma in an Expires date is followed by
 * a day number and a space, never by `=`).
 */
const cookieNames = (lines: ReadonlyArray<string>): Array<string> =>
  lines.flatMap((line) => line.split(/,\s*(?=[!#$%&'*+.^_`|~0-9A-Za-z-]+=)/).map(cookieName)).filter((n) => n.length > 0)

/**
 * Statuses by which a delivery layer refuses a request (a 404 or a 5xx from a CDN is no block):
 * with the layer's block page or its edge evidence they show it acting as a WAF.
 */
const EDGE_REFUSALS = new Set([403, 405, 406, 418, 419, 429, 444, 493, 499])

/**
 * The page as text: tags replaced by spaces, whitespace runs collapsed. Block-page sentences are
 * matched here too, so a line break or an inline tag inside a sentence does not hide it.
 */
const pageText = (html: string) => html.replace(/<script\b[^>]*>[\s\S]*?<\/script>|<style\b[^>]*>[\s\S]*?<\/style>/gi, " ").replace(/<[^>]*>/g, " ").replace(/\s+/g, " ")
const truncate = (s: string, n = 120) => (s.length > n ? s.slice(0, n) + "…" : s)

interface Page {
  readonly cookies: ReadonlyArray<string>
  /** Markup with whitespace runs collapsed. */
  readonly html: string
  /** Built on first use. */
  text: string | null
}

const matchSignature = (sig: Signature, r: ObservedResponse, page: Page): string | null => {
  switch (sig.kind) {
    case "header":
    case "block-header": {
      const v = r.headers[sig.header!]
      return v !== undefined && sig.pattern.test(v) ? `${sig.header}: ${truncate(v)}` : null
    }
    case "server": {
      const v = r.headers["server"]
      return v !== undefined && sig.pattern.test(v) ? `Server: ${truncate(v)}` : null
    }
    case "cookie": {
      for (const name of page.cookies) if (sig.pattern.test(name)) return `Set-Cookie ${name}`
      return null
    }
    case "body": {
      if (sig.refusalOnly && r.status < 400) return null
      let m = sig.pattern.exec(page.html)
      if (m === null && page.html.length > 0 && page.html.length <= TEXT_SCAN) {
        page.text ??= pageText(page.html)
        m = sig.pattern.exec(page.text)
      }
      return m ? `body matches "${truncate(m[0].replace(/\s+/g, " "), 80)}"` : null
    }
    case "status":
      if (sig.reason) return r.reason !== undefined && sig.pattern.test(r.reason) ? `status ${r.status} ${truncate(r.reason, 60)}` : null
      return sig.pattern.test(String(r.status)) ? `status ${r.status}` : null
  }
}

const levelOf = (c: number): ProviderMatch["confidence_level"] => (c >= HIGH_CONFIDENCE ? "high" : c >= MEDIUM_CONFIDENCE ? "medium" : "low")

/**
 * Numeric character references decoded (Akamai writes its block page with them), and the named
 * ones that stand for punctuation in sentences (markup-making `&lt;` / `&gt;` are left alone, so
 * a page quoting a block page's markup does not become one).
 */
const NAMED: Readonly<Record<string, string>> = { amp: "&", quot: "\"", apos: "'", nbsp: " ", rsquo: "\u2019", lsquo: "\u2018", rdquo: "\u201d", ldquo: "\u201c", ndash: "\u2013", mdash: "\u2014", copy: "\u00a9" }
const decodeEntities = (s: string) =>
  s.indexOf("&") === -1 ? s : s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, n: string) => {
    if (n[0] !== "#") return NAMED[n.toLowerCase()] ?? whole
    const code = n[1] === "x" || n[1] === "X" ? parseInt(n.slice(2), 16) : Number(n.slice(1))
    return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ""
  })

/** Matches every provider of the table against one response. */
export const detectProviders = (r: ObservedResponse, table: ReadonlyArray<ProviderEntry> = PROVIDERS): Array<ProviderMatch> => {
  const page: Page = {
    cookies: cookieNames(r.setCookies),
    html: decodeEntities(r.body.length > BODY_SCAN ? r.body.slice(0, BODY_SCAN) : r.body).replace(/\s+/g, " ").trim(),
    text: null
  }
  const out: Array<ProviderMatch> = []
  for (const entry of table) {
    const evidence: Array<Evidence> = []
    let miss = 1
    let blockHeader = false
    let challengeCookie = false
    let pageMatch: ProviderMatch["pageMatch"] = null
    let pageWeight = 0
    let ownMiss = 1
    let edgeSeen = false
    const categories: Array<Exclude<BlockCategory, "none" | "custom-block">> = []
    for (const sig of entry.signatures) {
      const detail = matchSignature(sig, r, page)
      if (detail === null) continue
      // Two signatures on the same header count once (the stronger one).
      evidence.push({ kind: sig.kind, detail, weight: sig.weight })
      miss *= 1 - sig.weight
      if (sig.kind !== "body" && sig.kind !== "status") ownMiss *= 1 - sig.weight
      if (sig.edge) edgeSeen = true
      if (sig.kind === "block-header") blockHeader = true
      if (sig.kind === "cookie" && sig.challenge) challengeCookie = true
      if (sig.kind === "body" && sig.page) {
        pageMatch = pageMatch === "block" ? "block" : sig.page
        pageWeight = Math.max(pageWeight, sig.weight)
      }
      if (sig.category && !categories.includes(sig.category)) categories.push(sig.category)
    }
    if (evidence.length === 0) continue
    const confidence = Math.round((1 - miss) * 100) / 100
    if (confidence < DETECTION_THRESHOLD) continue
    const refusal = EDGE_REFUSALS.has(r.status)
    const actsAsWaf = blockHeader || challengeCookie || pageMatch === "challenge" || (refusal && (pageMatch === "block" || edgeSeen))
    out.push({
      name: entry.name,
      vendor: entry.vendor,
      confidence,
      confidence_level: levelOf(confidence),
      evidence,
      last_verified_at: entry.last_verified_at,
      source_url: entry.source_url,
      blockHeader,
      challengeCookie,
      pageMatch,
      pageWeight,
      categories,
      ownConfidence: Math.round((1 - ownMiss) * 100) / 100,
      role: entry.role === undefined || actsAsWaf ? "waf" : entry.role
    })
  }
  // A page that quotes the block pages of several vendors at once is a page about WAFs, not a
  // block page: matches resting on page text alone are dropped when three or more vendors have them.
  const textOnly = (p: ProviderMatch) => p.evidence.every((e) => e.kind === "body" || e.kind === "status")
  const kept = out.filter(textOnly).length >= QUOTED_VENDORS ? out.filter((p) => !textOnly(p)) : out
  return kept.sort((a, b) => b.confidence - a.confidence || Number(b.blockHeader) - Number(a.blockHeader) || a.name.localeCompare(b.name))
}

/** From this many vendors matched on page text alone, the page is taken as one that quotes them. */
export const QUOTED_VENDORS = 3

export type EnforcementSignal = "low" | "medium" | "high" | "verified"

/**
 * As docs/operations/waf-detection.md ("Report") defines it. low: signature match only (also
 * when nothing matched; provider_present says so), whatever the status: a block status or a
 * provider's block page is signature evidence, reported through block_category; medium: a
 * challenge cookie was set; high: the provider's own header stating that the request was
 * challenged or blocked (cf-mitigated, x-amzn-waf-action, x-vercel-mitigated, …) was seen on the
 * benign request; verified: the active probe saw at least 3 of 5 canaries blocked.
 */
export const enforcementOf = (_r: ObservedResponse, providers: ReadonlyArray<ProviderMatch>, canariesBlocked: number | null): EnforcementSignal => {
  if (canariesBlocked !== null && canariesBlocked >= 3) return "verified"
  if (providers.some((p) => p.blockHeader)) return "high"
  if (providers.some((p) => p.challengeCookie)) return "medium"
  return "low"
}

/**
 * Block category: the provider's own error code first, whatever the HTTP status (Cloudflare
 * 1020, 1009, …; providerCodes.ts), then status semantics and provider error pages.
 */
export const blockCategoryOf = (status: number | null, providers: ReadonlyArray<ProviderMatch>, body = ""): BlockCategory => {
  if (status === null) return "none"
  const byCode = providerCodeCategory(providers, status, body)
  if (byCode !== null) return byCode
  const refused = status >= 400 || providers.some((p) => refusalSeen(p, status))
  if (refused) {
    const cats = providers.flatMap((p) => p.categories)
    if (cats.includes("country-block")) return "country-block"
    if (cats.includes("provider-block")) return "provider-block"
    if (cats.includes("rate-limit")) return "rate-limit"
  }
  if (status === 403 || status === 406) return "waf-block"
  if (status === 429) return "rate-limit"
  if (refused && providers.some((p) => refusalSeen(p, status))) return "custom-block"
  return "none"
}

/** Via entries, origin side first as received; each hop's text. */
export const viaHops = (via: string | undefined): Array<string> =>
  (via ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0)

export interface Topology {
  readonly topology: "single" | "layered" | null
  readonly topology_chain: ReadonlyArray<string>
}

/**
 * single: one provider, or one layer among matches; layered: two or more providers each with
 * high-confidence evidence of its own (its headers, Server value or cookies: ownConfidence at
 * HIGH_CONFIDENCE or above). Block-page text never makes a layer: wording shared between vendors'
 * pages would otherwise report a second WAF that is not there. The chain runs from the client
 * edge towards the origin: Via lists hops origin-side first, so hops are read in reverse;
 * providers without a Via hop (edges such as Cloudflare add none) come first, by confidence.
 */
export const topologyOf = (providers: ReadonlyArray<ProviderMatch>, via: string | undefined, table: ReadonlyArray<ProviderEntry> = PROVIDERS): Topology => {
  if (providers.length === 0) return { topology: null, topology_chain: [] }
  const layers = providers.filter((p) => p.ownConfidence >= HIGH_CONFIDENCE)
  if (layers.length < 2) return { topology: "single", topology_chain: [providers[0].name] }
  const hops = viaHops(via)
  const position = (name: string): number => {
    const entry = table.find((e) => e.name === name)
    if (!entry?.via) return -1
    for (let i = hops.length - 1; i >= 0; i--) if (entry.via.test(hops[i])) return hops.length - 1 - i
    return -1
  }
  const withPos = layers.map((p, i) => ({ p, pos: position(p.name), i }))
  withPos.sort((a, b) => {
    if (a.pos === -1 && b.pos === -1) return a.i - b.i
    if (a.pos === -1) return -1
    if (b.pos === -1) return 1
    return a.pos - b.pos
  })
  return { topology: "layered", topology_chain: withPos.map((x) => x.p.name) }
}

// ---------------------------------------------------------------- active probe

export type CanaryId = "sqli" | "xss" | "path_traversal" | "shellshock" | "scanner_ua"

export interface CanarySpec {
  readonly id: CanaryId
  readonly description: string
  readonly query: string
  readonly headers: ReadonlyArray<readonly [string, string]>
}

export const CANARIES: ReadonlyArray<CanarySpec> = [
  { id: "sqli", description: "SQL injection in a query parameter", query: "?id=" + encodeURIComponent("1' OR '1'='1' UNION SELECT username, password FROM users--"), headers: [] },
  { id: "xss", description: "Reflected XSS in a query parameter", query: "?q=" + encodeURIComponent("<script>alert(document.cookie)</script>"), headers: [] },
  { id: "path_traversal", description: "Path traversal in a query parameter", query: "?file=" + encodeURIComponent("../../../../../../etc/passwd"), headers: [] },
  { id: "shellshock", description: "Shellshock (CVE-2014-6271) in User-Agent and Referer", query: "", headers: [["User-Agent", "() { :; }; echo; /bin/cat /etc/passwd"], ["Referer", "() { :; }; /bin/bash -c 'id'"]] },
  { id: "scanner_ua", description: "Vulnerability scanner User-Agent", query: "", headers: [["User-Agent", "Mozilla/5.00 (Nikto/2.5.0) (Evasions:None) (Test:000001)"]] }
]

/** Statuses that mean the request was refused by a filter rather than answered by the application. */
const REFUSAL_STATUSES = new Set([403, 406, 418, 419, 429, 444, 493, 499, 501])

export interface CanaryResult {
  readonly canary: CanaryId
  readonly description: string
  readonly blocked: boolean
  readonly status_code: number | null
  readonly reason: string
  readonly provider: string | null
  readonly elapsed_ms: number
  readonly error: string | null
}

export interface CanaryObservation {
  readonly response: ObservedResponse | null
  readonly error: { readonly kind: string; readonly message: string } | null
  readonly elapsedMs: number
}

/**
 * A canary counts as blocked when the answer is a refusal status, a provider's block/challenge
 * header or page, or the connection was reset mid-request. A 404 (the path does not exist)
 * means it passed the filter and reached the origin.
 */
export const judgeCanary = (spec: CanarySpec, obs: CanaryObservation, baselineStatus: number | null): CanaryResult => {
  const base = { canary: spec.id, description: spec.description, elapsed_ms: Math.round(obs.elapsedMs * 100) / 100 }
  if (obs.response === null) {
    const reset = obs.error !== null && /ECONNRESET|EPIPE|closed before a response/i.test(obs.error.message)
    return {
      ...base,
      blocked: reset,
      status_code: null,
      reason: reset ? "connection reset by the edge" : `no answer (${obs.error?.kind ?? "error"})`,
      provider: null,
      error: obs.error?.message ?? null
    }
  }
  const r = obs.response
  const providers = detectProviders(r)
  const flagged = providers.find((p) => refusalSeen(p, r.status))
  if (flagged) {
    return { ...base, blocked: true, status_code: r.status, reason: `${flagged.name} block or challenge (${flagged.evidence.find((e) => e.kind === "block-header" || e.kind === "body")?.detail ?? "signature"})`, provider: flagged.name, error: null }
  }
  if (REFUSAL_STATUSES.has(r.status) && r.status !== baselineStatus) {
    return { ...base, blocked: true, status_code: r.status, reason: `refused with status ${r.status}`, provider: providers[0]?.name ?? null, error: null }
  }
  if (REFUSAL_STATUSES.has(r.status)) {
    return { ...base, blocked: true, status_code: r.status, reason: `refused with status ${r.status} (the benign request got the same status)`, provider: providers[0]?.name ?? null, error: null }
  }
  return { ...base, blocked: false, status_code: r.status, reason: `answered with status ${r.status}: the request passed the filter`, provider: null, error: null }
}

export const probeSummary = (results: ReadonlyArray<CanaryResult>) => {
  const blocked = results.filter((r) => r.blocked).length
  const enforcement: "verified" | "partial" | "none" = blocked >= 3 ? "verified" : blocked >= 1 ? "partial" : "none"
  return { canaries_sent: results.length, blocked, passed: results.length - blocked, enforcement }
}
