/** Pure helpers of the HTTP Uptime Check: header extraction, security summary, Alt-Svc. */
import { judgeHstsHeader } from "./hsts"

export const reportedHeaders = {
  content_type: "content-type",
  server: "server",
  cache_control: "cache-control",
  content_length: "content-length",
  strict_transport_security: "strict-transport-security",
  content_security_policy: "content-security-policy",
  x_content_type_options: "x-content-type-options",
  x_frame_options: "x-frame-options",
  referrer_policy: "referrer-policy",
  permissions_policy: "permissions-policy",
  cross_origin_resource_policy: "cross-origin-resource-policy",
  alt_svc: "alt-svc"
} as const

export type ReportedHeaders = { [K in keyof typeof reportedHeaders]: string | null }

export const pickHeaders = (headers: Readonly<Record<string, string>>): ReportedHeaders => {
  const out = {} as Record<string, string | null>
  for (const [field, name] of Object.entries(reportedHeaders)) out[field] = headers[name] ?? null
  return out as ReportedHeaders
}

export interface SecuritySummary {
  readonly hsts_enabled: boolean
  readonly hsts_max_age: number | null
  readonly csp_enabled: boolean
  readonly x_content_type_options_nosniff: boolean
  readonly x_frame_options_enabled: boolean
  readonly referrer_policy_set: boolean
}

/**
 * `hsts_enabled` is the shared HSTS judgement (./hsts.ts): true only when browsers apply the
 * policy (valid header, received over https, max-age > 0); `hsts_max_age` is the header's
 * max-age whatever the transport, null when absent or invalid.
 */
export const securitySummary = (h: ReportedHeaders, https: boolean): SecuritySummary => {
  const hsts = judgeHstsHeader(h.strict_transport_security, https)
  const xfo = (h.x_frame_options ?? "").trim().toUpperCase()
  return {
    hsts_enabled: hsts.effective,
    hsts_max_age: hsts.max_age,
    csp_enabled: (h.content_security_policy ?? "").trim().length > 0,
    x_content_type_options_nosniff: (h.x_content_type_options ?? "").trim().toLowerCase() === "nosniff",
    x_frame_options_enabled: xfo === "DENY" || xfo === "SAMEORIGIN" || xfo.startsWith("ALLOW-FROM"),
    referrer_policy_set: (h.referrer_policy ?? "").trim().length > 0
  }
}

/**
 * HTTP versions advertised in Alt-Svc (RFC 7838): protocol ids of each alternative, drafts
 * folded into their version (h3-29 → h3), `clear` advertising nothing.
 */
export const advertisedVersions = (altSvc: string | null): ReadonlyArray<string> => {
  if (altSvc === null || altSvc.trim().toLowerCase() === "clear") return []
  const out: Array<string> = []
  for (const part of altSvc.split(",")) {
    const id = /^\s*([A-Za-z0-9%._~-]+)\s*=/.exec(part)?.[1]
    if (!id) continue
    const proto = decodeURIComponent(id).toLowerCase()
    const version = /^h3(-|$)/.test(proto) ? "h3" : /^h2(c)?$/.test(proto) ? proto : proto
    if (!out.includes(version)) out.push(version)
  }
  return out
}
