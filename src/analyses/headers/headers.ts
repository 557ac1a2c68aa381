/**
 * Security-header rubric for the security_headers tool (pure). Six headers, each judged on its
 * value, not its presence: good / weak / missing / invalid, with a deduction from 100. The grade
 * follows from the score; the README (MCP Server) sets the rubric next to Mozilla HTTP Observatory's.
 * HSTS is judged by the rule http-check uses too (src/network/hsts.ts): over plain http a valid
 * header is "ineffective" (present, ignored by browsers).
 */
import { judgeHstsHeader } from "../network/hsts"
import { Grade as GradeSchema, HeadersReport as HeadersReportSchema, HeaderVerdict as HeaderVerdictSchema } from "../../kernel/lookupReports"

export type HeaderStatus = HeaderVerdict["status"]

export type HeaderVerdict = typeof HeaderVerdictSchema.Type

export type HeadersReport = typeof HeadersReportSchema.Type

export type Grade = typeof GradeSchema.Type

/** Deductions (points) per finding, documented in the README (MCP Server). */
export const Deductions = {
  hsts: { missing: 20, invalid: 20, disabled: 20, short: 15, noHttps: 20 },
  csp: { missing: 25, invalid: 25, unsafeInline: 20, unsafeEval: 10, broadSource: 20, noScriptPolicy: 20, objectSrc: 5 },
  xcto: { missing: 5, invalid: 5 },
  xfo: { missing: 20, invalid: 20, allowFrom: 10 },
  referrer: { missing: 5, invalid: 5, unsafe: 10, originLeak: 3 },
  permissions: { missing: 5, invalid: 5, permissive: 5 }
} as const

/** HSTS max-age below which the policy is weak: 180 days, as the Observatory uses. */
export const HSTS_MIN_MAX_AGE = 15_552_000

export const gradeOf = (score: number): Grade =>
  score >= 100 ? "A+" : score >= 90 ? "A" : score >= 80 ? "B" : score >= 65 ? "C" : score >= 50 ? "D" : "F"

const verdict = (
  header: string,
  value: string | undefined,
  status: HeaderStatus,
  deduction: number,
  findings: ReadonlyArray<string>,
  recommendation: string | null
): HeaderVerdict => ({
  header,
  present: value !== undefined,
  value: value ?? null,
  status,
  deduction,
  findings,
  recommendation
})

/** The security_headers verdict over the shared HSTS judgement (src/network/hsts.ts). */
export const judgeHsts = (value: string | undefined, https: boolean): HeaderVerdict => {
  const name = "Strict-Transport-Security"
  const fix = "Serve over HTTPS with Strict-Transport-Security: max-age=31536000; includeSubDomains"
  const j = judgeHstsHeader(value, https)
  const notes: Array<string> = []
  if (j.max_age !== null) notes.push(`max-age=${j.max_age} (${Math.floor(j.max_age / 86400)} days)`)
  if (j.include_subdomains) notes.push("includeSubDomains")
  if (j.preload) notes.push("preload")
  switch (j.state) {
    case "absent":
      return https
        ? verdict(name, value, "missing", Deductions.hsts.missing, ["header absent: first visits can be downgraded to HTTP"], fix)
        : verdict(name, value, "missing", Deductions.hsts.noHttps, ["header absent, and the final response was not served over HTTPS"], fix)
    case "invalid": {
      const maxAges = (value ?? "").split(";").filter((d) => /^\s*max-age/i.test(d)).length
      return verdict(name, value, "invalid", Deductions.hsts.invalid, [
        maxAges > 1 ? "max-age given more than once" : maxAges === 0 ? "no valid max-age directive" : "invalid max-age or a repeated directive; browsers ignore the header (RFC 6797 §6.1)"
      ], fix)
    }
    case "ignored_over_http":
      return verdict(name, value, "ineffective", Deductions.hsts.noHttps, [
        ...notes,
        "received over plain http, where browsers ignore Strict-Transport-Security (RFC 6797 §8.1): present but not in effect"
      ], fix)
    case "disabled":
      return verdict(name, value, "weak", Deductions.hsts.disabled, [...notes, "max-age=0 tells browsers to forget the policy"], fix)
    case "enabled":
      if (j.max_age! < HSTS_MIN_MAX_AGE) {
        return verdict(name, value, "weak", Deductions.hsts.short, [...notes, "max-age below 180 days (15552000 s) protects only briefly"], fix)
      }
      return verdict(name, value, "good", 0, notes, null)
  }
}

/** Parses a CSP into directive → source list (first occurrence wins, as browsers do). */
export const parseCsp = (value: string): Map<string, ReadonlyArray<string>> => {
  const out = new Map<string, ReadonlyArray<string>>()
  for (const part of value.split(";")) {
    const tokens = part.trim().split(/\s+/).filter((t) => t.length > 0)
    if (tokens.length === 0) continue
    const name = tokens[0].toLowerCase()
    if (!out.has(name)) out.set(name, tokens.slice(1).map((t) => (t.startsWith("'") ? t.toLowerCase() : t)))
  }
  return out
}

