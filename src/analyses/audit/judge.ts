/**
 * The domain audit's judgement (pure): the underlying reports and observations of each section
 * in, check results out. An input the audit could not get is `Unavailable` (with why): the checks
 * that need it are `passed: null` with that reason (the section is then incomplete), never a
 * failure. A check that does not apply (no IPv6 to compare, no MX, STARTTLS not asked) is also
 * `passed: null`, with `missing: null`, and leaves the section complete.
 * The rules are the catalogue's (checks.ts) and docs/operations/domain-audit.md's. This module
 * holds the shared shapes and the web section; judgeMail.ts and judgeDns.ts the others.
 *
 * The operation's flow: gather each asked section's inputs at once (what it could not get within
 * the deadline is `{ unavailable: why }`), `judgeWeb` / `judgeMail` / `judgeDns` /
 * `judgeExposure`, `summarizeAudit` (score.ts) over the results, and the report
 * (`DomainAuditReport`, schema.ts) is the summary with domain, checked_at, timings_ms and reports.
 */
import { ipItem } from "../blocklist/query"
import type { BlocklistReport } from "../blocklist/schema"
import { judgeHstsHeader } from "../network/hsts"
import type { SecurityHeadersReport } from "../observatory/schema"
import type { TlsReport } from "../tls/schema"
import { CHECKS, type CheckId, type FailureSeverity } from "./checks"
import { type WebIpv6Observation, webIpv6, webIpv6SameContent } from "./ipv6"

/** An input the audit could not get, and why (becomes a limitation). */
export interface Unavailable {
  readonly unavailable: string
}
export const isUnavailable = (u: unknown): u is Unavailable => typeof u === "object" && u !== null && "unavailable" in u
export type Input<T> = T | Unavailable

export interface CheckResult {
  readonly id: CheckId
  readonly passed: boolean | null
  /** The severity of this check's failure (reported whatever `passed` is). */
  readonly severity: FailureSeverity
  readonly summary: string
  /** Why an input it needed could not be got (`passed` is then null and the section incomplete); null otherwise. */
  readonly missing: string | null
}

const withDetail = (text: string, detail: string | null) => (detail ? `${text}: ${detail}` : text)

/** A decided check: passed or failed, with what was seen. */
export const decided = (id: CheckId, passed: boolean, detail: string | null = null, severity: FailureSeverity = CHECKS[id].severity): CheckResult => {
  const s = CHECKS[id].summary
  return { id, passed, severity, summary: withDetail(passed ? s.pass : s.fail, detail), missing: null }
}

/** A check that does not apply to this domain (`passed: null`, the section stays complete); `sentence` says why. */
export const notApplicable = (id: CheckId, sentence: string): CheckResult => ({
  id,
  passed: null,
  severity: CHECKS[id].severity,
  summary: sentence,
  missing: null
})

/** A verdict that may be null, as a check: null is not applicable, or undecided when an observation was missing. */
export const fromVerdict = (id: CheckId, v: { readonly passed: boolean | null; readonly detail: string; readonly missing?: boolean }): CheckResult =>
  v.passed !== null ? decided(id, v.passed, v.detail) : v.missing ? undecided(id, v.detail) : notApplicable(id, v.detail)

/** A check that could not be decided because an input was missing. */
export const undecided = (id: CheckId, why: string): CheckResult => ({
  id,
  passed: null,
  severity: CHECKS[id].severity,
  summary: withDetail(CHECKS[id].summary.unknown, why),
  missing: why
})

/** Judge `id` from an input, or leave it undecided when the input is missing. */
export const from = <T>(id: CheckId, input: Input<T>, judge: (t: T) => CheckResult): CheckResult =>
  isUnavailable(input) ? undecided(id, input.unavailable) : judge(input)

/** An item as the blocklist report spells it: an address canonically, a domain lower-cased without a trailing dot. */
const canonical = (item: string) => ipItem(item)?.value ?? item.trim().toLowerCase().replace(/\.$/, "")

/**
 * Whether any of `items` is listed: false with where when one is; null (missing) when none is but
 * an answer was an error or an item was not asked; true when every item was asked and not listed.
 */
