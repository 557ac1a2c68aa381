/**
 * WAF detection, pure core: one response (status, headers, cookies, body) matched against the
 * signature table; enforcement signal, block category, topology; canary verdicts and the active
 * probe summary; recommendations. Thresholds are documented in the README (Page intelligence).
 */
import { providerCodeCategory } from "./providerCodes"
import { type BlockCategory, type EvidenceKind, PROVIDERS, type ProviderEntry, type Signature } from "./signatures"

export interface ObservedResponse {
  readonly status: number
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

const cookieName = (c: string) => c.split(";")[0].split("=")[0].trim()

const truncate = (s: string, n = 120) => (s.length > n ? s.slice(0, n) + "…" : s)

const matchSignature = (sig: Signature, r: ObservedResponse, body: string): string | null => {
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
      for (const c of r.setCookies) {
        const name = cookieName(c)
        if (sig.pattern.test(name)) return `Set-Cookie ${name}`
      }
      return null
    }
    case "body": {
      if (sig.refusalOnly && r.status < 400) return null
      const m = sig.pattern.exec(body)
      return m ? `body matches "${truncate(m[0].replace(/\s+/g, " "), 80)}"` : null
    }
    case "status":
      return sig.pattern.test(String(r.status)) ? `status ${r.status}` : null
  }
}

const levelOf = (c: number): ProviderMatch["confidence_level"] => (c >= HIGH_CONFIDENCE ? "high" : c >= MEDIUM_CONFIDENCE ? "medium" : "low")

/** Matches every provider of the table against one response. */
/** Numeric character references decoded (Akamai writes its block page with them). */
const decodeNumericEntities = (s: string) =>
  s.indexOf("&#") === -1 ? s : s.replace(/&#(x[0-9a-f]+|\d+);/gi, (_, n: string) => {
    const code = n[0] === "x" || n[0] === "X" ? parseInt(n.slice(1), 16) : Number(n)
    return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ""
  })

export const detectProviders = (r: ObservedResponse, table: ReadonlyArray<ProviderEntry> = PROVIDERS): Array<ProviderMatch> => {
  const body = decodeNumericEntities(r.body.length > BODY_SCAN ? r.body.slice(0, BODY_SCAN) : r.body)
  const out: Array<ProviderMatch> = []
  for (const entry of table) {
    const evidence: Array<Evidence> = []
    let miss = 1
    let blockHeader = false
    let challengeCookie = false
    let pageMatch: ProviderMatch["pageMatch"] = null
    let pageWeight = 0
    let ownMiss = 1
    const categories: Array<Exclude<BlockCategory, "none" | "custom-block">> = []
    for (const sig of entry.signatures) {
      const detail = matchSignature(sig, r, body)
      if (detail === null) continue
      // Two signatures on the same header count once (the stronger one).
      evidence.push({ kind: sig.kind, detail, weight: sig.weight })
      miss *= 1 - sig.weight
      if (sig.kind !== "body" && sig.kind !== "status") ownMiss *= 1 - sig.weight
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
      ownConfidence: Math.round((1 - ownMiss) * 100) / 100
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
 * As SPEC defines it. low: signature match only (also when nothing matched; provider_present
 * says so), whatever the status: a block status or a provider's block page is signature evidence,
 * reported through block_category; medium: a challenge cookie was set; high: the provider's own
 * header stating that the request was challenged or blocked (cf-mitigated, x-amzn-waf-action,
 * x-vercel-mitigated, …) was seen on the benign request; verified: the active probe saw at
 * least 3 of 5 canaries blocked.
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

// ---------------------------------------------------------------- recommendations

export const wafRecommendations = (input: {
  readonly providers: ReadonlyArray<ProviderMatch>
  readonly enforcement: EnforcementSignal
  readonly topology: Topology["topology"]
  readonly headers: Readonly<Record<string, string>>
  readonly activeProbe: { readonly probed: boolean; readonly results?: ReadonlyArray<CanaryResult> } | null
}): Array<string> => {
  const rec: Array<string> = []
  const { providers, enforcement, topology, headers, activeProbe } = input
  if (providers.length === 0) {
    rec.push("No web application firewall was detected: put the site behind a WAF or a CDN with managed WAF rules (OWASP Core Rule Set or the provider's managed rules)")
  } else {
    rec.push(`Restrict the origin to ${providers[0].name}'s published address ranges (or an authenticated origin pull) so attackers cannot bypass the WAF by addressing the origin directly`)
    if (enforcement === "low" || enforcement === "medium") {
      rec.push("Verify that the WAF enforces, not just forwards: prove ownership (TXT _domain-intel-verify.<domain> = verify=<token>, or an audit token) and run the active probe with active_probe=true")
    }
  }
  if (topology === "layered") rec.push("Several WAF layers answer: keep rule sets consistent between them and make sure the inner layer only accepts traffic from the outer one")
  if (activeProbe?.probed && activeProbe.results) {
    for (const r of activeProbe.results) {
      if (r.blocked) continue
      const what: Record<CanaryId, string> = {
        sqli: "SQL injection rules (CRS 942xxx or the provider's SQLi managed rule group)",
        xss: "XSS rules (CRS 941xxx or the provider's XSS managed rule group)",
        path_traversal: "path traversal / LFI rules (CRS 930xxx)",
        shellshock: "Shellshock / remote command execution rules (CRS 932xxx)",
        scanner_ua: "scanner detection (CRS 913xxx or bot management)"
      }
      rec.push(`The ${r.canary} canary was not blocked (status ${r.status_code ?? "none"}): enable ${what[r.canary]} in blocking mode`)
    }
  }
  const server = headers["server"]
  if (server && /\d+\.\d+/.test(server)) rec.push(`The Server header discloses a version ("${server}"): remove version details`)
  if (headers["x-powered-by"]) rec.push(`Remove the X-Powered-By header ("${headers["x-powered-by"]}")`)
  return rec
}
