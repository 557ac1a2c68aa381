/**
 * ssl_certificate: one TLS handshake to domain:port through the target guard (connect to the
 * vetted address, SNI carries the name), verification against the system roots plus
 * NODE_EXTRA_CA_CERTS, the hostname check, and the leaf's facts; enriched with CT history.
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { isIP } from "node:net"
import * as tls from "node:tls"
import { AppConfig } from "../../platform/Config"
import { DnsResolver } from "../dns/DnsResolver"
import { parseTarget, vetTarget } from "../probe/guard"
import { describeTlsError } from "../probe/wire"
import { certFacts, chromeCompliant, type CertFacts } from "./certFacts"
import { CtHistory, type CtHistoryEntry } from "../ct/CtHistory"
import { ToolFailure } from "../../kernel/ToolFailure"
import { CertReport as CertReportSchema } from "../../kernel/lookupReports"
import { Outbound } from "../probe/Outbound"

const HANDSHAKE_TIMEOUT_MS = 10_000
const CT_TIMEOUT = Duration.seconds(8)

/** The ssl_certificate report: its type is the output Schema's (src/kernel/lookupReports.ts). */
export type CertReport = typeof CertReportSchema.Type
export type ChainEntry = CertReport["chain"][number]

export interface Handshake {
  readonly chainValid: boolean
  readonly authorizationError: string | null
  readonly peer: tls.DetailedPeerCertificate
  readonly protocol: string | null
  readonly cipher: string | null
  /** The protocol the server selected from `alpn` (RFC 7301), null when it selected none. */
  readonly alpn: string | null
}

export const handshake = (address: string, port: number, servername: string | undefined, ca: ReadonlyArray<string>, alpn?: ReadonlyArray<string>) =>
  Effect.async<Handshake, ToolFailure>((resume) => {
    let done = false
    const socket = tls.connect({
      host: address,
      port,
      servername,
      rejectUnauthorized: false,
      ca: ca.length > 0 ? [...tls.rootCertificates, ...ca] : undefined,
      ALPNProtocols: alpn ? [...alpn] : undefined
    })
    const finish = (e: Effect.Effect<Handshake, ToolFailure>) => {
      if (done) return
      done = true
      socket.destroy()
      resume(e)
    }
    socket.once("secureConnect", () => {
      const peer = socket.getPeerCertificate(true)
      if (!peer || !peer.raw) return finish(Effect.fail(new ToolFailure({ message: "the server presented no certificate" })))
      finish(Effect.succeed({
        // Bun folds the hostname check into `authorized`; the chain is judged apart from it.
        chainValid: socket.authorized || String(socket.authorizationError) === "ERR_TLS_CERT_ALTNAME_INVALID",
        authorizationError: socket.authorized ? null : String(socket.authorizationError ?? ""),
        peer,
        protocol: socket.getProtocol() ?? null,
        cipher: socket.getCipher()?.name ?? null,
        alpn: socket.alpnProtocol || null
      }))
    })
    socket.once("error", (e: NodeJS.ErrnoException) =>
      finish(Effect.fail(new ToolFailure({ message: `TLS connection to ${address}:${port} failed: ${e.code ? `${e.code}: ` : ""}${e.message}` }))))
    socket.once("close", () => finish(Effect.fail(new ToolFailure({ message: `connection to ${address}:${port} closed before the TLS handshake completed` }))))
    return Effect.sync(() => { done = true; socket.destroy() })
  }).pipe(
    // An Effect timeout (not a timer): TestClock drives it.
    Effect.timeoutFail({
      duration: Duration.millis(HANDSHAKE_TIMEOUT_MS),
      onTimeout: () => new ToolFailure({ message: `TLS handshake with ${address}:${port} timed out` })
    })
  )

/** One entry of a report's chain, from a certificate's DER. */
export const chainEntryOf = (der: Uint8Array): ChainEntry => {
  try {
    const f = certFacts(der)
    return { subject: f.subject, issuer: f.issuer, not_after: f.not_after }
  } catch {
    return { subject: "(unparseable certificate)", issuer: "", not_after: "" }
  }
}

