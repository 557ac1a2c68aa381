/**
 * Monitor target shapes, used by the kind table (src/product/monitors/kindTable.ts): an http(s)
 * URL, a URL or bare domain, host[:port], or a domain name; and the target guard on a stored
 * target, at creation and before every run.
 */
import { Effect } from "effect"
import { isIP } from "node:net"
import { normalizeDomain } from "../../../kernel/domainParam"
import { InvalidRequest, TargetForbidden } from "../../../kernel/errors"
import { parseTarget, vetTarget, isMetadataName } from "../../../adapters/probe/guard"
import type { MonitorKind } from "../../../kernel/monitorKinds"

export type TargetResult = string | InvalidRequest | TargetForbidden

/** host and port of a certificate target: `example.com`, `example.com:8443`, `[::1]:443`. */
export const certTarget = (raw: string): { host: string; port: number } | InvalidRequest => {
  const s = raw.trim().toLowerCase()
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:\s/]+))(?::(\d{1,5}))?$/.exec(s)
  const port = m?.[3] === undefined ? 443 : Number(m[3])
  if (!m || port < 1 || port > 65535) return new InvalidRequest({ message: `target must be host[:port], got "${raw}"` })
  const host = m[1] ?? m[2]!
  if (isIP(host) !== 0) return { host, port }
  const d = normalizeDomain(host)
  return d instanceof InvalidRequest ? d : { host: d, port }
}

export const urlTarget = (raw: string): TargetResult => {
  if (!/^https?:\/\//i.test(raw.trim())) return new InvalidRequest({ message: "the target must be an http(s) URL" })
  const t = parseTarget(raw)
  return "url" in t ? t.url.href : t
}

export const urlOrDomainTarget = (raw: string): TargetResult => {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim())) {
    const t = parseTarget(raw)
    return "url" in t ? t.url.href : t
  }
  return normalizeDomain(raw)
}

export const hostPortTarget = (raw: string): TargetResult => {
  const t = certTarget(raw)
  if (t instanceof InvalidRequest) return t
  return `${isIP(t.host) === 6 ? `[${t.host}]` : t.host}:${t.port}`
}

export const domainTarget = (raw: string): TargetResult => normalizeDomain(raw)

/** The URL the guard judges for a name or host[:port] target. */
export const httpsUrlOf = (target: string) => (target.includes("://") ? target : `https://${target}/`)

/**
 * The target guard: a refused address (or a name resolving to one) fails with TargetForbidden; a
 * name that does not resolve is left to the run itself. When the run never connects to the
 * target (it asks RDAP, DNS resolvers, CT logs), only the name is judged.
 */
export const vetUrl = (url: string, connects: boolean) => {
  const parsed = parseTarget(url)
  if (!("url" in parsed)) return parsed instanceof TargetForbidden ? Effect.fail(parsed) : Effect.void
  if (isMetadataName(parsed.host)) return Effect.fail(new TargetForbidden({ message: `${parsed.host} is a cloud metadata host` }))
  if (!connects) return Effect.void
  return vetTarget(parsed).pipe(
    Effect.asVoid,
    Effect.catchAll((e) => (e instanceof TargetForbidden ? Effect.fail(e) : Effect.void))
  )
}
