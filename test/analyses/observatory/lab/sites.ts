/**
 * The test sites both graders scan, each a host name with what its http and https sides answer.
 * By default the http side redirects to https on the same host, as a well-run site does.
 * `defects` names the tests where the Observatory 1.4.8 is wrong and this service differs on purpose.
 */
export interface Answer {
  readonly status?: number
  readonly headers?: ReadonlyArray<readonly [string, string]>
  readonly body?: string
  /** Answer to the CORS preflight (OPTIONS); default 405. */
  readonly preflight?: (origin: string | null) => { status: number; headers: ReadonlyArray<readonly [string, string]> }
  /** Other paths: status and headers (robots.txt, a second hop). */
  readonly paths?: Readonly<Record<string, Answer>>
  /** The answer instead when the request's Cookie header is exactly `cookie` (a session the site recognises). */
  readonly withCookie?: { readonly cookie: string; readonly answer: Answer }
}

export interface Site {
  readonly host: string
  /** Which loopback address: 1 http and https, 2 http only, 3 https only, 4 https with an untrusted certificate, 5 nothing listening. */
  readonly ip?: 1 | 2 | 3 | 4 | 5
  readonly http?: Answer
  readonly https?: Answer
  /** Tests whose result differs from the Observatory's on purpose (its defects). */
  readonly defects?: Readonly<Record<string, string>>
  /** The scan must fail (both refuse to grade). */
  readonly fails?: boolean
  /** Every answer of this site waits this long (a distant server, for the bench). */
  readonly delayMs?: number
}

export const CA_LABEL = "observatory lab"

const html = (inner: string) => `<!doctype html><html><head><title>t</title>${inner}</head><body><p>hi</p></body></html>`
const HTML: ReadonlyArray<readonly [string, string]> = [["Content-Type", "text/html; charset=utf-8"]]
const page = (headers: ReadonlyArray<readonly [string, string]>, inner = ""): Answer => ({ headers: [...HTML, ...headers], body: html(inner) })
const HSTS: readonly [string, string] = ["Strict-Transport-Security", "max-age=63072000"]
const goodCsp = "default-src 'none'; img-src 'self'; script-src 'self'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
const GOOD: ReadonlyArray<readonly [string, string]> = [
  ["Content-Security-Policy", goodCsp], HSTS, ["X-Content-Type-Options", "nosniff"], ["Referrer-Policy", "no-referrer"],
  ["Cross-Origin-Resource-Policy", "same-origin"], ["X-Frame-Options", "DENY"]
]
/** The good site's headers with one header replaced (or removed when value is null). */
const goodBut = (name: string, value: string | null, extra: ReadonlyArray<readonly [string, string]> = []) =>
  [...GOOD.filter(([k]) => k.toLowerCase() !== name.toLowerCase()), ...(value === null ? [] : [[name, value] as const]), ...extra]
const csp = (policy: string | null, extra: ReadonlyArray<readonly [string, string]> = []) => page(goodBut("Content-Security-Policy", policy, extra))
const scripts = (tags: string) => page(GOOD, tags)
const reflect = (origin: string | null) => ({ status: 200, headers: [["Access-Control-Allow-Origin", origin ?? "null"], ["Access-Control-Allow-Credentials", "true"]] as const })

