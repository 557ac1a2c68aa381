/**
 * Test `strict-transport-security` (pure) and the HSTS preload list lookup. The header is read
 * from the https page (RFC 6797 §8.1: over http it is ignored), only with a verified certificate
 * (§8.4: no HSTS over a connection with errors); a host on the preload list passes whatever it sends.
 */
import { finalHop, headerValues, nodeHeaders, type Retrieval } from "./retrieval"

export interface PreloadEntry {
  readonly includeSubDomains: boolean
  /** "force-https" for HSTS entries (the list also carries pinning-only entries). */
  readonly mode: string | null
}
export type PreloadList = ReadonlyMap<string, PreloadEntry>

/** The entry covering a host: its own, or a parent's that includes subdomains. */
export const preloaded = (list: PreloadList, host: string): PreloadEntry | null => {
  const own = list.get(host)
  if (own && own.mode === "force-https") return own
  const labels = host.split(".")
  for (let i = 1; i < labels.length; i++) {
    const e = list.get(labels.slice(i).join("."))
    if (e && e.mode === "force-https" && e.includeSubDomains) return e
  }
  return null
}

/**
 * A preload list from Chromium's transport_security_state_static.json (comments allowed) or
 * from the Observatory's own `hsts-preload.json` (host → {includeSubDomains, mode}).
 */
export const parsePreloadList = (text: string): PreloadList => {
  const data = JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")) as unknown
  const out = new Map<string, PreloadEntry>()
  if (data && typeof data === "object" && Array.isArray((data as { entries?: unknown }).entries)) {
    for (const e of (data as { entries: Array<{ name?: string; mode?: string; include_subdomains?: boolean }> }).entries) {
      if (typeof e.name === "string") out.set(e.name.trim().toLowerCase(), { includeSubDomains: !!e.include_subdomains, mode: e.mode ?? null })
    }
  } else if (data && typeof data === "object") {
    for (const [name, e] of Object.entries(data as Record<string, { includeSubDomains?: boolean; mode?: string }>)) {
      out.set(name.trim().toLowerCase(), { includeSubDomains: !!e.includeSubDomains, mode: e.mode ?? null })
    }
  }
  return out
}

const SIX_MONTHS = 15_552_000

export interface HstsOutcome {
  readonly result: string
  readonly pass: boolean
  readonly maxAge: number | null
}

export const hstsTest = (r: Retrieval, list: PreloadList): HstsOutcome => {
  let result = "hsts-not-implemented"
  let maxAge: number | null = null
  const response = finalHop(r.https)
  if (!response) result = "hsts-not-implemented-no-https"
  else if (!r.https!.verified) result = "hsts-invalid-cert"
  else {
    const header = headerValues(nodeHeaders(response.rawHeaders), "strict-transport-security")[0]
    if (header !== undefined) {
      const value = header.slice(0, 1024)
      // Node joins a repeated header with ", ": a comma means the header came twice.
      if (value.includes(",")) result = "hsts-header-invalid"
      else {
        for (const p of value.split(";").map((d) => d.trim().toLowerCase())) {
          // parseInt as the Observatory does: "max-age=abc" is NaN, which is not under six months.
          if (p.startsWith("max-age=")) maxAge = parseInt(p.slice(8, 128), 10)
        }
        result = maxAge === null
          ? "hsts-header-invalid"
          : maxAge < SIX_MONTHS ? "hsts-implemented-max-age-less-than-six-months" : "hsts-implemented-max-age-at-least-six-months"
      }
    }
  }
  if (response && preloaded(list, r.hostname)) result = "hsts-preloaded"
  const pass = result === "hsts-implemented-max-age-at-least-six-months" || result === "hsts-preloaded"
  return { result, pass, maxAge: maxAge !== null && Number.isFinite(maxAge) ? maxAge : null }
}
