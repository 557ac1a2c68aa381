/**
 * The cookie jar of one Observatory session (pure, no I/O): what its HTTP client (tough-cookie 5
 * behind http-cookie-agent) keeps from each response of the session and sends with each request.
 *
 * Storing (RFC 6265 §5.2, §5.3): the last of a repeated attribute wins; a cookie for another
 * domain or for a public suffix is refused; a later cookie with the same name, domain and path
 * replaces the earlier and keeps its creation time; `__Secure-`/`__Host-` cookies that break
 * their prefix's rules are dropped (RFC 6265bis §4.1.3). An expired cookie is stored too.
 * Sending (RFC 6265 §5.4): host-only cookies to their host, others to their domain and below;
 * the path must match; Secure ones only over https; the longer path first, then the older.
 * An expired cookie is not sent, and a request it would have matched removes it from the jar
 * (as tough-cookie does), so it no longer counts for the cookie test either.
 */
import { getDomain } from "../../kernel/publicSuffix"

export interface Cookie {
  readonly key: string
  readonly value: string
  readonly domain: string
  readonly path: string
  readonly hostOnly: boolean
  readonly secure: boolean
  readonly httpOnly: boolean
  readonly sameSite: "strict" | "lax" | "none" | undefined
  /** Epoch ms after which it is expired (-Infinity: Max-Age <= 0); null: a session cookie. */
  readonly expires: number | null
  /** Order of first storage (a replacement keeps it). */
  readonly created: number
}

const CONTROL = /[\x00-\x1F]/
const SPECIAL_USE = ["local", "example", "invalid", "localhost", "test"]

/** Set-Cookie parsing (RFC 6265 §5.2): the last of a repeated attribute wins. */
const parseSetCookie = (line: string, now: number) => {
  const str = line.trim()
  const semi = str.indexOf(";")
  let pair = semi === -1 ? str : str.slice(0, semi)
  for (const t of ["\n", "\r", "\0"]) if (pair.includes(t)) pair = pair.slice(0, pair.indexOf(t))
  const eq = pair.indexOf("=")
  if (eq <= 0) return null
  const key = pair.slice(0, eq).trim()
  const value = pair.slice(eq + 1).trim()
  if (CONTROL.test(key) || CONTROL.test(value)) return null
  const c = {
    key, value, domain: null as string | null, path: null as string | null, secure: false, httpOnly: false,
    sameSite: undefined as Cookie["sameSite"], maxAge: null as number | null, expiresAt: null as number | null
  }
  if (semi === -1) return { ...c, expires: null }
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
    } else if (name === "max-age") {
      // RFC 6265 §5.2.2: only an optional minus and digits; anything else is ignored.
      if (v !== null && /^-?[0-9]+$/.test(v)) c.maxAge = Number.parseInt(v, 10)
    } else if (name === "expires") {
      const t = v === null ? Number.NaN : Date.parse(v)
      if (!Number.isNaN(t)) c.expiresAt = t
    }
  }
  // Max-Age wins over Expires (RFC 6265 §5.3 step 3).
  const expires = c.maxAge !== null ? (c.maxAge <= 0 ? -Infinity : now + c.maxAge * 1000) : c.expiresAt
  return { ...c, expires }
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

/** RFC 6265 §5.1.4 path-match. */
const pathMatch = (reqPath: string, cookiePath: string) =>
  reqPath === cookiePath ||
  (reqPath.startsWith(cookiePath) && (cookiePath.endsWith("/") || reqPath[cookiePath.length] === "/"))

/** RFC 6265 §5.1.4 default-path: the request path up to its last "/". */
const defaultPath = (path: string) => {
  if (!path.startsWith("/")) return "/"
  const last = path.lastIndexOf("/")
  return last === 0 ? "/" : path.slice(0, last)
}

const hostOf = (u: URL) => u.hostname.replace(/^\[|\]$/g, "").toLowerCase()

/**
 * The request path the Observatory's cookie agent matches: it rebuilds the URL with Node's
 * url.format from the request's path, which escapes the query's "?" into the path.
 */
const agentPath = (u: URL) => u.pathname + (u.search ? `%3F${u.search.slice(1)}` : "")

export class Jar {
  private readonly cookies = new Map<string, Cookie>()
  private next = 0

  /** Stores the Set-Cookie lines of the response to `url`. */
  store(url: string, setCookies: ReadonlyArray<string>, now: number): void {
    const u = new URL(url)
    const host = hostOf(u)
    for (const line of setCookies) {
      const c = parseSetCookie(line, now)
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
      const id = `${domain}\u0000${path}\u0000${c.key}`
      const created = this.cookies.get(id)?.created ?? this.next++
      this.cookies.set(id, {
        key: c.key, value: c.value, domain, path, hostOnly, secure: c.secure, httpOnly: c.httpOnly, sameSite: c.sameSite, expires: c.expires, created
      })
    }
  }

  /**
   * The Cookie header a request to `url` carries, or null when none; the expired cookies it
   * would have carried are removed. A name sent twice (two paths) is sent once, in the place
   * of its first and with the value of its last, as the Observatory's cookie agent builds it.
   */
  header(url: string, now: number): string | null {
    const u = new URL(url)
    const host = hostOf(u)
    const path = agentPath(u)
    const secure = u.protocol === "https:"
    const matching: Array<Cookie> = []
    for (const [id, c] of this.cookies) {
      if (c.hostOnly ? c.domain !== host : !domainMatch(host, c.domain)) continue
      if (!pathMatch(path, c.path)) continue
      if (c.secure && !secure) continue
      if (c.expires !== null && c.expires <= now) {
        this.cookies.delete(id)
        continue
      }
      matching.push(c)
    }
    if (matching.length === 0) return null
    matching.sort((a, b) => b.path.length - a.path.length || a.created - b.created)
    const byName = new Map<string, Cookie>()
    for (const c of matching) byName.set(c.key, c)
    return [...byName.values()].map((c) => `${c.key}=${c.value}`).join("; ")
  }

  /** Every cookie the jar holds, in order of storage. */
  list(): ReadonlyArray<Cookie> {
    return [...this.cookies.values()].sort((a, b) => a.created - b.created)
  }
}