export const SITES: ReadonlyArray<Site> = [
  { host: "aplus.test", https: page([...GOOD, ["Set-Cookie", "__Host-sessionid=1; Secure; HttpOnly; SameSite=Strict; Path=/"]], `<script src="/app.js"></script>`) },
  { host: "bare.test", http: page([]), https: page([]) },
  { host: "distant.test", https: page([...GOOD, ["Set-Cookie", "__Host-sessionid=1; Secure; HttpOnly; SameSite=Strict; Path=/"]]), delayMs: 50 },
  { host: "csp-inline.test", https: csp("default-src 'self'; script-src 'self' 'unsafe-inline'") },
  { host: "csp-nonce.test", https: csp("script-src 'nonce-abc' 'unsafe-inline' 'strict-dynamic' https: 'self'; object-src 'none'; default-src 'self'") },
  { host: "csp-dynamic-alone.test", https: csp("default-src 'self'; script-src 'strict-dynamic' 'self'") },
  { host: "csp-eval.test", https: csp("default-src 'self' 'unsafe-eval'") },
  { host: "csp-insecure.test", https: csp("default-src 'self' http://cdn.other.test") },
  { host: "csp-passive.test", https: csp("default-src 'self'; img-src 'self' http:") },
  { host: "csp-style.test", https: csp("default-src 'self'; style-src 'self' 'unsafe-inline'") },
  { host: "csp-none.test", https: csp("default-src 'none'") },
  { host: "csp-duplicate.test", https: csp("default-src 'self'; default-src 'none'") },
  { host: "csp-report-dup.test", https: csp("default-src 'self'; report-uri /a; report-uri /b") },
  { host: "csp-short.test", https: csp("a") },
  { host: "csp-report-only.test", https: csp(null, [["Content-Security-Policy-Report-Only", "default-src 'none'"]]) },
  { host: "csp-two-headers.test", https: csp("default-src 'self'", [["Content-Security-Policy", "script-src 'none'"]]) },
  { host: "csp-meta.test", https: page(goodBut("Content-Security-Policy", null), `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'"><meta name="referrer" content="unsafe-url">`) },
  { host: "csp-meta-only-header-directives.test", https: page(goodBut("Content-Security-Policy", null), `<meta http-equiv="content-security-policy" content="frame-ancestors 'none'">`) },
  {
    host: "csp-meta-frame-ancestors.test",
    https: page(goodBut("X-Frame-Options", null, []).filter(([k]) => k !== "Content-Security-Policy"), `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-ancestors 'none'">`),
    defects: { "x-frame-options": "browsers ignore frame-ancestors in a <meta> policy; the Observatory counts it" }
  },
  { host: "csp-meta-in-json.test", https: { headers: [["Content-Type", "application/json"], ...goodBut("Content-Security-Policy", null)], body: `{"a":"<meta http-equiv=\\"Content-Security-Policy\\" content=\\"default-src 'none'\\">"}` } },
  { host: "cookies-nosecure.test", https: page([...GOOD, ["Set-Cookie", "id=1; SameSite=Lax"]]) },
  { host: "cookies-nosecure-nohsts.test", https: page([...goodBut("Strict-Transport-Security", null), ["Set-Cookie", "id=1; SameSite=Lax"]]) },
  { host: "cookies-session.test", https: page([...GOOD, ["Set-Cookie", "sessionid=1; Secure; SameSite=Lax"]]) },
  { host: "cookies-session-insecure.test", https: page([...goodBut("Strict-Transport-Security", null), ["Set-Cookie", "PHPSESSID=1; HttpOnly"]]) },
  { host: "cookies-samesite-bad.test", https: page([...GOOD, ["Set-Cookie", "a=1; Secure; SameSite=Bogus"]]) },
  { host: "cookies-samesite-none.test", https: page([...GOOD, ["Set-Cookie", "a=1; SameSite=None"]]) },
  { host: "cookies-csrf.test", https: page([...GOOD, ["Set-Cookie", "csrftoken=1; Secure; HttpOnly"]]) },
  { host: "cookies-nosamesite.test", https: page([...GOOD, ["Set-Cookie", "a=1; Secure"], ["Set-Cookie", "b=2; Secure; SameSite=Lax"]]) },
  {
    host: "cookies-prefix.test",
    https: page([...GOOD, ["Set-Cookie", "__Host-a=1; Secure; Path=/; Domain=cookies-prefix.test"], ["Set-Cookie", "__Secure-b=1"], ["Set-Cookie", "c=1; Domain=other.test"], ["Set-Cookie", "d=1; Domain=test"]])
  },
  {
    host: "cookies-hop.test",
    https: { status: 302, headers: [["Location", "/home"], ["Set-Cookie", "login=1"]], paths: { "/home": page(GOOD) } }
  },
  { host: "cors-public.test", https: { ...page(GOOD), preflight: () => ({ status: 200, headers: [["Access-Control-Allow-Origin", "*"]] }) } },
  { host: "cors-restricted.test", https: { ...page(GOOD), preflight: () => ({ status: 204, headers: [["Access-Control-Allow-Origin", "https://partner.test"]] }) } },
  {
    host: "cors-reflect.test",
    https: { ...page(GOOD), preflight: reflect },
    defects: { "cross-origin-resource-sharing": "the Observatory never sees the Origin it sent, so it misses universal access" }
  },
  { host: "cors-error.test", https: { ...page(GOOD), preflight: () => ({ status: 403, headers: [["Access-Control-Allow-Origin", "*"]] }) } },
  { host: "redirect-offhost.test", http: { status: 301, headers: [["Location", "https://aplus.test/"]] }, https: page(GOOD) },
  { host: "redirect-http-first.test", http: { status: 301, headers: [["Location", "http://aplus.test/"]] }, https: page(GOOD) },
  { host: "redirect-missing.test", http: page([]), https: page(GOOD) },
  { host: "redirect-to-http.test", http: { status: 302, headers: [["Location", "http://bare.test/"]] }, https: page(GOOD) },
  { host: "redirect-loop.test", http: { status: 302, headers: [["Location", "/again"]], paths: { "/again": { status: 302, headers: [["Location", "/"]] } } }, https: page(GOOD) },
  { host: "redirect-no-location.test", http: { status: 301, headers: [] , paths: { "/undefined": page([]) } }, https: page(GOOD) },
  { host: "hsts-short.test", https: page(goodBut("Strict-Transport-Security", "max-age=300")) },
  { host: "hsts-no-max-age.test", https: page(goodBut("Strict-Transport-Security", "includeSubDomains")) },
  { host: "hsts-twice.test", https: page(goodBut("Strict-Transport-Security", "max-age=63072000", [["Strict-Transport-Security", "max-age=100"]])) },
  { host: "hsts-nan.test", https: page(goodBut("Strict-Transport-Security", "max-age=forever")) },
  { host: "hsts-preload.test", https: page(goodBut("Strict-Transport-Security", null)) },
  { host: "sub.hsts-preload-tree.test", https: page(GOOD) },
  { host: "sri-external-ok.test", https: scripts(`<script src="https://cdn.other.test/a.js" integrity="sha384-abc" crossorigin="anonymous"></script>`) },
  { host: "sri-external-nointegrity.test", https: scripts(`<script src="https://cdn.other.test/a.js"></script>`) },
  { host: "sri-external-http.test", https: scripts(`<script src="http://cdn.other.test/a.js"></script><script src="https://cdn.other.test/b.js" integrity="sha384-x"></script>`) },
  { host: "sri-integrity-http.test", https: scripts(`<script src="http://cdn.other.test/a.js" integrity="sha384-x"></script>`) },
  { host: "sri-scheme-relative.test", https: scripts(`<script src="//cdn.other.test/a.js"></script>`) },
  { host: "sri-same-site.test", https: scripts(`<script src="/a.js"></script><script src="https://static.sri-same-site.test/b.js"></script><script>inline()</script>`) },
  { host: "sri-same-origin-integrity.test", https: scripts(`<script src="/a.js" integrity="sha384-x"></script>`) },
  { host: "sri-inline-only.test", https: scripts(`<script>inline()</script>`) },
  { host: "sri-base.test", https: scripts(`<base href="https://cdn.other.test/"><script src="/a.js"></script>`) },
  { host: "sri-noscript.test", https: scripts(`<noscript><script src="http://cdn.other.test/a.js"></script></noscript>`) },
  { host: "not-html.test", https: { headers: [["Content-Type", "application/json"], ...GOOD], body: `{"a":1}` } },
  { host: "html-uppercase-type.test", https: { headers: [["Content-Type", "Text/HTML"], ...GOOD], body: html(`<script src="http://cdn.other.test/a.js"></script>`) } },
  { host: "xfo-sameorigin.test", https: page(goodBut("Content-Security-Policy", "default-src 'none'", [])) },
  { host: "xfo-allow-from.test", https: page([...goodBut("Content-Security-Policy", "default-src 'none'").filter(([k]) => k !== "X-Frame-Options"), ["X-Frame-Options", "ALLOW-FROM https://a.test"]]) },
  { host: "xfo-invalid.test", https: page([...goodBut("Content-Security-Policy", "default-src 'none'").filter(([k]) => k !== "X-Frame-Options"), ["X-Frame-Options", "DENY"], ["X-Frame-Options", "SAMEORIGIN"]]) },
  { host: "xfo-none.test", https: page(goodBut("Content-Security-Policy", "default-src 'none'").filter(([k]) => k !== "X-Frame-Options")) },
  { host: "referrer-unsafe.test", https: page(goodBut("Referrer-Policy", "unsafe-url")) },
  { host: "referrer-fallback.test", https: page(goodBut("Referrer-Policy", "no-referrer, bogus-token")) },
  { host: "referrer-invalid.test", https: page(goodBut("Referrer-Policy", "bogus")) },
  { host: "corp-invalid.test", https: page(goodBut("Cross-Origin-Resource-Policy", "everyone")) },
  { host: "corp-cross.test", https: page(goodBut("Cross-Origin-Resource-Policy", "cross-origin")) },
  { host: "xcto-invalid.test", https: page(goodBut("X-Content-Type-Options", "sniff")) },
  { host: "unauthorized.test", https: { ...page(GOOD), status: 401 } },
  { host: "server-error.test", https: { ...page(GOOD), status: 500 }, fails: true },
  // Cookies set along a redirect chain are sent on its next hops, as the Observatory's client does.
  {
    host: "cookie-chain.test",
    https: {
      status: 302, headers: [["Location", "/app"], ["Set-Cookie", "sessionid=1; Secure; HttpOnly; SameSite=Lax; Path=/"]],
      paths: { "/app": { ...page([]), withCookie: { cookie: "sessionid=1", answer: page(GOOD) } } }
    }
  },
  {
    // A Secure cookie set over http is kept and sent over https: the http session ends off https.
    host: "cookie-http-hop.test",
    http: { status: 301, headers: [["Location", "https://cookie-http-hop.test/next"], ["Set-Cookie", "seen=1; Secure"]] },
    https: { ...page(GOOD), paths: { "/next": { ...page(GOOD), withCookie: { cookie: "seen=1", answer: { status: 302, headers: [["Location", "http://bare.test/"]] } } } } }
  },
  {
    // An expired cookie on a redirect is dropped from the jar by the next hop's request.
    host: "cookie-expired-hop.test",
    https: { status: 302, headers: [["Location", "/home"], ["Set-Cookie", "sessid=gone; Max-Age=0; Path=/"], ["Set-Cookie", "left=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/"]], paths: { "/home": page(GOOD) } }
  },
  {
    // Only matching paths are sent, the longer path first: /app/ gets "a=1; c=1", never b.
    host: "cookie-paths.test",
    https: {
      status: 302, headers: [["Location", "/app/"], ["Set-Cookie", "c=1; Secure; Path=/"], ["Set-Cookie", "a=1; Path=/app"], ["Set-Cookie", "b=1; Path=/other"]],
      paths: { "/app/": { ...page([]), withCookie: { cookie: "a=1; c=1", answer: page(GOOD) } } }
    }
  },
  {
    // At an untrusted certificate the Observatory starts the session over, keeping the jar.
    host: "cookie-to-bad-cert.test",
    https: {
      status: 302, headers: [["Location", "https://bad-cert.test/"], ["Set-Cookie", "first=1"]],
      withCookie: { cookie: "first=1", answer: page([]) }
    }
  },
  { host: "http-only.test", ip: 2, http: page([["Set-Cookie", "sessionid=1"]]) },
  { host: "https-only.test", ip: 3, https: page(GOOD) },
  {
    host: "bad-cert.test",
    ip: 4,
    https: { ...page([...GOOD, ["Set-Cookie", "a=1; Secure; HttpOnly; SameSite=Lax"]]), paths: { "/robots.txt": { headers: [["Content-Type", "text/plain"], ["Set-Cookie", "fromrobots=1"]], body: "User-agent: *\n" } } }
  },
  { host: "down.test", ip: 5, fails: true },
  {
    host: "securitytxt.test",
    https: { ...page(GOOD), paths: { "/.well-known/security.txt": { headers: [["Content-Type", "text/plain"]], body: "Contact: mailto:security@securitytxt.test\nExpires: 2999-01-01T00:00:00Z\n" } } }
  }
]

/** Hosts the sites refer to that are not sites of their own (resolved, not scanned). */
export const OTHER_HOSTS = ["cdn.other.test", "static.sri-same-site.test", "partner.test"]

/** The HSTS preload list of the lab, in the Observatory's own format. */
export const PRELOAD = {
  "hsts-preload.test": { includeSubDomains: false, includeSubDomainsForPinning: false, mode: "force-https", pinned: false },
  "hsts-preload-tree.test": { includeSubDomains: true, includeSubDomainsForPinning: true, mode: "force-https", pinned: false }
}
