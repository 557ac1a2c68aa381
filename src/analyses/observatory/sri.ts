/**
 * Test `subresource-integrity` (pure): scripts from other sites should carry an `integrity`
 * hash (W3C SRI §3) and come over https. "Other site" is the Observatory's notion: a full URL
 * whose registrable domain differs from the scanned host's, or a scheme-relative `//host/` URL.
 */
import { parse } from "../../kernel/publicSuffix"
import { clientText, pageScripts } from "./html"
import { worse } from "./results"
import { finalHop, gradedScheme, gradedSession, isHtml, nodeHeaders, type Retrieval } from "./retrieval"

const ORDER = [
  "sri-implemented-and-all-scripts-loaded-securely",
  "sri-implemented-and-external-scripts-loaded-securely",
  "sri-implemented-but-external-scripts-not-loaded-securely",
  "sri-not-implemented-but-external-scripts-loaded-securely",
  "sri-not-implemented-and-external-scripts-not-loaded-securely",
  "sri-not-implemented-response-not-html"
]

const PASSING = new Set([
  "sri-implemented-and-all-scripts-loaded-securely",
  "sri-implemented-and-external-scripts-loaded-securely",
  "sri-not-implemented-response-not-html",
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
  "sri-not-implemented-but-no-scripts-loaded"
])

export const sriTest = (r: Retrieval): { result: string; pass: boolean } => {
  const session = gradedSession(r)
  const page = finalHop(session)
  if (!page) return { result: "sri-not-implemented-but-no-scripts-loaded", pass: false }
  if (!isHtml(nodeHeaders(page.rawHeaders))) return { result: "sri-not-implemented-response-not-html", pass: true }
  const scripts = pageScripts(clientText(session!.body) || "")
  const siteDomain = parse(r.hostname).domain
  const httpsPage = gradedScheme(r) === "https:"
  let result: string | null = null
  let foreign = false
  for (const { src, integrity } of scripts.external) {
    const schemeRelative = /^(\/\/)[^/]/.test(src)
    const full = /^https?:\/\//.test(src)
    const relative = !schemeRelative && !full
    const sameSite = schemeRelative || relative || parse(src).domain === siteDomain
    const secureOrigin = relative || (sameSite && !schemeRelative)
    if (!secureOrigin) foreign = true
    let scheme: string | null = null
    if (!schemeRelative && !relative) scheme = new URL(src).protocol
    const secureScheme = scheme === "https:" || (relative && httpsPage)
    if (!secureOrigin) {
      if (integrity && !secureScheme) result = worse("sri-implemented-but-external-scripts-not-loaded-securely", result, ORDER)
      else if (!integrity && secureScheme) result = worse("sri-not-implemented-but-external-scripts-loaded-securely", result, ORDER)
      else if (!integrity && !secureScheme) result = worse("sri-not-implemented-and-external-scripts-not-loaded-securely", result, ORDER)
    } else if (integrity && secureScheme && !result) {
      result = "sri-implemented-and-all-scripts-loaded-securely"
    }
  }
  const final = scripts.count === 0
    ? "sri-not-implemented-but-no-scripts-loaded"
    : result ?? (foreign ? "sri-implemented-and-external-scripts-loaded-securely" : "sri-not-implemented-but-all-scripts-loaded-from-secure-origin")
  return { result: final, pass: PASSING.has(final) }
}
