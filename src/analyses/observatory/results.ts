/**
 * The Observatory's result identifiers with their score modifiers (facts of its grading tables,
 * MDN HTTP Observatory 1.4.8), and this project's own wording of what each means and how to fix it.
 */
export type TestName =
  | "content-security-policy"
  | "cookies"
  | "cross-origin-resource-sharing"
  | "redirection"
  | "referrer-policy"
  | "strict-transport-security"
  | "subresource-integrity"
  | "x-content-type-options"
  | "x-frame-options"
  | "cross-origin-resource-policy"

/** The ten tests in the Observatory's order, each with the result it expects. */
export const TESTS: ReadonlyArray<readonly [TestName, string]> = [
  ["content-security-policy", "csp-implemented-with-no-unsafe"],
  ["cookies", "cookies-secure-with-httponly-sessions"],
  ["cross-origin-resource-sharing", "cross-origin-resource-sharing-not-implemented"],
  ["redirection", "redirection-to-https"],
  ["referrer-policy", "referrer-policy-private"],
  ["strict-transport-security", "hsts-implemented-max-age-at-least-six-months"],
  ["subresource-integrity", "sri-implemented-and-external-scripts-loaded-securely"],
  ["x-content-type-options", "x-content-type-options-nosniff"],
  ["x-frame-options", "x-frame-options-sameorigin-or-deny"],
  ["cross-origin-resource-policy", "corp-implemented-with-same-site"]
]

interface ResultInfo {
  readonly modifier: number
  readonly description: string
  /** Empty when there is nothing left to do. */
  readonly recommendation: string
}

const r = (modifier: number, description: string, recommendation = ""): ResultInfo => ({ modifier, description, recommendation })

const CSP_FIX = "Send a Content-Security-Policy header that restricts scripts to known sources, without 'unsafe-inline' or 'unsafe-eval' (nonces or hashes instead), and set object-src 'none'."
const COOKIE_FIX = "Set every cookie with Secure; set session and login cookies with HttpOnly too, and give every cookie a SameSite attribute (Lax or Strict)."
const HSTS_FIX = "Serve Strict-Transport-Security: max-age=63072000 (two years) over https with a valid certificate, ideally with includeSubDomains."
const XFO_FIX = "Forbid framing by other sites: Content-Security-Policy frame-ancestors 'self' (or 'none'), or X-Frame-Options: DENY."