export const chainOf = (peer: tls.DetailedPeerCertificate): Array<ChainEntry> => {
  const out: Array<ChainEntry> = []
  let c: tls.DetailedPeerCertificate | undefined = peer
  const seen = new Set<string>()
  while (c && c.raw && !seen.has(c.fingerprint256) && out.length < 10) {
    seen.add(c.fingerprint256)
    out.push(chainEntryOf(c.raw))
    c = c.issuerCertificate && c.issuerCertificate !== c ? c.issuerCertificate : undefined
  }
  return out
}

/** The CT history block of the report: count, distinct issuers, the five most recently logged. */
export const summarizeCt = (entries: ReadonlyArray<CtHistoryEntry>): CertReport["ct_history"] => {
  const sorted = [...entries].sort((a, b) => b.timestamp.localeCompare(a.timestamp))
  return {
    available: true,
    count: entries.length,
    issuers: [...new Set(sorted.map((e) => e.issuer).filter((i) => i.length > 0))],
    latest: sorted.slice(0, 5),
    note: entries.length === 0 ? "no certificates for this domain were found in CT logs" : null
  }
}

export class CertInspector extends Context.Tag("domain-intel/CertInspector")<CertInspector, {
  readonly inspect: (domain: string, port: number) => Effect.Effect<CertReport, ToolFailure>
}>() {
  static readonly Live = Layer.effect(
    this,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const resolver = yield* DnsResolver
      const outbound = yield* Outbound
      const ct = yield* CtHistory

      const ctHistory = (domain: string) =>
        ct.search(domain).pipe(
          Effect.timeoutFail({ duration: CT_TIMEOUT, onTimeout: () => ({ message: "the CT source did not answer in time" }) }),
          Effect.map(summarizeCt),
          Effect.catchAll((e) =>
            Effect.succeed({
              available: false,
              count: 0,
              issuers: [] as Array<string>,
              latest: [] as Array<CtHistoryEntry>,
              note: `CT history unavailable: ${e.message}`
            })
          )
        )

      const inspect = Effect.fn("CertInspector.inspect")(function*(domain: string, port: number) {
        const hostForUrl = isIP(domain) === 6 ? `[${domain}]` : domain
        const parsed = parseTarget(`https://${hostForUrl}:${port}/`)
        // A refused or malformed target keeps its catalogue code (target_forbidden, invalid_request).
        if ("_tag" in parsed) return yield* ToolFailure.fromApiError(parsed)
        const vetted = yield* vetTarget(parsed).pipe(
          Effect.provideService(AppConfig, config),
          Effect.provideService(DnsResolver, resolver),
          // An unresolvable name is the target's failure (upstream_unavailable, as TLS scan says it).
          Effect.mapError((e) => (e._tag === "TargetForbidden" ? ToolFailure.fromApiError(e) : new ToolFailure({ message: e.message })))
        )
        const [hs, history] = yield* Effect.all([
          handshake(vetted.address, port, vetted.literal ? undefined : vetted.host, outbound.extraCas),
          ctHistory(vetted.host)
        ], { concurrency: 2 })
        const facts = yield* Effect.try({
          try: () => certFacts(hs.peer.raw),
          catch: (e) => new ToolFailure({ message: `the server's certificate could not be parsed: ${(e as Error).message}` })
        })
        const identity = tls.checkServerIdentity(vetted.host, hs.peer)
        const now = yield* Clock.currentTimeMillis
        const notAfter = Date.parse(facts.not_after)
        const notBefore = Date.parse(facts.not_before)
        const expired = now > notAfter
        const notYetValid = now < notBefore
        return {
          domain: vetted.host,
          port,
          address: vetted.address,
          valid: hs.chainValid && identity === undefined && !expired && !notYetValid,
          chain_valid: hs.chainValid,
          chain_error: hs.chainValid ? null : describeTlsError(hs.authorizationError ?? "", vetted.host),
          hostname_match: identity === undefined,
          hostname_error: identity ? identity.message : null,
          expired,
          not_yet_valid: notYetValid,
          days_left: Math.floor((notAfter - now) / 86_400_000),
          certificate: facts,
          chain: chainOf(hs.peer),
          protocol: hs.protocol,
          cipher: hs.cipher,
          embedded_sct: {
            count: facts.embedded_sct_count,
            chrome_compliant: chromeCompliant(facts.embedded_sct_count, facts.not_before, facts.not_after)
          },
          ct_history: history
        } satisfies CertReport
      })

      return { inspect }
    })
  )
}
