/**
 * HTTP cache header analysis (RFC 9111): Cache-Control directives, validators, Age, Expires,
 * the effective freshness lifetime for shared and private caches, CDN indicators and
 * configuration issues. Pure.
 */

export interface CacheDirectives {
  readonly maxAge: number | null
  readonly sMaxAge: number | null
  readonly noCache: boolean
  readonly noStore: boolean
  readonly private: boolean
  readonly public: boolean
  readonly mustRevalidate: boolean
  readonly proxyRevalidate: boolean
  readonly immutable: boolean
  readonly noTransform: boolean
  readonly staleWhileRevalidate: number | null
  readonly staleIfError: number | null
}

export interface CdnIndicator {
  readonly header: string
  readonly value: string
  readonly provider: string | null
}

export interface CacheAnalysis {
  readonly cacheControl: string | null
  readonly directives: CacheDirectives
  readonly etag: { readonly present: boolean; readonly value: string | null; readonly weak: boolean | null }
  readonly lastModified: string | null
  readonly age: number | null
  readonly expires: string | null
  readonly pragma: string | null
  readonly vary: string | null
  /** Freshness lifetime in seconds for a shared cache (CDN, proxy); 0 when it may not serve without revalidating. */
  readonly effectiveTtl: number | null
  /** Freshness lifetime in seconds for the browser's private cache. */
  readonly browserTtl: number | null
  /** Which rule of RFC 9111 §4.2.1 decided the shared lifetime. */
  readonly ttlSource: "no-store" | "no-cache" | "private" | "s-maxage" | "max-age" | "expires" | "heuristic" | "none"
  /** Lifetime left for the response as received (effectiveTtl − Age), when known. */
  readonly remainingTtl: number | null
  readonly cdn: {
    readonly detected: boolean
    readonly provider: string | null
    readonly cacheStatus: string | null
    readonly indicators: ReadonlyArray<CdnIndicator>
  }
  readonly issues: ReadonlyArray<string>
}

const deltaSeconds = (v: string | undefined): number | null => {
  if (v === undefined) return null
  const t = v.trim().replace(/^"|"$/g, "")
  if (!/^\d+$/.test(t)) return null
  const n = Number(t)
  return Math.min(n, 2 ** 31) // RFC 9111 §1.2.2: cap at 2^31
}

export const parseCacheControl = (raw: string | undefined): { directives: CacheDirectives; invalid: Array<string> } => {
  const map = new Map<string, string | undefined>()
  const invalid: Array<string> = []
  for (const part of (raw ?? "").split(",")) {
    const p = part.trim()
    if (!p) continue
    const eq = p.indexOf("=")
    const name = (eq === -1 ? p : p.slice(0, eq)).trim().toLowerCase()
    const value = eq === -1 ? undefined : p.slice(eq + 1).trim()
    if (map.has(name)) invalid.push(`${name} repeated`)
    map.set(name, value)
  }
  const num = (n: string) => {
    if (!map.has(n)) return null
    const v = deltaSeconds(map.get(n))
    if (v === null) invalid.push(`${n} has no valid number of seconds`)
    return v
  }
  return {
    directives: {
      maxAge: num("max-age"),
      sMaxAge: num("s-maxage"),
      // Qualified no-cache="Set-Cookie" / private="…" restrict only the named fields (RFC 9111 §5.2.2.4, §5.2.2.7).
      noCache: map.has("no-cache") && map.get("no-cache") === undefined,
      noStore: map.has("no-store"),
      private: map.has("private") && map.get("private") === undefined,
      public: map.has("public"),
      mustRevalidate: map.has("must-revalidate"),
      proxyRevalidate: map.has("proxy-revalidate"),
      immutable: map.has("immutable"),
      noTransform: map.has("no-transform"),
      staleWhileRevalidate: num("stale-while-revalidate"),
      staleIfError: num("stale-if-error")
    },
    invalid
  }
}