export const RESULTS: ReadonlyMap<string, ResultInfo> = new Map([
  ["csp-implemented-with-no-unsafe-default-src-none", r(10, "Content Security Policy with default-src 'none' and nothing unsafe.")],
  ["csp-implemented-with-no-unsafe", r(5, "Content Security Policy without 'unsafe-inline' or 'unsafe-eval'.", "Start the policy from default-src 'none' and allow only what the page needs.")],
  ["csp-implemented-with-unsafe-inline-in-style-src-only", r(0, "Content Security Policy whose only weakness is 'unsafe-inline' (or a broad source) in style-src.", "Move inline styles to style sheets, or allow them with nonces or hashes, and drop 'unsafe-inline' from style-src.")],
  ["csp-implemented-with-insecure-scheme-in-passive-content-only", r(-10, "Content Security Policy allows images or media over plain http.", "Allow images and media over https only.")],
  ["csp-implemented-with-unsafe-eval", r(-10, "Content Security Policy allows 'unsafe-eval'.", "Remove 'unsafe-eval' from script-src and style-src.")],
  ["csp-implemented-with-unsafe-inline", r(-20, "Content Security Policy allows inline scripts ('unsafe-inline' or data:) or any origin for scripts or plugins.", CSP_FIX)],
  ["csp-implemented-with-insecure-scheme", r(-20, "Content Security Policy on an https site allows active content over http: or ftp:.", "Allow scripts, styles and other active content over https only.")],
  ["csp-header-invalid", r(-25, "Content Security Policy could not be parsed (a repeated directive, a policy too short, or 'strict-dynamic' without a nonce or hash).", "Fix the policy's syntax: each directive once per policy, 'strict-dynamic' only with nonces or hashes.")],
  ["csp-not-implemented", r(-25, "No Content Security Policy.", CSP_FIX)],
  ["csp-not-implemented-but-reporting-enabled", r(-25, "Only Content-Security-Policy-Report-Only: violations are reported, nothing is blocked.", "Once the report-only policy runs clean, send it as Content-Security-Policy.")],
  ["csp-implemented-but-duplicate-directives", r(0, "Content Security Policy passes, but report-uri or report-to appears more than once.", "Give report-uri and report-to once each.")],

  ["cookies-secure-with-httponly-sessions-and-samesite", r(5, "All cookies are Secure and have SameSite; session cookies are HttpOnly.")],
  ["cookies-secure-with-httponly-sessions", r(0, "All cookies are Secure; session cookies are HttpOnly.", "Add SameSite=Lax or Strict to every cookie.")],
  ["cookies-not-found", r(0, "No cookies set.")],
  ["cookies-without-secure-flag-but-protected-by-hsts", r(-5, "Cookies without Secure, but HSTS keeps them off plain http.", COOKIE_FIX)],
  ["cookies-session-without-secure-flag-but-protected-by-hsts", r(-10, "Session cookies without Secure, but HSTS keeps them off plain http.", COOKIE_FIX)],
  ["cookies-without-secure-flag", r(-20, "Cookies without Secure: they travel over plain http.", COOKIE_FIX)],
  ["cookies-samesite-flag-invalid", r(-20, "A SameSite attribute is malformed, or SameSite=None is set without Secure.", "Use SameSite=Strict, Lax or None; None only together with Secure.")],
  ["cookies-anticsrf-without-samesite-flag", r(-20, "An anti-CSRF cookie has no SameSite attribute.", "Set anti-CSRF cookies with SameSite=Strict or Lax.")],
  ["cookies-session-without-httponly-flag", r(-30, "Session cookies without HttpOnly: page scripts can read them.", COOKIE_FIX)],
  ["cookies-session-without-secure-flag", r(-40, "Session cookies without Secure: they travel over plain http.", COOKIE_FIX)],

  ["cross-origin-resource-sharing-not-implemented", r(0, "Content is not readable by other origins (no Access-Control-Allow-Origin).")],
  ["cross-origin-resource-sharing-implemented-with-public-access", r(0, "Content is readable by any origin (Access-Control-Allow-Origin: *), without credentials.", "Make sure nothing private is served with Access-Control-Allow-Origin: *.")],
  ["cross-origin-resource-sharing-implemented-with-restricted-access", r(0, "Content is readable by a restricted set of origins.")],
  ["cross-origin-resource-sharing-implemented-with-universal-access", r(-50, "Any origin is reflected into Access-Control-Allow-Origin with credentials allowed: every site can read this site's content as the visitor.", "Reflect only origins from an allow-list, or stop allowing credentials.")],

  ["redirection-all-redirects-preloaded", r(0, "Every host of the redirect chain is on the HSTS preload list.")],
  ["redirection-to-https", r(0, "http redirects to https on the same host first.")],
  ["redirection-not-needed-no-http", r(0, "Not reachable over plain http.")],
  ["redirection-off-host-from-http", r(-5, "http redirects to https on another host: the first host never gets to set HSTS.", "Redirect http://host/ to https://host/ first, then to the other host.")],
  ["redirection-not-to-https-on-initial-redirection", r(-10, "http redirects to another http URL before reaching https.", "Make the first redirect go to https on the same host.")],
  ["redirection-not-to-https", r(-20, "The redirect chain from http does not end on https.", "Redirect every http request to https on the same host (301 or 308).")],
  ["redirection-missing", r(-20, "http does not redirect to https.", "Redirect every http request to https on the same host (301 or 308).")],
  ["redirection-invalid-cert", r(-20, "The https side of the redirect chain has an invalid certificate.", "Serve a certificate that is trusted, current and valid for the name.")],

  ["referrer-policy-private", r(5, "Referrer-Policy keeps URLs from leaking to other sites.")],
  ["referrer-policy-not-implemented", r(0, "No Referrer-Policy (browsers default to strict-origin-when-cross-origin).", "Set Referrer-Policy: strict-origin-when-cross-origin (or stricter).")],
  ["referrer-policy-unsafe", r(-5, "Referrer-Policy leaks URLs to other sites (origin, origin-when-cross-origin, unsafe-url or no-referrer-when-downgrade).", "Use no-referrer, same-origin, strict-origin or strict-origin-when-cross-origin.")],
  ["referrer-policy-header-invalid", r(-5, "Referrer-Policy has no recognised value.", "Use no-referrer, same-origin, strict-origin or strict-origin-when-cross-origin.")],

  ["hsts-preloaded", r(5, "The host is on the HSTS preload list.")],
  ["hsts-implemented-max-age-at-least-six-months", r(0, "HSTS with a max-age of at least six months.", "Consider includeSubDomains and preloading.")],
  ["hsts-implemented-max-age-less-than-six-months", r(-10, "HSTS max-age under six months.", HSTS_FIX)],
  ["hsts-not-implemented", r(-20, "No Strict-Transport-Security header over https.", HSTS_FIX)],
  ["hsts-header-invalid", r(-20, "Strict-Transport-Security header could not be parsed (no max-age, or sent more than once).", HSTS_FIX)],
  ["hsts-not-implemented-no-https", r(-20, "Not reachable over https, so no HSTS.", "Serve the site over https, then " + HSTS_FIX[0].toLowerCase() + HSTS_FIX.slice(1))],
  ["hsts-invalid-cert", r(-20, "The https certificate is invalid, so browsers ignore HSTS.", "Serve a certificate that is trusted, current and valid for the name.")],

  ["sri-implemented-and-all-scripts-loaded-securely", r(5, "Subresource Integrity on scripts, all loaded over https.")],
  ["sri-implemented-and-external-scripts-loaded-securely", r(5, "Subresource Integrity on scripts from other origins, loaded over https.")],
  ["sri-not-implemented-response-not-html", r(0, "The page is not HTML, so no scripts to check.")],
  ["sri-not-implemented-but-no-scripts-loaded", r(0, "The page loads no scripts.")],
  ["sri-not-implemented-but-all-scripts-loaded-from-secure-origin", r(0, "Scripts come from the site itself only.", "Add integrity attributes to scripts from other origins if you add any.")],
  ["sri-not-implemented-but-external-scripts-loaded-securely", r(-5, "Scripts from other origins over https, without Subresource Integrity.", "Add integrity (and crossorigin) attributes to scripts from other origins.")],
  ["sri-implemented-but-external-scripts-not-loaded-securely", r(-20, "Scripts from other origins with integrity but not over https.", "Load scripts from other origins over https.")],
  ["sri-not-implemented-and-external-scripts-not-loaded-securely", r(-50, "Scripts from other origins without integrity and not over https: anyone on the path can change them.", "Load scripts from other origins over https with integrity attributes.")],
  ["html-not-parseable", r(-20, "The page's HTML could not be parsed.", "Serve well-formed HTML.")],

  ["x-content-type-options-nosniff", r(0, "X-Content-Type-Options: nosniff.")],
  ["x-content-type-options-not-implemented", r(-5, "No X-Content-Type-Options header.", "Set X-Content-Type-Options: nosniff.")],
  ["x-content-type-options-header-invalid", r(-5, "X-Content-Type-Options has a value other than nosniff.", "Set X-Content-Type-Options: nosniff.")],

  ["x-frame-options-implemented-via-csp", r(5, "Framing is controlled by CSP frame-ancestors.")],
  ["x-frame-options-sameorigin-or-deny", r(0, "X-Frame-Options: DENY or SAMEORIGIN.", "Consider CSP frame-ancestors, which supersedes X-Frame-Options.")],
  ["x-frame-options-allow-from-origin", r(0, "X-Frame-Options: ALLOW-FROM (ignored by current browsers).", XFO_FIX)],
  ["x-frame-options-not-implemented", r(-20, "Nothing stops other sites from framing the page (clickjacking).", XFO_FIX)],
  ["x-frame-options-header-invalid", r(-20, "X-Frame-Options has an invalid value.", XFO_FIX)],

  ["corp-header-invalid", r(-5, "Cross-Origin-Resource-Policy has an invalid value.", "Use same-origin, same-site or cross-origin.")],
  ["corp-implemented-with-cross-origin", r(0, "Cross-Origin-Resource-Policy: cross-origin (any site may embed the resources).")],
  ["corp-implemented-with-same-origin", r(10, "Cross-Origin-Resource-Policy: same-origin.")],
  ["corp-implemented-with-same-site", r(10, "Cross-Origin-Resource-Policy: same-site.")],
  ["corp-not-implemented", r(0, "No Cross-Origin-Resource-Policy.", "Set Cross-Origin-Resource-Policy: same-origin (or same-site) unless other sites must embed the resources.")]
])

export const resultInfo = (result: string): ResultInfo => RESULTS.get(result) ?? r(0, result)

/** Keeps the worse of two results, by an order from best to worst (absent ones rank best). */
export const worse = (next: string, current: string | null, order: ReadonlyArray<string>): string =>
  current === null || order.indexOf(next) > order.indexOf(current) ? next : current