export const judgeCsp = (value: string | undefined): HeaderVerdict => {
  const name = "Content-Security-Policy"
  const fix = "Set a Content-Security-Policy with default-src 'self' (or 'none'), a script-src without 'unsafe-inline' (use nonces or hashes) and object-src 'none'"
  if (value === undefined) return verdict(name, value, "missing", Deductions.csp.missing, ["header absent: no defence in depth against XSS"], fix)
  const csp = parseCsp(value)
  const known = ["default-src", "script-src", "script-src-elem", "style-src", "img-src", "connect-src", "font-src", "object-src", "media-src", "frame-src", "child-src", "worker-src", "manifest-src", "base-uri", "form-action", "frame-ancestors", "upgrade-insecure-requests", "block-all-mixed-content", "report-uri", "report-to", "sandbox", "require-trusted-types-for", "trusted-types", "script-src-attr", "style-src-elem", "style-src-attr", "prefetch-src", "navigate-to", "plugin-types", "referrer", "require-sri-for", "fenced-frame-src", "webrtc"]
  if (csp.size === 0 || ![...csp.keys()].some((k) => known.includes(k))) {
    return verdict(name, value, "invalid", Deductions.csp.invalid, ["no recognisable CSP directive"], fix)
  }
  const findings: Array<string> = []
  let deduction = 0
  const script = csp.get("script-src") ?? csp.get("default-src")
  const scriptName = csp.has("script-src") ? "script-src" : "default-src"
  if (script === undefined) {
    deduction += Deductions.csp.noScriptPolicy
    findings.push("neither script-src nor default-src is set, so scripts are unrestricted")
  } else {
    const hasNonceOrHash = script.some((s) => /^'(nonce-|sha256-|sha384-|sha512-)/.test(s))
    const strictDynamic = script.includes("'strict-dynamic'")
    // 'unsafe-inline' is ignored by CSP2+ browsers when a nonce or hash is present.
    if (script.includes("'unsafe-inline'") && !hasNonceOrHash) {
      deduction += Deductions.csp.unsafeInline
      findings.push(`${scriptName} allows 'unsafe-inline': injected inline scripts run`)
    }
    if (script.includes("'unsafe-eval'")) {
      deduction += Deductions.csp.unsafeEval
      findings.push(`${scriptName} allows 'unsafe-eval'`)
    }
    const broad = script.filter((s) => s === "*" || /^(https?|data|blob):?$/i.test(s))
    if (broad.length > 0 && !strictDynamic) {
      deduction += Deductions.csp.broadSource
      findings.push(`${scriptName} allows scripts from any host (${broad.join(" ")})`)
    }
  }
  const objectSrc = csp.get("object-src") ?? csp.get("default-src")
  const objectOk = objectSrc !== undefined && objectSrc.length === 1 && (objectSrc[0] === "'none'" || objectSrc[0] === "'self'")
  if (!objectOk) {
    deduction += Deductions.csp.objectSrc
    findings.push("object-src is not restricted to 'none' (plugins can load)")
  }
  if (csp.has("frame-ancestors")) findings.push(`frame-ancestors ${csp.get("frame-ancestors")!.join(" ")}`)
  if (deduction === 0) return verdict(name, value, "good", 0, findings.length ? findings : ["restrictive policy"], null)
  return verdict(name, value, "weak", deduction, findings, fix)
}

export const judgeXcto = (value: string | undefined): HeaderVerdict => {
  const name = "X-Content-Type-Options"
  const fix = "Set X-Content-Type-Options: nosniff"
  if (value === undefined) return verdict(name, value, "missing", Deductions.xcto.missing, ["header absent: browsers may MIME-sniff responses"], fix)
  if (value.trim().toLowerCase() !== "nosniff") return verdict(name, value, "invalid", Deductions.xcto.invalid, ["the only valid value is nosniff"], fix)
  return verdict(name, value, "good", 0, ["nosniff"], null)
}

export const judgeXfo = (value: string | undefined, cspValue: string | undefined): HeaderVerdict => {
  const name = "X-Frame-Options"
  const fix = "Set X-Frame-Options: DENY (or SAMEORIGIN), or CSP frame-ancestors 'none'"
  const frameAncestors = cspValue === undefined ? undefined : parseCsp(cspValue).get("frame-ancestors")
  const ancestorsRestrictive = frameAncestors !== undefined && frameAncestors.length > 0 && !frameAncestors.includes("*")
  if (value === undefined) {
    if (ancestorsRestrictive) return verdict(name, value, "good", 0, ["absent, but CSP frame-ancestors restricts framing (supersedes X-Frame-Options)"], null)
    return verdict(name, value, "missing", Deductions.xfo.missing, ["header absent and no CSP frame-ancestors: the page can be framed (clickjacking)"], fix)
  }
  const v = value.trim().toUpperCase()
  if (v === "DENY" || v === "SAMEORIGIN") return verdict(name, value, "good", 0, [v], null)
  if (v.startsWith("ALLOW-FROM")) {
    if (ancestorsRestrictive) return verdict(name, value, "good", 0, ["ALLOW-FROM is obsolete, but CSP frame-ancestors restricts framing"], null)
    return verdict(name, value, "weak", Deductions.xfo.allowFrom, ["ALLOW-FROM is obsolete and ignored by current browsers"], fix)
  }
  if (ancestorsRestrictive) return verdict(name, value, "good", 0, ["invalid value, but CSP frame-ancestors restricts framing"], null)
  return verdict(name, value, "invalid", Deductions.xfo.invalid, [`"${value}" is not DENY or SAMEORIGIN`], fix)
}

const privateReferrer = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"]
const originLeak = ["origin", "origin-when-cross-origin"]
const unsafeReferrer = ["unsafe-url", "no-referrer-when-downgrade"]

export const judgeReferrer = (value: string | undefined): HeaderVerdict => {
  const name = "Referrer-Policy"
  const fix = "Set Referrer-Policy: strict-origin-when-cross-origin (or no-referrer)"
  if (value === undefined) return verdict(name, value, "missing", Deductions.referrer.missing, ["header absent: the browser default applies"], fix)
  // Browsers use the last value they understand.
  const tokens = value.split(",").map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0)
  const understood = tokens.filter((t) => [...privateReferrer, ...originLeak, ...unsafeReferrer].includes(t))
  const effective = understood[understood.length - 1]
  if (effective === undefined) return verdict(name, value, "invalid", Deductions.referrer.invalid, ["no valid policy token"], fix)
  if (privateReferrer.includes(effective)) return verdict(name, value, "good", 0, [effective], null)
  if (originLeak.includes(effective)) {
    return verdict(name, value, "weak", Deductions.referrer.originLeak, [`${effective} sends the origin to other sites, also over plain HTTP`], fix)
  }
  return verdict(name, value, "weak", Deductions.referrer.unsafe, [`${effective} leaks full URLs (paths and query strings) to other sites`], fix)
}

