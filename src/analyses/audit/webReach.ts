/**
 * How the web host answers, as the audit's web checks read it (docs/operations/domain-audit.md,
 * "Web"): `GET /` over https and over http, at once, through HttpProbe (the guard judges the
 * address; no redirect followed; the body is not kept). A scheme that does not answer (no
 * connection, a failed TLS handshake, a timeout) is null; the https answer keeps whether its
 * certificate is trusted and valid for the name, and its Strict-Transport-Security header.
 */
import { Effect } from "effect"
import type { HttpProbeShape, ProbeOutcome } from "../../adapters/probe/HttpProbe"
import type { WebReach } from "./judge"

/** How long each scheme is given: a site that has not answered by then does not answer. */
export const REACH_TIMEOUT_MS = 10_000

/** The lookup of the name itself failed: nothing is known of the site (an input the audit could not get). */
export class ReachUnknown {
  readonly _tag = "ReachUnknown"
  constructor(readonly message: string) {}
}

const get = (probe: HttpProbeShape, url: string) =>
  probe.fetch({ url, method: "GET", timeoutMs: REACH_TIMEOUT_MS, followRedirects: false, keepBody: false, maxBodyBytes: 64 * 1024 })

const answered = (o: ProbeOutcome) => {
  if (o.error?.kind === "dns_resolution_failed") return new ReachUnknown(o.error.message)
  return o.error === null ? o.response : null
}

export const webReach = (probe: HttpProbeShape, host: string) =>
  Effect.gen(function*() {
    const [https, http] = yield* Effect.all([get(probe, `https://${host}/`), get(probe, `http://${host}/`)], { concurrency: 2 })
    const s = answered(https)
    const p = answered(http)
    if (s instanceof ReachUnknown) return yield* Effect.fail(s)
    if (p instanceof ReachUnknown) return yield* Effect.fail(p)
    return {
      https: s === null ? null : { status: s.status, certificate_valid: https.tls?.authorized === true, hsts: s.headers["strict-transport-security"] ?? null },
      http: p === null ? null : { status: p.status }
    } satisfies WebReach
  })
