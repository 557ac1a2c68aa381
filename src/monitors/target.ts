/**
 * A monitor's target per kind, checked when it is saved and vetted by the target guard at
 * creation and before every run: http_check and waf take an http(s) URL (waf also a bare
 * domain), certificate takes host[:port], CT and zone kinds a domain.
 */
import { Effect } from "effect"
import { isIP } from "node:net"
import { normalizeDomain } from "../kernel/domainParam"
import { InvalidRequest, TargetForbidden } from "../domain/errors"
import { parseTarget, vetTarget } from "../probe/guard"
import type { MonitorKind } from "./kinds"

/** host and port of a certificate target: `example.com`, `example.com:8443`, `[::1]:443`. */
export const certTarget = (raw: string): { host: string; port: number } | InvalidRequest => {
  const s = raw.trim().toLowerCase()
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:\s/]+))(?::(\d{1,5}))?$/.exec(s)
  const port = m?.[3] === undefined ? 443 : Number(m[3])
  if (!m || port < 1 || port > 65535) return new InvalidRequest({ message: `certificate target must be host[:port], got "${raw}"` })
  const host = m[1] ?? m[2]!
  if (isIP(host) !== 0) return { host, port }
  const d = normalizeDomain(host)
  return d instanceof InvalidRequest ? d : { host: d, port }
}

/** The stored form of a target, or why it is not one for this kind. */
export const normalizeTarget = (kind: MonitorKind, raw: string): string | InvalidRequest | TargetForbidden => {
  switch (kind) {
    case "http_check": {
      if (!/^https?:\/\//i.test(raw.trim())) return new InvalidRequest({ message: "an http_check target must be an http(s) URL" })
      const t = parseTarget(raw)
      return "url" in t ? t.url.href : t
    }
    case "waf": {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim())) {
        const t = parseTarget(raw)
        return "url" in t ? t.url.href : t
      }
      return normalizeDomain(raw)
    }
    case "certificate": {
      const t = certTarget(raw)
      if (t instanceof InvalidRequest) return t
      return `${isIP(t.host) === 6 ? `[${t.host}]` : t.host}:${t.port}`
    }
    case "ct_new_certificate":
    case "zone_hygiene":
      return normalizeDomain(raw)
  }
}

/** The URL the guard judges for a stored target. */
const guardUrl = (kind: MonitorKind, target: string) =>
  kind === "http_check" || (kind === "waf" && target.includes("://")) ? target : `https://${target}/`

/**
 * The target guard on a stored target: a refused address (or a name resolving to one) fails with
 * TargetForbidden; a name that does not resolve is left to the run itself. CT and zone targets
 * are names the service never connects to (it asks the CT aggregator, and the zone's
 * nameservers, which ZoneHygiene judges itself), so only the name is judged.
 */
export const vetMonitorTarget = (kind: MonitorKind, target: string) => {
  const parsed = parseTarget(guardUrl(kind, target))
  if (!("url" in parsed)) return parsed instanceof TargetForbidden ? Effect.fail(parsed) : Effect.void
  if (kind === "ct_new_certificate" || kind === "zone_hygiene") return Effect.void
  return vetTarget(parsed).pipe(
    Effect.asVoid,
    Effect.catchAll((e) => (e instanceof TargetForbidden ? Effect.fail(e) : Effect.void))
  )
}
