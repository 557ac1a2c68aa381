/**
 * Outbound HTTP(S) for the MCP tools (security headers, RDAP): every hop parsed and vetted by the
 * target guard, connected to the vetted address with SNI, redirects followed with the guard
 * re-checked per hop, bodies capped, deadlines enforced. The trust store is the system roots plus
 * the PEM file named by NODE_EXTRA_CA_CERTS.
 */
import { Context, Data, Effect, Layer, Option } from "effect"
import { readFileSync } from "node:fs"
import { AppConfig } from "../Config"
import type { InvalidRequest, TargetForbidden } from "../domain/errors"
import { DnsResolver } from "../dns/DnsResolver"
import { parseTarget, vetTarget, type TargetUnresolvable } from "../probe/guard"
import { exchange, WireError, type TlsOutcome, type WireResponse } from "../probe/wire"

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

/** PEM certificates of the extra CA file (NODE_EXTRA_CA_CERTS), split one per entry. */
export const readExtraCas = (path: Option.Option<string>): ReadonlyArray<string> => {
  if (Option.isNone(path)) return []
  try {
    const pem = readFileSync(path.value, "utf8")
    return pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  } catch {
    return []
  }
}

export class Outbound extends Context.Tag("domain-intel/McpOutbound")<Outbound, {
  readonly fetch: (req: OutboundRequest) => Effect.Effect<OutboundResponse, OutboundError>
  readonly extraCas: ReadonlyArray<string>
}>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const resolver = yield* DnsResolver
      const extraCas = readExtraCas(config.extraCaCerts)

      const hop = (url: string, req: OutboundRequest, deadline: number): Effect.Effect<WireResponse, OutboundError> =>
        Effect.gen(function*() {
          const parsed = parseTarget(url)
          if ("_tag" in parsed) return yield* Effect.fail<OutboundError>(parsed)
          const vetted = yield* vetTarget(parsed).pipe(
            Effect.provideService(AppConfig, config),
            Effect.provideService(DnsResolver, resolver),
            Effect.catchIf(
              (e): e is TargetUnresolvable => (e as { _tag?: string })._tag === "TargetUnresolvable",
              (e) => Effect.fail(new OutboundFailure({ url, reason: e.message }))
            )
          )
          return yield* Effect.tryPromise({
            try: (signal) =>
              exchange({
                address: vetted.address,
                port: vetted.port,
                host: vetted.host,
                https: vetted.url.protocol === "https:",
                method: req.method ?? "GET",
                path: vetted.url.pathname + vetted.url.search,
                headers: req.headers,
                deadline,
                maxBodyBytes: req.maxBodyBytes,
                decompress: true,
                ca: extraCas.length > 0 ? extraCas : undefined
              }, signal),
            catch: (e) =>
              new OutboundFailure({
                url,
                reason: e instanceof WireError ? (e.kind === "timeout" ? "timed out" : e.message) : String(e)
              })
          })
        })

      const fetch = (req: OutboundRequest): Effect.Effect<OutboundResponse, OutboundError> =>
        Effect.gen(function*() {
          const deadline = performance.now() + req.timeoutMs
          const redirects: Array<{ from: string; to: string; status: number }> = []
          let url = req.url
          for (;;) {
            const res = yield* hop(url, req, deadline)
            const location = res.headers["location"]
            if (res.status >= 300 && res.status < 400 && location !== undefined && res.status !== 304) {
              if (redirects.length >= req.maxRedirects) {
                return yield* new OutboundFailure({ url: req.url, reason: `more than ${req.maxRedirects} redirects` })
              }
              let next: string
              try {
                next = new URL(location, url).toString()
              } catch {
                return yield* new OutboundFailure({ url, reason: `invalid redirect location: ${location}` })
              }
              if (redirects.some((r) => r.from === next)) {
                return yield* new OutboundFailure({ url: req.url, reason: `redirect loop at ${next}` })
              }
              redirects.push({ from: url, to: next, status: res.status })
              url = next
              continue
            }
            return {
              url: req.url,
              finalUrl: url,
              status: res.status,
              headers: res.headers,
              body: res.body,
              tls: res.tls,
              redirects
            } satisfies OutboundResponse
          }
        })

      return { fetch, extraCas }
    })
  )
}
