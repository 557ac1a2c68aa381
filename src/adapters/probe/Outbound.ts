/**
 * Outbound HTTP(S) for the MCP tools (security headers, RDAP), over the shared HttpProbe: every
 * hop vetted by the target guard, redirects followed, bodies capped, one deadline. Anything that
 * goes wrong after the first hop is an OutboundFailure with the reason. Also holds the extra
 * trusted CAs (NODE_EXTRA_CA_CERTS) for the TLS certificate check.
 */
import { Context, Data, Effect, Layer } from "effect"
import { AppConfig } from "../../platform/Config"
import type { InvalidRequest, TargetForbidden } from "../../kernel/errors"
import { HttpProbe, readExtraCas } from "./HttpProbe"
import type { TlsOutcome } from "./wire"

export class OutboundFailure extends Data.TaggedError("OutboundFailure")<{ readonly url: string; readonly reason: string }> {
  get message() { return `${this.url}: ${this.reason}` }
}

export interface OutboundRequest {
  readonly url: string
  readonly method?: "GET" | "HEAD"
  readonly headers?: ReadonlyArray<readonly [string, string]>
  readonly timeoutMs: number
  readonly maxBodyBytes: number
  readonly maxRedirects: number
}

export interface OutboundResponse {
  readonly url: string
  readonly finalUrl: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
  readonly tls: TlsOutcome | null
  readonly redirects: ReadonlyArray<{ readonly from: string; readonly to: string; readonly status: number }>
}

export type OutboundError = OutboundFailure | InvalidRequest | TargetForbidden

export class Outbound extends Context.Tag("domain-intel/McpOutbound")<Outbound, {
  readonly fetch: (req: OutboundRequest) => Effect.Effect<OutboundResponse, OutboundError>
  readonly extraCas: ReadonlyArray<string>
}>() {
  /** Over the shared HttpProbe (guard re-checked on every redirect hop). */
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const probe = yield* HttpProbe
      const extraCas = readExtraCas(config.extraCaCerts)

      const fetch = (req: OutboundRequest): Effect.Effect<OutboundResponse, OutboundError> =>
        probe.fetch({
          url: req.url,
          method: req.method ?? "GET",
          headers: req.headers,
          timeoutMs: req.timeoutMs,
          maxBodyBytes: req.maxBodyBytes,
          followRedirects: true,
          maxRedirects: req.maxRedirects,
          decompress: true
        }).pipe(
          Effect.flatMap((o) => {
            if (o.error !== null || o.response === null) {
              const reason = o.error?.kind === "timeout" ? "timed out" : o.error?.message ?? "no response"
              return Effect.fail(new OutboundFailure({ url: o.finalUrl, reason }))
            }
            return Effect.succeed({
              url: o.requestedUrl,
              finalUrl: o.finalUrl,
              status: o.response.status,
              headers: o.response.headers,
              body: o.response.body,
              tls: o.tls,
              redirects: o.redirects.map((r) => ({ from: r.from, to: r.to, status: r.status }))
            } satisfies OutboundResponse)
          })
        )

      return { fetch, extraCas }
    })
  )
}