export const blocklistStanding = (id: CheckId, report: BlocklistReport, items: ReadonlyArray<string>): CheckResult => {
  const wanted = new Set(items.map(canonical))
  if (wanted.size === 0) return notApplicable(id, "Does not apply: no address to check")
  const entries = report.lists.filter((l) => wanted.has(l.item))
  const listed = entries.filter((l) => l.status === "listed")
  if (listed.length > 0) return decided(id, false, listed.map((l) => `${l.item} on ${l.zone} (${l.codes.join(", ")})`).join("; "))
  const errors = entries.filter((l) => l.status === "error")
  if (errors.length > 0) return undecided(id, `no usable answer for ${errors.map((l) => `${l.item} on ${l.zone}`).join(", ")}: ${errors[0].reason}`)
  const unasked = [...wanted].filter((i) => !entries.some((l) => l.item === i))
  if (unasked.length > 0) return undecided(id, `${unasked.join(", ")} ${unasked.length === 1 ? "was" : "were"} not checked on any blocklist`)
  return decided(id, true, `${wanted.size} checked on ${new Set(entries.map((l) => l.zone)).size} lists`)
}

/** How the web host answered over IPv4: the first answer of each scheme, null when that scheme did not answer. */
export interface WebReach {
  readonly https: {
    readonly status: number
    /** The chain is trusted and valid for the web host's name. */
    readonly certificate_valid: boolean
    /** The Strict-Transport-Security header of the answer, null when absent. */
    readonly hsts: string | null
  } | null
  readonly http: { readonly status: number } | null
}

export interface WebInputs {
  /** The web host: the domain, or www.<domain> when the domain has no A or AAAA record. */
  readonly host: string
  readonly reach: Input<WebReach>
  readonly ipv6: Input<WebIpv6Observation>
  readonly securityHeaders: Input<SecurityHeadersReport>
  readonly tls: Input<TlsReport>
}

/** internet.nl's HSTS bar: one year (RFC 6797 leaves the value to the site). */
export const HSTS_MIN_MAX_AGE = 31_536_000

const TLS_PASSING = new Set(["A+", "A", "A-"])
/** Below B: C, D, E, F, and T/M (an untrusted or mismatched certificate caps the grade, SSL Labs' rating guide). */
const TLS_BAD = new Set(["C", "D", "E", "F", "T", "M"])
const HEADERS_PASSING = new Set(["A+", "A", "A-", "B+", "B"])

export const judgeWeb = (w: WebInputs): ReadonlyArray<CheckResult> => [
  from("web_reachable", w.reach, (r) =>
    decided("web_reachable", r.https !== null || r.http !== null, r.https ? `https answered ${r.https.status}` : r.http ? `http answered ${r.http.status}` : `${w.host} answered on neither 443 nor 80`)),
  from("web_ipv6", w.ipv6, (o) => fromVerdict("web_ipv6", webIpv6(o))),
  from("web_ipv6_same_content", w.ipv6, (o) => fromVerdict("web_ipv6_same_content", webIpv6SameContent(o))),
  from("web_https", w.reach, (r) =>
    decided("web_https", r.https !== null && r.https.certificate_valid, r.https === null ? "no https answer" : r.https.certificate_valid ? null : `the certificate is not valid for ${w.host}`)),
  from("web_https_redirect", w.securityHeaders, (h) => decided("web_https_redirect", h.tests.redirection.pass, h.tests.redirection.result)),
  from("web_hsts", w.reach, (r) => {
    if (r.https === null) return decided("web_hsts", false, "no https answer")
    const hsts = judgeHstsHeader(r.https.hsts, true)
    if (!hsts.effective || hsts.max_age === null) return decided("web_hsts", false, hsts.state === "absent" ? "no Strict-Transport-Security header" : `the header is ${hsts.state.replace(/_/g, " ")}`)
    return decided("web_hsts", hsts.max_age >= HSTS_MIN_MAX_AGE, `max-age=${hsts.max_age}`)
  }),
  from("web_tls", w.tls, (t) =>
    TLS_PASSING.has(t.grade)
      ? decided("web_tls", true, `grade ${t.grade}`)
      : decided("web_tls", false, `grade ${t.grade}`, TLS_BAD.has(t.grade) ? CHECKS.web_tls.escalation!.severity : CHECKS.web_tls.severity)),
  from("web_security_headers", w.securityHeaders, (h) => decided("web_security_headers", HEADERS_PASSING.has(h.grade), `grade ${h.grade}`)),
  from("web_security_txt", w.securityHeaders, (h) => {
    const t = h.extras.security_txt
    if (!t.present) return decided("web_security_txt", false, `nothing at ${t.url}`)
    if (t.expired === null) return decided("web_security_txt", false, "no valid Expires field")
    return decided("web_security_txt", !t.expired, t.expired ? `expired ${t.expires}` : `expires ${t.expires}`)
  })
]