export const judgePermissions = (value: string | undefined, legacyFeaturePolicy: string | undefined): HeaderVerdict => {
  const name = "Permissions-Policy"
  const fix = "Set Permissions-Policy disabling unused features, e.g. camera=(), microphone=(), geolocation=()"
  if (value === undefined) {
    if (legacyFeaturePolicy !== undefined) {
      return verdict(name, value, "weak", Deductions.permissions.permissive, ["only the obsolete Feature-Policy header is set"], fix)
    }
    return verdict(name, value, "missing", Deductions.permissions.missing, ["header absent: powerful features keep their defaults"], fix)
  }
  // Structured-field dictionary: feature=(allowlist) or feature=* or feature=self
  const entries = value.split(",").map((e) => e.trim()).filter((e) => e.length > 0)
  const parsed = entries.map((e) => /^([a-z][a-z0-9-]*)\s*=\s*(\*|\([^)]*\)|self|"[^"]*")$/i.exec(e))
  if (parsed.length === 0 || parsed.some((p) => p === null)) {
    return verdict(name, value, "invalid", Deductions.permissions.invalid, ["not a valid structured-field dictionary (feature=(allowlist))"], fix)
  }
  const restricted = parsed.filter((p) => p![2] !== "*").map((p) => p![1].toLowerCase())
  const open = parsed.filter((p) => p![2] === "*").map((p) => p![1].toLowerCase())
  if (restricted.length === 0) {
    return verdict(name, value, "weak", Deductions.permissions.permissive, [`every listed feature is allowed for all origins (${open.join(", ")})`], fix)
  }
  const findings = [`${restricted.length} feature(s) restricted: ${restricted.join(", ")}`]
  if (open.length > 0) findings.push(`allowed for all origins: ${open.join(", ")}`)
  return verdict(name, value, "good", 0, findings, null)
}

/** Judges the six headers of a final response. `headers` has lower-case names. */
export const gradeHeaders = (
  input: { readonly url: string; readonly finalUrl: string; readonly statusCode: number; readonly headers: Readonly<Record<string, string>> }
): HeadersReport => {
  const h = input.headers
  const https = input.finalUrl.toLowerCase().startsWith("https:")
  const verdicts = [
    judgeHsts(h["strict-transport-security"], https),
    judgeCsp(h["content-security-policy"]),
    judgeXcto(h["x-content-type-options"]),
    judgeXfo(h["x-frame-options"], h["content-security-policy"]),
    judgeReferrer(h["referrer-policy"]),
    judgePermissions(h["permissions-policy"], h["feature-policy"])
  ]
  const score = Math.max(0, 100 - verdicts.reduce((n, v) => n + v.deduction, 0))
  const count = (s: HeaderStatus) => verdicts.filter((v) => v.status === s).length
  return {
    url: input.url,
    final_url: input.finalUrl,
    status_code: input.statusCode,
    https,
    score,
    grade: gradeOf(score),
    headers: verdicts,
    summary: { good: count("good"), weak: count("weak"), missing: count("missing"), invalid: count("invalid"), ineffective: count("ineffective") }
  }
}
