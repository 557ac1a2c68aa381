/**
 * Outbound HTTP(S) for every operation that contacts a user-named host: guard on every hop,
 * connection to the vetted address, per-hop timing, redirect chain, TLS outcome, body cap,
 * one deadline for the whole exchange.
 */
import { type Clock, Context, Duration, Effect, Fiber, Layer, Option, type Scope } from "effect"
import { readFileSync } from "node:fs"
import { AppConfig } from "../../platform/Config"
import { InvalidRequest, TargetForbidden } from "../../kernel/errors"
import { DnsResolver, type DnsResolverShape } from "../dns/DnsResolver"
import { isIP } from "node:net"
import { parseTarget, TargetUnresolvable, vetPinnedWith, vetTargetWith, type ParsedTarget } from "./guard"
import { exchange, WireError, type TlsOutcome, type WireProgress, type WireResponse } from "./wire"
import { countOutbound } from "../../platform/observability/metrics"

export interface ProbeRequest {
  readonly url: string
  readonly method?: "GET" | "HEAD" | "OPTIONS"
  readonly headers?: ReadonlyArray<readonly [string, string]>
  /** Whole exchange including redirects. */
  readonly timeoutMs: number
  readonly maxBodyBytes?: number
  readonly followRedirects?: boolean
  readonly maxRedirects?: number
  readonly decompress?: boolean
  /** false: measure the body without keeping it. */
  readonly keepBody?: boolean
  /**
   * Connect the first hop to this address of the URL's host (an IP the caller resolved, e.g. one
   * AAAA record) instead of resolving the name: the guard judges it as a resolved address. Later
   * hops resolve as usual.
   */
  readonly address?: string
}

export interface RedirectHop {
  readonly from: string
  readonly to: string
  readonly status: number
  readonly time_ms: number
}

export type ProbeErrorKind =
  | "timeout"
  | "fetch_failed"
  | "invalid_redirect_location"
  | "too_many_redirects"
  | "target_forbidden"
  | "dns_resolution_failed"
  | "malformed_response"

export interface ProbeOutcome {
  readonly requestedUrl: string
  readonly finalUrl: string
  readonly redirects: ReadonlyArray<RedirectHop>
  /** The last response received (a redirect response when following stopped at one). */
  readonly response: WireResponse | null
  /** TLS outcome of the last connection made over https. */
  readonly tls: TlsOutcome | null
  readonly error: { readonly kind: ProbeErrorKind; readonly message: string } | null
  /**
   * When the exchange of the last hop failed (a timeout, a connection reset, a TLS failure): how
   * far it got, in that hop's time (connection, TLS handshake; null where it did not get).
   */
  readonly failedExchange: WireProgress | null
  readonly totalMs: number
  readonly dnsMs: number
}

const redirectStatuses = new Set([301, 302, 303, 307, 308])

export const DEFAULT_MAX_BODY = 10 * 1024 * 1024

export interface HttpProbeShape {
  /**
   * Fetches a URL. Fails only when the first target is refused by the guard or is not a valid
   * URL; everything that goes wrong afterwards is reported in the outcome.
   */
  readonly fetch: (req: ProbeRequest) => Effect.Effect<ProbeOutcome, InvalidRequest | TargetForbidden>
  /**
   * A `fetch` for one operation that contacts the same hosts many times at once (a scan): each
   * host name is resolved once, on its first use, and that answer serves every request made
   * through it until the scope closes. The guard still judges the addresses on every hop; this
   * only spares the duplicate lookups (and makes every request of the operation go to the same
   * answer, so a name cannot change address between two of them).
   */
  readonly sharingLookups: Effect.Effect<HttpProbeShape["fetch"], never, Scope.Scope>
}

