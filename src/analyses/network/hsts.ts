/**
 * The one HSTS judgement (pure), shared by the HTTP Uptime Check (`security_summary.hsts_enabled`
 * / `hsts_max_age`) and the MCP `security_headers` tool, so the two never disagree.
 *
 * RFC 6797:
 * - §6.1: `max-age` is required and no directive may appear twice; §8.1: a UA ignores an STS
 *   header that breaks this. So `max-age=100; max-age=200` or a header without max-age is invalid.
 * - §8.1: "an HTTP host ... the UA MUST ignore any STS header field received over non-secure
 *   transport". Over plain http the header is *present* but has no effect.
 * - §6.1.1: `max-age=0` tells the UA to forget the host: present, valid, not enabling HSTS.
 *
 * `effective` is what http-check reports as `hsts_enabled`; `max_age` is the parsed value
 * whatever the transport (so `hsts_max_age` still shows what the server sends over http).
 */

export type HstsState =
  /** no header */
  | "absent"
  /** header present but not a valid STS policy (no or repeated max-age) */
  | "invalid"
  /** valid header received over plain http: browsers ignore it */
  | "ignored_over_http"
  /** valid header with max-age=0: the policy is switched off */
  | "disabled"
  /** valid header over https with max-age > 0 */
  | "enabled"

export interface HstsJudgement {
  readonly state: HstsState
  readonly present: boolean
  /** max-age in seconds when the header is valid, else null */
  readonly max_age: number | null
  readonly include_subdomains: boolean
  readonly preload: boolean
  /** browsers apply the policy: valid, over https, max-age > 0 */
  readonly effective: boolean
}

/** Directive names of an STS value, lower-cased, with their (unquoted) values. */
const directives = (value: string): ReadonlyArray<{ readonly name: string; readonly value: string | null }> =>
  value
    .split(";")
    .map((d) => d.trim())
    .filter((d) => d.length > 0)
    .map((d) => {
      const eq = d.indexOf("=")
      if (eq < 0) return { name: d.toLowerCase(), value: null }
      return { name: d.slice(0, eq).trim().toLowerCase(), value: d.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1") }
    })

export const judgeHstsHeader = (value: string | null | undefined, https: boolean): HstsJudgement => {
  if (value === null || value === undefined) {
    return { state: "absent", present: false, max_age: null, include_subdomains: false, preload: false, effective: false }
  }
  const ds = directives(value)
  const names = ds.map((d) => d.name)
  const maxAges = ds.filter((d) => d.name === "max-age")
  const duplicate = names.some((n, i) => names.indexOf(n) !== i)
  const valid = maxAges.length === 1 && !duplicate && maxAges[0].value !== null && /^\d+$/.test(maxAges[0].value)
  const include_subdomains = names.includes("includesubdomains")
  const preload = names.includes("preload")
  if (!valid) return { state: "invalid", present: true, max_age: null, include_subdomains, preload, effective: false }
  const max_age = Number(maxAges[0].value)
  const state: HstsState = !https ? "ignored_over_http" : max_age === 0 ? "disabled" : "enabled"
  return { state, present: true, max_age, include_subdomains, preload, effective: state === "enabled" }
}
