/**
 * Test `cookies` (pure): every cookie the graded session's cookie jar kept (jar.ts: stored as
 * RFC 6265 §5.3 says, as the Observatory's client stores them), plus malformed SameSite in the
 * raw headers. Names containing "login" or "sess" are session cookies, "csrf" anti-CSRF tokens.
 */
import { worse } from "./results"
import { finalHop, gradedSession, headerValues, nodeHeaders, type Retrieval } from "./retrieval"

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
  // The Observatory's own exception: a cookie Heroku's router sets on every app.
  const jar = (session?.cookies ?? []).filter((c) => c.key !== "heroku-session-affinity")
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
