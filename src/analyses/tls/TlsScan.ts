/**
 * TLS configuration scan: the target guard on the host and every address it resolves to, then
 * crafted ClientHellos over raw TCP to the vetted address (TlsWire), never more than CONNECTIONS
 * at once, each bounded in time and bytes, the whole scan inside OPERATION_DEADLINE_MS. Phase 1
 * enumerates TLS 1.0-1.3 and their suites; phase 2 runs the rest in parallel: SSL 3.0, server
 * order, groups (post-quantum ones included), DH size, fallback SCSV, Heartbleed, ALPN, the
 * certificate (one full handshake with the runtime's TLS client, else the plaintext Certificate
 * message of a legacy flight: certificate.ts), HSTS and Alt-Svc (one HTTPS request through
 * HttpProbe) and the origin's HTTPS DNS record (HTTP/3).
 * A port that refuses, stays silent, or speaks something else than TLS is 502 upstream_unavailable.
 */
import { Clock, Context, Duration, Effect, Either, Layer } from "effect"
import { isIP } from "node:net"
import { TlsConnectFailed, TlsWire, type StepResult } from "../../adapters/tls/TlsWire"
import { AppConfig } from "../../platform/Config"
import { DnsResolver } from "../../adapters/dns/DnsResolver"
import { InvalidRequest, TargetForbidden, UpstreamUnavailable } from "../../kernel/errors"
import { handshake } from "../../adapters/x509/CertInspector"
import { trustStore } from "../../adapters/x509/chainVerify"
import { judgeHstsHeader } from "../network/hsts"
import { parseTarget, vetTarget } from "../../adapters/probe/guard"
import { HttpProbe, readExtraCas } from "../../adapters/probe/HttpProbe"
import { ALPN_OFFERS, alpnReport, selectedProtocol, type AlpnAnswer, type AlpnOffer } from "./alpn"
import { certificateOfChain, certificateOfHandshake } from "./certificate"
import { buildClientHello, makeKeyShare } from "./clientHello"
import { dhBits, enumerateVersion, fallbackScsv, groups13, groupsLegacy, serverPreference, type Probe, type ProbeResult, type VersionScan } from "./enumerate"
import { GROUPS } from "./groups"
import { heartbeatRequest, judgeHeartbeat } from "./heartbleed"
import { advertisesH3, alpnFromHttpsRecord, altSvcProtocols, httpsRecordName } from "./http3"
import { acceptedVersions, buildReport } from "./report"
import type { TlsReport } from "./schema"
import { enough, parseFlight } from "./serverHello"
import { suitesFor, VERSION_CODE, type Version } from "./suites"

/** Connections to the target at once (SSL Labs and testssl.sh stay at a handful too). */
export const CONNECTIONS = 4
const PROBE_TIMEOUT_MS = 4_000
const HEARTBEAT_WAIT_MS = 1_500
const MAX_FLIGHT_BYTES = 256 * 1024
/** Left of OPERATION_DEADLINE_MS for assembling and sending the report. */
const MARGIN_MS = 1_500

export interface TlsScanShape {
  readonly scan: (host: string, port: number) => Effect.Effect<TlsReport, InvalidRequest | TargetForbidden | UpstreamUnavailable>
}

/** `host`: a name or an IP address (IPv6 with or without brackets); nothing else passes. */
export const parseHost = (host: string, port: number) => {
  const h = host.trim().replace(/^\[(.*)\]$/, "$1")
  if (h.length === 0) return new InvalidRequest({ message: "host is required" })
  if (isIP(h) === 0 && !/^[A-Za-z0-9_.-]+$/.test(h)) {
    return new InvalidRequest({ message: `host must be a host name or an IP address (no scheme, port or path): ${JSON.stringify(host.slice(0, 100))}` })
  }
  return parseTarget(`https://${isIP(h) === 6 ? `[${h}]` : h}:${port}/`)
}