export class HttpProbe extends Context.Tag("domain-intel/HttpProbe")<HttpProbe, HttpProbeShape>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const resolver = yield* DnsResolver
      const cas = readExtraCas(config.extraCaCerts)
      const extraCa = cas.length > 0 ? cas : undefined
      const makeFetch = (dns: DnsResolverShape) => (req: ProbeRequest) =>
        Effect.gen(function*() {
          const vet = vetTargetWith(config.allowPrivateTargets, dns)
          const first = parseTarget(req.url)
          if (first instanceof InvalidRequest || first instanceof TargetForbidden) return yield* first
          if (req.address !== undefined && isIP(req.address) === 0) return yield* new InvalidRequest({ message: `not an IP address: ${req.address}` })
          const pinned = req.address
          // One instant starts both the deadline and total_ms, read from the Effect clock that
          // also drives the timer (TestClock in tests): the report never says less than the limit.
          const clock = yield* Effect.clock
          const nowMs = () => Number(clock.unsafeCurrentTimeNanos()) / 1e6
          const t0 = nowMs()
          const deadline = t0 + req.timeoutMs
          const method = req.method ?? "GET"
          const follow = req.followRedirects ?? true
          const maxRedirects = req.maxRedirects ?? 5
          const redirects: Array<RedirectHop> = []
          let dnsMs = 0
          let target: ParsedTarget = first
          let lastFetched: ParsedTarget = first
          let response: WireResponse | null = null
          let tlsOutcome: TlsOutcome | null = null
          const done = (error: ProbeOutcome["error"], failedExchange: WireProgress | null = null): ProbeOutcome => ({
            requestedUrl: first.url.href,
            finalUrl: lastFetched.url.href,
            redirects,
            response,
            tls: tlsOutcome,
            error,
            failedExchange,
            totalMs: nowMs() - t0,
            dnsMs
          })

          for (let hop = 0; ; hop++) {
            const vetted = yield* (hop === 0 && pinned !== undefined ? vetPinnedWith(config.allowPrivateTargets)(target, pinned) : vet(target)).pipe(
              Effect.map((v) => ({ ok: true as const, v })),
              Effect.catchAll((e) => {
                // The first hop's refusal is the caller's error; later hops are reported.
                if (hop === 0 && e instanceof TargetForbidden) return Effect.fail(e)
                return Effect.succeed({ ok: false as const, e })
              })
            )
            if (!vetted.ok) {
              const e = vetted.e
              if (e instanceof TargetUnresolvable) return done({ kind: "dns_resolution_failed", message: e.message })
              return done({ kind: "target_forbidden", message: `redirect refused: ${e.message}` })
            }
            dnsMs += vetted.v.dnsMs
            lastFetched = target
            const hopStart = nowMs()
            const progress: WireProgress = { connectMs: null, tlsMs: null }
            const result = yield* Effect.tryPromise({
              try: (signal) =>
                exchange({
                  address: vetted.v.address,
                  port: target.port,
                  host: target.host,
                  https: target.url.protocol === "https:",
                  method,
                  path: target.url.pathname + target.url.search,
                  headers: req.headers,
                  // A redirect being followed is not read past its headers (its body is never used).
                  skipBodyOn: follow ? redirectStatuses : undefined,
                  maxBodyBytes: req.maxBodyBytes ?? DEFAULT_MAX_BODY,
                  decompress: req.decompress ?? false,
                  keepBody: req.keepBody ?? true,
                  ca: extraCa,
                  progress
                }, signal),
              catch: (e) => (e instanceof WireError ? e : new WireError("fetch_failed", String(e)))
            }).pipe(
              Effect.raceFirst(Effect.zipRight(untilDeadline(clock, deadline), Effect.fail(new WireError("timeout", "timeout")))),
              Effect.either
            )
            if (result._tag === "Left") {
              const e = result.left
              return done({ kind: e.kind, message: e.message }, { ...progress })
            }
            response = result.right
            if (response.tls) tlsOutcome = response.tls
            const hopMs = nowMs() - hopStart
            if (!follow || !redirectStatuses.has(response.status)) return done(null)
            const location = response.headers["location"]
            let next: URL
            try {
              if (location === undefined || location.trim() === "") throw new Error("missing")
              next = new URL(location.trim(), target.url)
            } catch {
              return done({
                kind: "invalid_redirect_location",
                message: `Location header ${JSON.stringify(location ?? null)} is not a URL`
              })
            }
            redirects.push({ from: target.url.href, to: next.href, status: response.status, time_ms: round(hopMs) })
            if (redirects.length > maxRedirects) {
              return done({ kind: "too_many_redirects", message: `more than ${maxRedirects} redirects` })
            }
            const parsed = parseTarget(next.href)
            if (parsed instanceof InvalidRequest || parsed instanceof TargetForbidden) {
              return done(
                parsed instanceof TargetForbidden
                  ? { kind: "target_forbidden", message: `redirect refused: ${parsed.message}` }
                  : { kind: "invalid_redirect_location", message: parsed.message }
              )
            }
            target = parsed
          }
        })

      // domain_intel_outbound_requests_total: an answer is `ok`, a failure in the body by its kind.
      const counted = (fetch: HttpProbeShape["fetch"]) => (req: ProbeRequest) =>
        fetch(req).pipe(countOutbound("http", (o: ProbeOutcome) => (o.error === null ? "ok" : /timeout/.test(o.error.kind) ? "timeout" : /forbidden/.test(o.error.kind) ? "refused" : "error")))
      const sharingLookups = Effect.gen(function*() {
        const scope = yield* Effect.scope
        // The lookup runs in the operation's scope, not in the fiber of its first caller: a
        // request that gives up (its own deadline) does not take the answer away from the others.
        const lookup = yield* Effect.cachedFunction((name: string) => Effect.forkIn(resolver.lookupAddresses(name), scope))
        return counted(makeFetch({ ...resolver, lookupAddresses: (name) => Effect.flatMap(lookup(name), Fiber.join) }))
      })
      return { fetch: counted(makeFetch(resolver)), sharingLookups }
    })
  )
}

/**
 * Sleeps until `clock` reads `deadline` (ms). A timer may fire a fraction of a millisecond before
 * the clock reaches its end, so the rest is slept again: a timeout is never reported early.
 */
const untilDeadline = (clock: Clock.Clock, deadline: number): Effect.Effect<void> =>
  Effect.suspend(() => {
    const left = deadline - Number(clock.unsafeCurrentTimeNanos()) / 1e6
    return left <= 0 ? Effect.void : Effect.zipRight(Effect.sleep(Duration.millis(left)), untilDeadline(clock, deadline))
  })

export const round = (ms: number) => Math.round(ms * 100) / 100

/** PEM certificates of the extra CA file (NODE_EXTRA_CA_CERTS), one per entry; none when unreadable. */
export const readExtraCas = (path: Option.Option<string>): ReadonlyArray<string> => {
  if (Option.isNone(path)) return []
  try {
    const pem = readFileSync(path.value, "utf8")
    return pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  } catch {
    return []
  }
}
