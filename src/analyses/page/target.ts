/**
 * Fetching the page a user named for the page operations (freshness, WAF): a bare domain is tried
 * over https first and over http when the https connection cannot be made; a full URL is fetched
 * as given. Every contact goes through HttpProbe (guard per hop, vetted address, body cap).
 */
import { Effect } from "effect"
import { InvalidRequest, TargetForbidden, UpstreamUnavailable } from "../../kernel/errors"
import { parseTarget } from "../../adapters/probe/guard"
import { HttpProbe, type ProbeOutcome, type ProbeRequest } from "../../adapters/probe/HttpProbe"
import { pageInputProblem } from "../../kernel/domainParam"

export interface PageTarget {
  /** Bare host name, lower case. */
  readonly host: string
  /** The input had an explicit scheme. */
  readonly explicit: boolean
  /** URL to try first. */
  readonly first: string
  /** URL to try when the first cannot connect (bare domains only). */
  readonly fallback: string | null
}

/** Where a bare domain is fetched: https on the first port, then http on the second (PAGE_HTTPS_PORT, PAGE_HTTP_PORT). */
export interface PagePorts {
  readonly https: number
  readonly http: number
}

export const pageTarget = (input: string, ports: PagePorts = { https: 443, http: 80 }): PageTarget | InvalidRequest | TargetForbidden => {
  const raw = input.trim()
  const problem = pageInputProblem(raw)
  if (problem !== null) return problem
  const parsed = parseTarget(raw)
  if (parsed instanceof InvalidRequest || parsed instanceof TargetForbidden) return parsed
  const explicit = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw)
  if (explicit) return { host: parsed.host, explicit, first: parsed.url.href, fallback: null }
  const https = new URL(parsed.url.href)
  https.protocol = "https:"
  https.port = ports.https === 443 ? "" : String(ports.https)
  const http = new URL(parsed.url.href)
  http.port = ports.http === 80 ? "" : String(ports.http)
  return { host: parsed.host, explicit, first: https.href, fallback: http.href }
}

/** Errors after which the plain-http fallback is worth a try: nothing answered over TLS. */
const connectFailure = (o: ProbeOutcome) =>
  o.response === null && o.error !== null && (o.error.kind === "fetch_failed" || o.error.kind === "malformed_response")

export const fetchPage = (target: PageTarget, req: Omit<ProbeRequest, "url">) =>
  Effect.gen(function*() {
    const probe = yield* HttpProbe
    const first = yield* probe.fetch({ ...req, url: target.first })
    if (target.fallback !== null && connectFailure(first)) {
      const second = yield* probe.fetch({ ...req, url: target.fallback })
      if (second.response !== null) return second
    }
    return first
  })

export const unreachable = (o: ProbeOutcome) =>
  new UpstreamUnavailable({
    message: `could not fetch ${o.requestedUrl}: ${o.error?.kind ?? "no response"}${o.error ? ` (${o.error.message})` : ""}`
  })
