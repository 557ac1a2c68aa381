/**
 * Test `cookies` (pure): every cookie the graded session's cookie jar kept, stored as RFC 6265
 * §5.3 says (a cookie for another domain or for a public suffix is refused, a later cookie with
 * the same name, domain and path replaces the earlier; `__Secure-`/`__Host-` cookies that break
 * their prefix's rules are dropped, RFC 6265bis §4.1.3), plus malformed SameSite in the raw headers.
 * Names containing "login" or "sess" are session cookies, "csrf" anti-CSRF tokens.
 */
import { getDomain } from "tldts"
import { worse } from "./results"
import { finalHop, gradedSession, headerValues, nodeHeaders, type Retrieval } from "./retrieval"

interface Cookie {
  readonly key: string
  readonly domain: string
  readonly path: string
  readonly secure: boolean
  readonly httpOnly: boolean
  readonly sameSite: "strict" | "lax" | "none" | undefined
}

const CONTROL = /[\x00-\x1F]/
const SPECIAL_USE = ["local", "example", "invalid", "localhost", "test"]

/** Set-Cookie parsing (RFC 6265 §5.2): the last of a repeated attribute wins. */
const parseSetCookie = (line: string) => {
  const str = line.trim()
  const semi = str.indexOf(";")
  let pair = semi === -1 ? str : str.slice(0, semi)
  for (const t of ["\n", "\r", "\0"]) if (pair.includes(t)) pair = pair.slice(0, pair.indexOf(t))
  const eq = pair.indexOf("=")
  if (eq <= 0) return null
  const key = pair.slice(0, eq).trim()
  const value = pair.slice(eq + 1).trim()
  if (CONTROL.test(key) || CONTROL.test(value)) return null
  const c = { key, domain: null as string | null, path: null as string | null, secure: false, httpOnly: false, sameSite: undefined as Cookie["sameSite"] }
  if (semi === -1) return c
  for (const raw of str.slice(semi + 1).split(";")) {
    const av = raw.trim()
    if (!av) continue
    const sep = av.indexOf("=")
    const name = (sep === -1 ? av : av.slice(0, sep)).trim().toLowerCase()
    const v = sep === -1 ? null : av.slice(sep + 1).trim()
    if (name === "domain") {
      const d = v ? v.trim().replace(/^\./, "") : ""
      if (d) c.domain = d.toLowerCase()
    } else if (name === "path") c.path = v && v[0] === "/" ? v : null
    else if (name === "secure") c.secure = true
    else if (name === "httponly") c.httpOnly = true
    else if (name === "samesite") {
      const s = (v ?? "").toLowerCase()
      c.sameSite = s === "strict" || s === "lax" || s === "none" ? s : undefined
    }
  }
  return c
}

/** The registrable part of a cookie's Domain, or null when it is a public suffix. */
const registrable = (domain: string): string | null => {
  const labels = domain.split(".")
  const tld = labels[labels.length - 1]
  if (SPECIAL_USE.includes(tld)) {
    if (labels.length > 1) return `${labels[labels.length - 2]}.${tld}`
    if (tld === "localhost" || tld === "invalid") return tld
  }
  return getDomain(domain, { allowPrivateDomains: true })
}

const domainMatch = (host: string, domain: string) =>
  host === domain || (host.endsWith(`.${domain}`) && !/^[\d.]+$/.test(host))

/** RFC 6265 §5.1.4 default-path: the request path up to its last "/". */
const defaultPath = (path: string) => {
  if (!path.startsWith("/")) return "/"
  const last = path.lastIndexOf("/")
  return last === 0 ? "/" : path.slice(0, last)
}

