/**
 * Test `content-security-policy` (pure): the policy from the headers and `<meta http-equiv>`
 * (Content-Security-Policy-Report-Only enforces nothing and only changes the failure's name).
 * The checks run from worst to best and the first that applies names the result, as the
 * Observatory does; sets are shared between directives that fall back to default-src, so
 * removing 'unsafe-inline' next to a nonce affects both, as there.
 */
import { CspInvalid, DUPLICATES, parseCsp, parseMetaCsp, type Csp } from "./cspParse"
import { clientText, metaHeaders } from "./html"
import { finalHop, firstHeader, gradedScheme, gradedSession, headerValues, isHtml, nodeHeaders, type Retrieval } from "./retrieval"

const BROAD = new Set(["ftp:", "http:", "https:", "*", "http://*", "http://*.*", "https://*", "https://*.*"])
const INLINE = new Set(["'unsafe-inline'", "data:"])
const BROAD_OR_INLINE = new Set([...BROAD, ...INLINE])
const PASSIVE = new Set(["img-src", "media-src"])
const NONCE_OR_HASH = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"]

const hasNonceOrHash = (s: Set<string>) => [...s].some((v) => NONCE_OR_HASH.some((p) => v.startsWith(p)))

export interface CspOutcome {
  readonly result: string
  readonly pass: boolean
  /** The effective policy, directive → sorted sources (null when none was graded). */
  readonly policy: Readonly<Record<string, ReadonlyArray<string>>> | null
  /** A header policy (not a `<meta>` one: browsers ignore frame-ancestors there) sets frame-ancestors. */
  readonly frameAncestors: boolean
}

/** The header and `<meta>` policies of the graded page. */
export const pagePolicies = (r: Retrieval) => {
  const hop = finalHop(gradedSession(r))
  if (!hop) return null
  const headers = nodeHeaders(hop.rawHeaders)
  const text = clientText(gradedSession(r)!.body)
  const meta = isHtml(headers) && text ? metaHeaders(text) : { csp: [], referrer: [] }
  return { headers, meta }
}

export const cspTest = (r: Retrieval): CspOutcome => {
  const page = pagePolicies(r)
  if (!page) return { result: "csp-not-implemented", pass: false, policy: null, frameAncestors: false }
  const fromHeader = headerValues(page.headers, "content-security-policy")
  const fromMeta = page.meta.csp
  let csp: Csp
  try {
    csp = parseCsp([...fromHeader, ...fromMeta])
  } catch (e) {
    if (e instanceof CspInvalid) return { result: "csp-header-invalid", pass: false, policy: null, frameAncestors: false }
    throw e
  }
  const safely = (f: () => Csp): Csp => {
    try {
      return f()
    } catch {
      return new Map()
    }
  }
  const headerOnly = safely(() => parseCsp(fromHeader))
  const metaOnly = safely(() => parseMetaCsp(fromMeta))
  // A lone <meta> policy made only of header-only directives counts as no policy.
  if (headerOnly.size + metaOnly.size === 0) {
    const reportOnly = firstHeader(page.headers, "content-security-policy-report-only")
    return { result: reportOnly ? "csp-not-implemented-but-reporting-enabled" : "csp-not-implemented", pass: false, policy: null, frameAncestors: false }
  }

  let result: string | null = null
  const set = (id: string) => {
    if (result === null) result = id
  }
  const objectSrc = csp.get("object-src") ?? csp.get("default-src") ?? new Set(["*"])
  const scriptSrc = csp.get("script-src") ?? csp.get("default-src") ?? new Set(["*"])
  const styleSrc = csp.get("style-src") ?? csp.get("default-src") ?? new Set(["*"])

  // A nonce or hash makes browsers ignore 'unsafe-inline' (CSP3 §6.7.3.3).
  for (const list of [scriptSrc, styleSrc]) {
    if (hasNonceOrHash(list) && list.has("'unsafe-inline'")) list.delete("'unsafe-inline'")
  }
  // 'strict-dynamic' with a nonce or hash makes browsers ignore host and scheme sources,
  // 'self' and 'unsafe-inline' (CSP3 §8.2); without one it is a mistake.
  if (hasNonceOrHash(scriptSrc) && scriptSrc.has("'strict-dynamic'")) {
    for (const s of [...scriptSrc]) {
      if ([...BROAD].some((b) => s.startsWith(b)) || s === "'self'" || s === "'unsafe-inline'") scriptSrc.delete(s)
    }
  } else if (scriptSrc.has("'strict-dynamic'")) set("csp-header-invalid")

  const active = [...csp.entries()]
    .filter(([d]) => !PASSIVE.has(d) && d !== "script-src")
    .flatMap(([, s]) => [...s])
  active.push(...scriptSrc)
  const passive = [...PASSIVE].flatMap((d) => [...(csp.get(d) ?? csp.get("default-src") ?? new Set<string>())])
  const https = gradedScheme(r) === "https:"
  const insecure = (s: string) => s.startsWith("http:") || s.startsWith("ftp:")

  if ([...scriptSrc].some((s) => BROAD_OR_INLINE.has(s)) || [...objectSrc].some((s) => BROAD.has(s))) {
    set("csp-implemented-with-unsafe-inline")
  }
  if (https && active.some(insecure)) set("csp-implemented-with-insecure-scheme")
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'")) set("csp-implemented-with-unsafe-eval")
  if (https && passive.some(insecure)) set("csp-implemented-with-insecure-scheme-in-passive-content-only")
  if ([...styleSrc].some((s) => BROAD_OR_INLINE.has(s))) set("csp-implemented-with-unsafe-inline-in-style-src-only")
  const defaultSrc = csp.get("default-src")
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1) set("csp-implemented-with-no-unsafe-default-src-none")
  else set("csp-implemented-with-no-unsafe")

  let final: string = result!
  const pass = [
    "csp-implemented-with-no-unsafe",
    "csp-implemented-with-no-unsafe-default-src-none",
    "csp-implemented-with-unsafe-inline-in-style-src-only",
    "csp-implemented-with-insecure-scheme-in-passive-content-only"
  ].includes(final)
  if (pass && csp.has(DUPLICATES)) final = "csp-implemented-but-duplicate-directives"

  const policy: Record<string, ReadonlyArray<string>> = {}
  for (const [d, s] of csp) if (d !== DUPLICATES) policy[d] = [...s].sort()
  return { result: final, pass, policy, frameAncestors: headerOnly.has("frame-ancestors") }
}