/** CDN and cache-layer headers: header name (lower case) → provider it implies (null: generic). */
const cdnHeaders: ReadonlyArray<{ header: string; provider: string | null; test?: RegExp }> = [
  { header: "cf-cache-status", provider: "Cloudflare" },
  { header: "cf-ray", provider: "Cloudflare" },
  { header: "x-amz-cf-pop", provider: "Amazon CloudFront" },
  { header: "x-amz-cf-id", provider: "Amazon CloudFront" },
  { header: "x-served-by", provider: "Fastly", test: /cache-/i },
  { header: "x-fastly-request-id", provider: "Fastly" },
  { header: "fastly-debug-digest", provider: "Fastly" },
  { header: "x-cache-hits", provider: null },
  { header: "akamai-cache-status", provider: "Akamai" },
  { header: "x-akamai-transformed", provider: "Akamai" },
  { header: "akamai-grn", provider: "Akamai" },
  { header: "x-azure-ref", provider: "Azure Front Door" },
  { header: "x-msedge-ref", provider: "Azure CDN" },
  { header: "x-vercel-cache", provider: "Vercel" },
  { header: "x-nf-request-id", provider: "Netlify" },
  { header: "x-sucuri-cache", provider: "Sucuri" },
  { header: "x-sucuri-id", provider: "Sucuri" },
  { header: "x-litespeed-cache", provider: "LiteSpeed" },
  { header: "x-varnish", provider: "Varnish" },
  { header: "x-proxy-cache", provider: null },
  { header: "x-cache-status", provider: null },
  { header: "x-cdn", provider: null },
  { header: "x-edge-location", provider: null },
  { header: "cdn-cache-control", provider: null },
  { header: "cloudflare-cdn-cache-control", provider: "Cloudflare" },
  { header: "surrogate-control", provider: null },
  { header: "cache-status", provider: null },
  { header: "x-cache", provider: null },
  { header: "x-bunny-cache", provider: "Bunny CDN" },
  { header: "cdn-cache", provider: "Bunny CDN" },
  { header: "x-77-cache", provider: "CDN77" },
  { header: "x-hw", provider: "Edgio" },
  { header: "x-ec-custom-error", provider: "Edgecast" },
  { header: "x-swift-cachetime", provider: "Alibaba Cloud CDN" },
  { header: "eagleid", provider: "Alibaba Cloud CDN" },
  { header: "x-nws-log-uuid", provider: "Tencent Cloud CDN" },
  { header: "x-github-request-id", provider: "GitHub Pages (Fastly)" }
]

const providerFromValues = (h: Readonly<Record<string, string>>): string | null => {
  const server = (h["server"] ?? "").toLowerCase()
  const via = (h["via"] ?? "").toLowerCase()
  const xcache = (h["x-cache"] ?? "").toLowerCase()
  if (server.includes("cloudflare")) return "Cloudflare"
  if (server.includes("akamaighost") || server.includes("akamai")) return "Akamai"
  if (via.includes("cloudfront") || xcache.includes("cloudfront")) return "Amazon CloudFront"
  if (via.includes("varnish") && h["x-served-by"]) return "Fastly"
  if (via.includes("google")) return "Google Cloud CDN"
  if (server.includes("ecacc") || server.includes("ecs (")) return "Edgecast"
  if (server === "netlify") return "Netlify"
  if (server === "vercel") return "Vercel"
  if (server.includes("bunnycdn")) return "Bunny CDN"
  if (via.includes("varnish")) return "Varnish"
  return null
}

const cacheStatusOf = (h: Readonly<Record<string, string>>): string | null => {
  const v = h["cf-cache-status"] ?? h["x-vercel-cache"] ?? h["akamai-cache-status"] ?? h["x-cache-status"] ??
    h["x-proxy-cache"] ?? h["x-litespeed-cache"] ?? h["x-sucuri-cache"] ?? h["cache-status"] ?? h["x-cache"]
  if (v === undefined) return null
  const m = /\b(HIT|MISS|EXPIRED|STALE|BYPASS|DYNAMIC|REVALIDATED|UPDATING|PASS|REFRESH|fwd=\w+|hit)\b/i.exec(v)
  return m ? m[1].toUpperCase() : v.slice(0, 40)
}

export interface CacheInput {
  readonly headers: Readonly<Record<string, string>>
  readonly status: number
  readonly isHtml: boolean
  readonly nowMs: number
}