/** The jar after storing every Set-Cookie of the responses, in order. */
export const cookieJar = (responses: ReadonlyArray<{ readonly url: string; readonly setCookies: ReadonlyArray<string> }>): ReadonlyArray<Cookie> => {
  const jar = new Map<string, Cookie>()
  for (const { url, setCookies } of responses) {
    const u = new URL(url)
    const host = u.hostname.replace(/^\[|\]$/g, "").toLowerCase()
    for (const line of setCookies) {
      const c = parseSetCookie(line)
      if (!c) continue
      let hostOnly = true
      let domain = host
      if (c.domain) {
        if (registrable(c.domain) === null && !c.domain.includes(":")) continue
        if (!domainMatch(host, c.domain)) continue
        hostOnly = false
        domain = c.domain
      }
      const path = c.path ?? defaultPath(u.pathname)
      if (c.key.startsWith("__Secure-") && !c.secure) continue
      if (c.key.startsWith("__Host-") && !(c.secure && hostOnly && c.path === "/")) continue
      jar.set(`${domain}\u0000${path}\u0000${c.key}`, { key: c.key, domain, path, secure: c.secure, httpOnly: c.httpOnly, sameSite: c.sameSite })
    }
  }
  // The Observatory's own exception: a cookie Heroku's router sets on every app.
  return [...jar.values()].filter((c) => c.key !== "heroku-session-affinity")
}

const ORDER = [
  "cookies-without-secure-flag-but-protected-by-hsts",
  "cookies-without-secure-flag",
  "cookies-session-without-secure-flag-but-protected-by-hsts",
  "cookies-samesite-flag-invalid",
  "cookies-anticsrf-without-samesite-flag",
  "cookies-session-without-httponly-flag",
  "cookies-session-without-secure-flag"
]

/** A SameSite attribute with no value or an unknown one, in the raw header. */
const badSameSite = (line: string) =>
  line.trim().split(";").some((p) => {
    const [k, v] = p.trim().split("=")
    return k.trim().toLowerCase() === "samesite" && (!v || !["lax", "strict", "none"].includes(v.trim().toLowerCase()))
  })

export const cookiesTest = (r: Retrieval, hstsPass: boolean): { result: string; pass: boolean; count: number } => {
  const session = gradedSession(r)
  let result: string | null = null
  const page = finalHop(session)
  if (page) {
    for (const line of headerValues(nodeHeaders(page.rawHeaders), "set-cookie")) {
      if (badSameSite(line)) result = worse("cookies-samesite-flag-invalid", result, ORDER)
    }
  }
  const stored = session
    ? [...session.hops.map((h) => ({ url: h.url, setCookies: headerValues(nodeHeaders(h.rawHeaders), "set-cookie") })), ...r.extraCookies]
    : []
  const jar = cookieJar(stored)
  if (jar.length === 0) return { result: "cookies-not-found", pass: true, count: 0 }
  let missingSameSite = false
  for (const c of jar) {
    const name = c.key.toLowerCase()
    const sessionId = name.includes("login") || name.includes("sess")
    if (!c.secure && c.sameSite === "none") result = worse("cookies-samesite-flag-invalid", result, ORDER)
    if (!c.secure) result = worse(hstsPass ? "cookies-without-secure-flag-but-protected-by-hsts" : "cookies-without-secure-flag", result, ORDER)
    if (name.includes("csrf") && !c.sameSite) result = worse("cookies-anticsrf-without-samesite-flag", result, ORDER)
    if (sessionId && !c.secure) {
      result = worse(hstsPass ? "cookies-session-without-secure-flag-but-protected-by-hsts" : "cookies-session-without-secure-flag", result, ORDER)
    }
    if (sessionId && !c.httpOnly) result = worse("cookies-session-without-httponly-flag", result, ORDER)
    if (!c.sameSite) missingSameSite = true
  }
  const final = result ?? (missingSameSite ? "cookies-secure-with-httponly-sessions" : "cookies-secure-with-httponly-sessions-and-samesite")
  const pass = final === "cookies-secure-with-httponly-sessions" || final === "cookies-secure-with-httponly-sessions-and-samesite"
  return { result: final, pass, count: jar.length }
}