const describeEnd = (s: StepResult, ms: number): string =>
  s.end === "timeout" && s.bytes.length === 0 ? `no answer within ${ms} ms`
  : s.end === "timeout" ? `no complete ServerHello within ${ms} ms`
  : s.end === "reset" ? `the connection was reset before a ServerHello${s.bytes.length ? ` (after ${s.bytes.length} bytes)` : ""}`
  : s.end === "byte_limit" ? `more than ${MAX_FLIGHT_BYTES} bytes without a complete ServerHello`
  : `the server closed the connection before a ServerHello${s.bytes.length ? ` (after ${s.bytes.length} bytes)` : ""}`

/** Why a port is not a TLS service, from the first answers of phase 1. */
const notTls = (scans: ReadonlyArray<VersionScan>): string => {
  const firsts = scans.map((s) => s.first)
  const foreign = firsts.find((f) => f.kind === "not_tls")
  if (foreign && foreign.kind === "not_tls") return foreign.reason
  const refused = firsts.find((f) => f.kind === "no_answer" && f.refused)
  const any = refused ?? firsts[0]
  return any.kind === "no_answer" ? any.reason : "no TLS answer"
}

export const makeTlsScan = Effect.gen(function*() {
  const config = yield* AppConfig
  const resolver = yield* DnsResolver
  const wire = yield* TlsWire
  const http = yield* HttpProbe
  const extraCas = readExtraCas(config.extraCaCerts)

  const scan = Effect.fn("TlsScan.scan")(function*(host: string, port: number) {
    const parsed = parseHost(host, port)
    if ("_tag" in parsed) return yield* parsed
    const target = yield* vetTarget(parsed).pipe(
      Effect.provideService(AppConfig, config),
      Effect.provideService(DnsResolver, resolver),
      Effect.catchIf((e) => e._tag === "TargetUnresolvable", (e) => Effect.fail(new UpstreamUnavailable({ message: e.message })))
    )
    const address = target.address
    const sni = target.literal ? null : target.host
    const start = yield* Clock.currentTimeMillis
    const deadline = start + config.operationDeadlineMs - MARGIN_MS
    const left = Effect.map(Clock.currentTimeMillis, (now) => deadline - now)
    const sem = yield* Effect.makeSemaphore(CONNECTIONS)
    const limitations: Array<string> = []
    const timings: Record<string, number> = {}
    const timed = <A, E>(name: string, eff: Effect.Effect<A, E>) =>
      Effect.gen(function*() {
        const t0 = yield* Clock.currentTimeMillis
        const a = yield* eff
        timings[name] = (yield* Clock.currentTimeMillis) - t0
        return a
      })
    let deadlineHit = false

    /** One connection, its steps each bounded by the probe timeout and what is left of the deadline. */
    const converse = (steps: (ms: number) => Parameters<typeof wire.converse>[2]) =>
      sem.withPermits(1)(Effect.gen(function*() {
        const ms = Math.min(PROBE_TIMEOUT_MS, yield* left)
        if (ms < 100) {
          deadlineHit = true
          const result: Either.Either<ReadonlyArray<StepResult>, TlsConnectFailed> = Either.left(new TlsConnectFailed({ reason: "timeout", message: "the scan's deadline was reached" }))
          return { ms, result }
        }
        const result = yield* wire.converse(address, port, steps(ms), { connectTimeoutMs: ms, maxBytes: MAX_FLIGHT_BYTES }).pipe(Effect.either)
        return { ms, result }
      }))

    const probe: Probe = (spec, need) =>
      converse((ms) => [{ send: buildClientHello(spec), until: (b) => enough(b, need), timeoutMs: ms }]).pipe(
        Effect.map(({ ms, result }): ProbeResult => {
          if (Either.isLeft(result)) return { kind: "no_answer", reason: result.left.message, refused: result.left.reason === "refused" }
          const step = result.right[0]
          const f = parseFlight(step.bytes)
          return f.kind === "incomplete" ? { kind: "no_answer", reason: describeEnd(step, ms), refused: false } : f
        })
      )

    // Phase 1: TLS 1.0-1.3, every suite of each, in parallel within the connection budget.
    const shares = [makeKeyShare(29), makeKeyShare(23)]
    const modern = yield* timed("protocols_and_suites", Effect.forEach(["tls1_3", "tls1_2", "tls1_1", "tls1_0"] as const, (v) =>
      enumerateVersion(probe, v, sni, v === "tls1_3" ? shares : undefined), { concurrency: "unbounded" }))
    const spoke = modern.some((s) => s.first.kind === "hello" || s.first.kind === "alert")
    if (!spoke) return yield* new UpstreamUnavailable({ message: `no TLS service on ${target.host}:${port} (${address}): ${notTls(modern)}` })

    const by = Object.fromEntries(modern.map((s) => [s.version, s])) as unknown as Record<Exclude<Version, "ssl3">, VersionScan>
    const legacyOn = (["tls1_2", "tls1_1", "tls1_0"] as const).filter((v) => by[v].accepted.length > 0)
    const best = legacyOn[0]
    const flights = legacyOn.flatMap((v) => by[v].flights)
    const heartbeat = flights.some((f) => f.hello.extensions.has(15))

    const heartbleed = (v: Version) =>
      converse((ms) => [
        { send: buildClientHello({ version: v, suites: suitesFor(v).map((s) => s.code), serverName: sni }), until: (b) => enough(b, "flight"), timeoutMs: ms },
        { send: heartbeatRequest(VERSION_CODE[v]), until: (b) => judgeHeartbeat(b, false) !== "incomplete", timeoutMs: Math.min(HEARTBEAT_WAIT_MS, ms) }
      ]).pipe(Effect.map(({ result }) => {
        if (Either.isLeft(result) || result.right.length < 2) {
          limitations.push("the Heartbleed probe could not complete a first flight; reported as not vulnerable")
          return false
        }
        return judgeHeartbeat(result.right[1].bytes, true) === "vulnerable"
      }))

    /** A handshake with the runtime's TLS client (the certificate, and ALPN on a TLS 1.3-only server). */
    const runtimeHandshake = (alpn?: ReadonlyArray<string>) =>
      sem.withPermits(1)(Effect.gen(function*() {
        const ms = yield* left
        return yield* handshake(address, port, sni ?? undefined, extraCas, alpn).pipe(
          Effect.timeoutFail({ duration: Duration.millis(Math.max(1, ms)), onTimeout: () => ({ message: "the scan's deadline was reached" }) })
        )
      }))

    /** Right: the certificate; Left: why the runtime's client could not read it (a legacy flight may still have it). */
    const certificate = (ocsp: boolean | null) =>
      runtimeHandshake().pipe(
        Effect.flatMap((hs) => Effect.map(Clock.currentTimeMillis, (now) => certificateOfHandshake(hs, target.host, now, ocsp))),
        Effect.catchAllDefect((d) => Effect.fail({ message: String(d) })),
        Effect.either
      )

    /** ALPN, one offer: the ServerHello of a legacy hello when the server speaks one, else a TLS 1.3 handshake. */
    const alpnOffer = (offer: AlpnOffer): Effect.Effect<AlpnAnswer> => {
      if (best) {
        return probe({ version: best, suites: by[best].accepted.map((x) => x.code), serverName: sni, alpn: [offer] }, "hello").pipe(
          Effect.map((r): AlpnAnswer =>
            r.kind === "hello" ? { offer, selected: selectedProtocol(r.hello) }
            : r.kind === "alert" ? { offer, selected: null }
            : { offer, failed: r.reason })
        )
      }
      if (by.tls1_3.accepted.length === 0) return Effect.succeed({ offer, selected: null })
      return runtimeHandshake([offer]).pipe(
        Effect.map((hs): AlpnAnswer => ({ offer, selected: hs.alpn })),
        // RFC 7301 §3.2: a server may refuse an offer it does not support with this alert.
        Effect.catchAll((e) => Effect.succeed<AlpnAnswer>(/no.?application.?protocol/i.test(e.message) ? { offer, selected: null } : { offer, failed: e.message }))
      )
    }

    /** One HTTPS answer on the port: HSTS (for A+) and Alt-Svc (HTTP/3). */
    const httpsAnswer = Effect.gen(function*() {
      const ms = Math.min(PROBE_TIMEOUT_MS, yield* left)
      if (ms < 100) return { hstsMaxAge: null, altSvc: null, error: "the scan's deadline was reached" }
      if (by.tls1_2.accepted.length === 0 && by.tls1_3.accepted.length === 0) {
        return { hstsMaxAge: null, altSvc: null, error: "the HTTPS client speaks TLS 1.2 and 1.3 only" }
      }
      const hostForUrl = isIP(target.host) === 6 ? `[${target.host}]` : target.host
      const out = yield* sem.withPermits(1)(http.fetch({ url: `https://${hostForUrl}:${port}/`, method: "GET", timeoutMs: ms, followRedirects: false, maxBodyBytes: 0, keepBody: false }))
      if (out.response === null) return { hstsMaxAge: null, altSvc: null, error: out.error?.message ?? "no answer" }
      const j = judgeHstsHeader(out.response.headers["strict-transport-security"], true)
      return { hstsMaxAge: j.effective ? j.max_age : null, altSvc: out.response.headers["alt-svc"] ?? null, error: null }
    }).pipe(Effect.catchAll((e) => Effect.succeed({ hstsMaxAge: null, altSvc: null, error: e.message })))

    /** The origin's HTTPS DNS record (RFC 9460); never asked for an IP literal or a localhost name (RFC 6761). */
    const recordName = httpsRecordName(target.host, port)
    const httpsRecord = target.literal || target.host === "localhost" || target.host.endsWith(".localhost")
      ? Effect.succeed({ alpn: [] as ReadonlyArray<string>, error: null })
      : Effect.flatMap(left, (ms) => alpnFromHttpsRecord(resolver, recordName).pipe(
        Effect.timeoutFail({ duration: Duration.millis(Math.max(1, ms)), onTimeout: () => ({ message: "the scan's deadline was reached" }) }),
        Effect.map((alpn) => ({ alpn, error: null })),
        Effect.catchAll((e) => Effect.succeed({ alpn: [] as ReadonlyArray<string>, error: e.message }))
      ))

    // Phase 2: everything else, in parallel within the same connection budget.
    const firstLegacy = best ? by[best].flights[0] : undefined
    const ocsp = firstLegacy && firstLegacy.certificates !== null ? firstLegacy.ocspStapled : null
    if (ocsp === null) limitations.push("OCSP stapling could not be read: the server speaks only TLS 1.3, where the stapled response is encrypted")
    const ecdhe = best ? by[best].accepted.filter((s) => s.kx === "ECDHE") : []
    const dhe = best ? by[best].accepted.filter((s) => s.kx === "DHE") : []
    const onModern = modern.filter((s) => s.accepted.length > 0).map((s) => s.version)
    const [ssl3, prefs, g13, g12, dh, fallback, bled, runtimeCert, alpnAnswers, https, record] = yield* timed("details", Effect.all([
      timed("ssl3", enumerateVersion(probe, "ssl3", null, undefined)),
      timed("server_preference", Effect.forEach(modern, (s) => serverPreference(probe, s.version, s.accepted, sni, s.version === "tls1_3" ? shares : undefined), { concurrency: "unbounded" })),
      timed("groups_tls13", by.tls1_3.accepted.length > 0 ? groups13(probe, by.tls1_3.accepted, sni) : Effect.succeed([])),
      timed("groups_tls12", best && ecdhe.length > 0 ? groupsLegacy(probe, best, ecdhe, sni) : Effect.succeed([])),
      best ? dhBits(probe, best, dhe, sni) : Effect.succeed(null),
      timed("fallback_scsv", fallbackScsv(probe, onModern, sni)),
      timed("heartbleed", heartbeat && best ? heartbleed(best) : Effect.succeed(false)),
      timed("certificate", certificate(ocsp)),
      timed("alpn", Effect.forEach(ALPN_OFFERS, alpnOffer, { concurrency: "unbounded" })),
      timed("https_answer", httpsAnswer),
      timed("https_record", httpsRecord)
    ], { concurrency: "unbounded" }))

    const suites = { ssl3: ssl3.accepted, tls1_0: by.tls1_0.accepted, tls1_1: by.tls1_1.accepted, tls1_2: by.tls1_2.accepted, tls1_3: by.tls1_3.accepted }
    for (const s of [...modern, ssl3]) if (s.note) limitations.push(s.note)
    if (deadlineHit) limitations.push(`the scan reached its deadline (${config.operationDeadlineMs} ms): probes after it were skipped, so some suites or groups may be missing`)
    const groupCodes = new Set([...g13, ...g12].map((g) => g.code))
    const pref = prefs.find((p) => p !== null) ?? null
    const legacyAll = [...flights, ...(ssl3.accepted.length ? ssl3.flights : [])]
    const cert = yield* Either.match(runtimeCert, {
      onRight: (c) => Effect.succeed(c),
      onLeft: (e) => {
        // The certificates a legacy flight carried in the clear, from the newest version first.
        const sent = legacyAll.find((f) => f.certificates !== null && f.certificates.length > 0)?.certificates
        if (!sent) {
          limitations.push(`certificate: no full handshake with the runtime's TLS client (${e.message}) and no certificate in a TLS 1.2-and-older flight`)
          return Effect.succeed(null)
        }
        limitations.push(`certificate: read from the Certificate message the server sends in the clear below TLS 1.3 (the runtime's TLS client could not complete a handshake: ${e.message}); its chain was verified by name, signature and validity, without name constraints, policies or key usage`)
        return Effect.map(Clock.currentTimeMillis, (now) => certificateOfChain(sent, target.host, now, trustStore(extraCas), ocsp))
      }
    }).pipe(Effect.catchAllDefect((d) => {
      limitations.push(`certificate: the server's certificate could not be parsed (${String(d)})`)
      return Effect.succeed(null)
    }))
    for (const a of alpnAnswers) if ("failed" in a) limitations.push(`ALPN: the ${a.offer} offer got no answer (${a.failed})`)
    if (https.error !== null) limitations.push(`HSTS and Alt-Svc were not read: no HTTPS answer on the port (${https.error})`)
    if (record.error !== null) limitations.push(`HTTP/3: the HTTPS DNS record ${recordName} could not be read (${record.error})`)
    const dhSeen = [dh, ...legacyAll.map((f) => f.keyExchange?.dhBits ?? null)].filter((x): x is number => x !== null && x > 0)
    const newest = acceptedVersions(suites)[0]
    timings.total = (yield* Clock.currentTimeMillis) - start
    return buildReport({
      host: target.host,
      port,
      ip: address,
      checkedAt: new Date(start).toISOString(),
      timings,
      suites,
      serverPreference: pref,
      groups: GROUPS.filter((g) => groupCodes.has(g.code)),
      dhBits: dhSeen.length ? Math.min(...dhSeen) : null,
      forwardSecrecy: newest === "tls1_3" || (newest !== undefined && suites[newest][0].forward_secrecy),
      certificate: cert,
      features: {
        secure_renegotiation: legacyAll.length ? legacyAll.some((f) => f.hello.extensions.has(0xff01)) : null,
        fallback_scsv: fallback,
        compression: legacyAll.some((f) => f.hello.compression !== 0),
        heartbeat
      },
      heartbleed: bled,
      hstsMaxAge: https.hstsMaxAge,
      alpn: alpnReport(alpnAnswers),
      http3: { advertised: advertisesH3(altSvcProtocols(https.altSvc)) || advertisesH3(record.alpn), alt_svc: https.altSvc },
      limitations
    })
  })

  return { scan } satisfies TlsScanShape
})

export class TlsScan extends Context.Tag("domain-intel/TlsScan")<TlsScan, TlsScanShape>() {
  static readonly Live = Layer.effect(this, makeTlsScan)
}