export const analyzeCache = ({ headers: h, isHtml, nowMs, status }: CacheInput): CacheAnalysis => {
  const cc = h["cache-control"]
  const { directives: d, invalid } = parseCacheControl(cc)
  const issues: Array<string> = invalid.map((i) => `Cache-Control: ${i}`)
  const etagRaw = h["etag"] ?? null
  const etagWeak = etagRaw === null ? null : /^W\//.test(etagRaw.trim())
  if (etagRaw !== null && !/^(W\/)?"[^"]*"$/.test(etagRaw.trim())) issues.push("ETag is not a quoted entity tag (RFC 9110 §8.8.3)")
  const lastModified = h["last-modified"] ?? null
  const age = deltaSeconds(h["age"])
  const expires = h["expires"] ?? null
  const dateHeader = h["date"] ? Date.parse(h["date"]) : NaN
  const baseNow = Number.isNaN(dateHeader) ? nowMs : dateHeader
  const expiresMs = expires !== null ? Date.parse(expires) : NaN
  const lmMs = lastModified !== null ? Date.parse(lastModified) : NaN

  // RFC 9111 §4.2.1: s-maxage (shared) > max-age > Expires − Date > heuristic (§4.2.2).
  let ttlSource: CacheAnalysis["ttlSource"]
  let effectiveTtl: number | null
  let browserTtl: number | null
  const explicitPrivate = d.maxAge ?? (Number.isNaN(expiresMs) ? (expires !== null ? 0 : null) : Math.max(0, Math.round((expiresMs - baseNow) / 1000)))
  const heuristic = Number.isNaN(lmMs) ? null : Math.max(0, Math.round(((baseNow - lmMs) / 1000) * 0.1))
  if (d.noStore) {
    ttlSource = "no-store"
    effectiveTtl = 0
    browserTtl = 0
  } else if (d.noCache) {
    ttlSource = "no-cache"
    effectiveTtl = 0
    browserTtl = 0
  } else if (d.private) {
    ttlSource = "private"
    effectiveTtl = 0
    browserTtl = explicitPrivate ?? heuristic
  } else if (d.sMaxAge !== null) {
    ttlSource = "s-maxage"
    effectiveTtl = d.sMaxAge
    browserTtl = explicitPrivate ?? heuristic
  } else if (d.maxAge !== null) {
    ttlSource = "max-age"
    effectiveTtl = d.maxAge
    browserTtl = d.maxAge
  } else if (expires !== null) {
    ttlSource = "expires"
    effectiveTtl = explicitPrivate ?? 0
    browserTtl = effectiveTtl
  } else if (heuristic !== null && [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501].includes(status)) {
    ttlSource = "heuristic"
    effectiveTtl = heuristic
    browserTtl = heuristic
  } else {
    ttlSource = "none"
    effectiveTtl = null
    browserTtl = null
  }
  const remainingTtl = effectiveTtl === null ? null : Math.max(0, effectiveTtl - (age ?? 0))

  // Configuration issues.
  if (cc === undefined) issues.push("no Cache-Control header: caches fall back to heuristics or Expires")
  if (d.noStore && (d.maxAge ?? 0) > 0) issues.push("no-store together with max-age: max-age is ignored")
  if (d.noCache && (d.maxAge ?? 0) > 0) issues.push("no-cache together with a positive max-age: every use is revalidated, max-age has no effect")
  if (d.private && d.sMaxAge !== null) issues.push("private together with s-maxage: shared caches may not store the response, s-maxage is ignored")
  if (d.private && d.public) issues.push("both private and public: contradictory directives")
  if (d.noStore && (etagRaw !== null || lastModified !== null) && isHtml) issues.push("no-store disables caching entirely although validators exist; no-cache would allow cheap revalidation")
  if (expires !== null && Number.isNaN(expiresMs) && expires.trim() !== "0" && expires.trim() !== "-1") issues.push("Expires is not a valid HTTP date")
  if (expires !== null && d.maxAge !== null && !Number.isNaN(expiresMs)) {
    const fromExpires = Math.round((expiresMs - baseNow) / 1000)
    if (Math.abs(fromExpires - d.maxAge) > 60) issues.push("Expires and max-age disagree; max-age takes precedence (RFC 9111 §5.3)")
  }
  if (!d.noStore && etagRaw === null && lastModified === null) issues.push("no validator (ETag or Last-Modified): clients cannot revalidate with a conditional request")
  if (age !== null && effectiveTtl !== null && effectiveTtl > 0 && age > effectiveTtl) issues.push(`Age (${age}s) exceeds the freshness lifetime (${effectiveTtl}s): a stale response was served`)
  if (d.mustRevalidate && d.maxAge === null && d.sMaxAge === null && expires === null) issues.push("must-revalidate without max-age, s-maxage or Expires has nothing to enforce")
  if (d.immutable && (d.maxAge ?? 0) < 86400) issues.push("immutable with a max-age under one day")
  if (isHtml && !d.noCache && !d.noStore && (effectiveTtl ?? 0) > 7 * 86400) issues.push("HTML cached for more than a week: updates reach readers late")
  if ((h["pragma"] ?? "").toLowerCase().includes("no-cache") && cc === undefined) issues.push("Pragma: no-cache without Cache-Control: Pragma is deprecated for responses (RFC 9111 §5.4)")
  if ((h["vary"] ?? "").trim() === "*") issues.push("Vary: * makes the response effectively uncacheable")
  if (lastModified !== null && Number.isNaN(lmMs)) issues.push("Last-Modified is not a valid HTTP date")
  if (!Number.isNaN(lmMs) && lmMs > baseNow + 60_000) issues.push("Last-Modified is in the future")

  // CDN indicators.
  const indicators: Array<CdnIndicator> = []
  let provider: string | null = null
  for (const c of cdnHeaders) {
    const v = h[c.header]
    if (v === undefined) continue
    if (c.test && !c.test.test(v)) continue
    indicators.push({ header: c.header, value: v.slice(0, 200), provider: c.provider })
    if (provider === null && c.provider !== null) provider = c.provider
  }
  const fromValues = providerFromValues(h)
  if (provider === null) provider = fromValues
  if (h["via"] && fromValues) indicators.push({ header: "via", value: h["via"].slice(0, 200), provider: fromValues })
  if (age !== null) indicators.push({ header: "age", value: String(age), provider: null })

  return {
    cacheControl: cc ?? null,
    directives: d,
    etag: { present: etagRaw !== null, value: etagRaw, weak: etagWeak },
    lastModified,
    age,
    expires,
    pragma: h["pragma"] ?? null,
    vary: h["vary"] ?? null,
    effectiveTtl,
    browserTtl,
    ttlSource,
    remainingTtl,
    cdn: { detected: indicators.length > 0, provider, cacheStatus: cacheStatusOf(h), indicators },
    issues
  }
}
