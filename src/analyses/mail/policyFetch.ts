/**
 * Fetching the MTA-STS policy (RFC 8461 §3.3) through HttpProbe, which applies the target guard
 * to `mta-sts.<domain>` and every address it resolves to. No redirect is followed (a redirect is
 * an error of the policy host), the certificate must be valid for that name, the answer must be
 * 200 `text/plain`, and the body is capped at 64 KiB within a time limit.
 */
import { Effect } from "effect"
import type { HttpProbeShape } from "../../adapters/probe/HttpProbe"
import type { PolicyFetch } from "./mtaSts"

export const POLICY_MAX_BYTES = 64 * 1024

export const policyUrl = (domain: string) => `https://mta-sts.${domain}/.well-known/mta-sts.txt`

export const fetchPolicy = (probe: HttpProbeShape, domain: string, timeoutMs: number): Effect.Effect<PolicyFetch> =>
  probe.fetch({ url: policyUrl(domain), method: "GET", timeoutMs, maxBodyBytes: POLICY_MAX_BYTES, followRedirects: false, decompress: false }).pipe(
    Effect.map((o): PolicyFetch => {
      const host = `mta-sts.${domain}`
      if (o.error !== null) {
        if (o.error.kind === "timeout") return { _tag: "Error", reason: `no complete answer from ${host} within ${timeoutMs} ms` }
        return { _tag: "Error", reason: `${host}: ${o.error.message}` }
      }
      const r = o.response
      if (r === null) return { _tag: "Error", reason: `${host} gave no answer` }
      if (o.tls !== null && !o.tls.authorized) return { _tag: "Error", reason: `the certificate of ${host} is not valid: ${o.tls.error ?? "not trusted"}` }
      if (r.status >= 300 && r.status < 400) return { _tag: "Error", reason: `${host} redirects (HTTP ${r.status} to ${r.headers["location"] ?? "?"}); RFC 8461 §3.3 forbids following redirects` }
      if (r.status !== 200) return { _tag: "Error", reason: `${host} answered HTTP ${r.status}` }
      if (r.truncated || r.bodyBytes > POLICY_MAX_BYTES) return { _tag: "Error", reason: `the policy is larger than ${POLICY_MAX_BYTES / 1024} KiB` }
      const ct = (r.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase()
      if (ct !== "text/plain") return { _tag: "Error", reason: `the policy is served as ${ct || "no content type"}, not text/plain` }
      return { _tag: "Body", text: r.body.toString("utf8") }
    }),
    Effect.catchAll((e) => Effect.succeed<PolicyFetch>({ _tag: "Error", reason: e.message }))
  )
