/**
 * DNS on the wire with `dns-packet`: UDP with EDNS0, TCP on truncation (or on request), to the
 * recursive resolvers of `DNS_RESOLVERS` (tried in turn) or to one named server.
 * Malformed or hostile answers are typed errors, never crashes. Transaction ids come from the
 * CSPRNG; an answer counts only when its id and its echoed question (name, type, class) match
 * the query, anything else is dropped as spoofed. Every wait is an Effect timeout, so TestClock
 * drives it.
 */
import { Context, Data, Duration, Effect, Layer } from "effect"
import { randomInt } from "node:crypto"
import * as dgram from "node:dgram"
import * as net from "node:net"
import * as packet from "dns-packet"
import { AppConfig, type ResolverAddress } from "../../platform/Config"
import { countOutbound } from "../../platform/observability/metrics"

export interface DnsQuestion {
  readonly name: string
  readonly type: string
  /** Ask this server instead of the configured recursive resolvers. */
  readonly server?: ResolverAddress
  /** RD flag; default true. */
  readonly recursionDesired?: boolean
  /** Set the EDNS0 DO bit (DNSSEC records wanted). */
  readonly dnssec?: boolean
  /** Set the CD bit: ask a validating resolver for the data even when it would judge it bogus. */
  readonly checkingDisabled?: boolean
  /** Use TCP from the start. */
  readonly tcp?: boolean
  readonly timeoutMs?: number
}

export interface DnsAnswerSet {
  readonly rcode: string
  readonly flags: { readonly aa: boolean; readonly tc: boolean; readonly ra: boolean; readonly ad: boolean }
  readonly answers: ReadonlyArray<packet.Answer>
  readonly authorities: ReadonlyArray<packet.Answer>
  readonly additionals: ReadonlyArray<packet.Answer>
  readonly server: ResolverAddress
}

export class DnsTimeout extends Data.TaggedError("DnsTimeout")<{ readonly server: string; readonly name: string }> {
  get message() { return `DNS query for ${this.name} to ${this.server} timed out` }
}
export class DnsFailure extends Data.TaggedError("DnsFailure")<{ readonly server: string; readonly name: string; readonly reason: string }> {
  get message() { return `DNS query for ${this.name} to ${this.server} failed: ${this.reason}` }
}
export class DnsMalformed extends Data.TaggedError("DnsMalformed")<{ readonly server: string; readonly name: string; readonly reason: string }> {
  get message() { return `malformed DNS answer for ${this.name} from ${this.server}: ${this.reason}` }
}
/** The server answered with an error rcode (SERVFAIL, NXDOMAIN, REFUSED, NOTAUTH, ...). */
export class DnsRcode extends Data.TaggedError("DnsRcode")<{ readonly server: string; readonly name: string; readonly rcode: string }> {
  get message() { return `DNS query for ${this.name} to ${this.server} answered ${this.rcode}` }
}
export type DnsError = DnsTimeout | DnsFailure | DnsMalformed | DnsRcode

/** Turns an error rcode into a typed `DnsRcode` failure; NOERROR passes. NXDOMAIN fails too unless allowed. */
export const requireNoError = (ans: DnsAnswerSet, name: string, allowNxdomain = false): Effect.Effect<DnsAnswerSet, DnsRcode> =>
  ans.rcode === "NOERROR" || (allowNxdomain && ans.rcode === "NXDOMAIN")
    ? Effect.succeed(ans)
    : Effect.fail(new DnsRcode({ server: fmt(ans.server), name, rcode: ans.rcode }))

export const fmt = (s: ResolverAddress) => (s.host.includes(":") ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`)

const encodeQuery = (q: DnsQuestion, id: number): Buffer =>
  packet.encode({
    type: "query",
    id,
    flags: (q.recursionDesired === false ? 0 : packet.RECURSION_DESIRED) | (q.checkingDisabled ? packet.CHECKING_DISABLED : 0),
    questions: [{ type: q.type as any, name: q.name, class: "IN" }],
    additionals: [{
      type: "OPT",
      name: ".",
      udpPayloadSize: 1232,
      flags: q.dnssec ? packet.DNSSEC_OK : 0
    } as any]
  })

/** A fresh 16-bit transaction id from the CSPRNG. */
export const newQueryId = (): number => randomInt(0, 0x10000)

const normName = (n: string) => {
  const x = n.toLowerCase().replace(/\.$/, "")
  return x === "" ? "." : x
}

/**
 * Decodes one answer to `q`. Fails (DnsMalformed) unless the id matches and the message echoes
 * exactly the question asked; `requireQuestion` false lets later AXFR messages omit it (RFC 5936).
 */
export const decodeAnswer = (buf: Buffer, q: DnsQuestion, id: number, server: ResolverAddress, requireQuestion = true): DnsAnswerSet => {
  let p: packet.Packet
  try {
    p = packet.decode(buf)
  } catch (e) {
    throw new DnsMalformed({ server: fmt(server), name: q.name, reason: String((e as Error).message ?? e) })
  }
  if (p.id !== id) throw new DnsMalformed({ server: fmt(server), name: q.name, reason: "answer id does not match the query" })
  if (p.type !== "response") throw new DnsMalformed({ server: fmt(server), name: q.name, reason: "message is not a response" })
  const qs = p.questions ?? []
  if (requireQuestion || qs.length > 0) {
    const echo = qs[0]
    const same = qs.length === 1 && normName(String(echo.name)) === normName(q.name) &&
      String(echo.type).toUpperCase() === q.type.toUpperCase() && String(echo.class ?? "IN").toUpperCase() === "IN"
    if (!same) throw new DnsMalformed({ server: fmt(server), name: q.name, reason: "answer question does not match the query" })
  }
  const flags = p.flags ?? 0
  return {
    rcode: (p as any).rcode ?? "NOERROR",
    flags: {
      aa: (flags & packet.AUTHORITATIVE_ANSWER) !== 0,
      tc: (flags & packet.TRUNCATED_RESPONSE) !== 0,
      ra: (flags & packet.RECURSION_AVAILABLE) !== 0,
      ad: (flags & packet.AUTHENTIC_DATA) !== 0
    },
    answers: p.answers ?? [],
    authorities: p.authorities ?? [],
    additionals: (p.additionals ?? []).filter((a) => a.type !== "OPT"),
    server
  }
}

const udpExchange = (q: DnsQuestion, server: ResolverAddress, timeoutMs: number) =>
  Effect.suspend(() => {
    let lastMalformed: DnsMalformed | undefined
    return Effect.async<DnsAnswerSet, DnsError>((resume) => {
      const id = newQueryId()
      const socket = dgram.createSocket(net.isIPv6(server.host) ? "udp6" : "udp4")
      let done = false
      const finish = (eff: Effect.Effect<DnsAnswerSet, DnsError>) => {
        if (done) return
        done = true
        try { socket.close() } catch { /* already closed */ }
        resume(eff)
      }
      socket.on("error", (e) => finish(Effect.fail(new DnsFailure({ server: fmt(server), name: q.name, reason: e.message }))))
      socket.on("message", (msg, rinfo) => {
        try {
          if (rinfo.port !== server.port) throw new DnsMalformed({ server: fmt(server), name: q.name, reason: "answer from another port" })
          finish(Effect.succeed(decodeAnswer(msg, q, id, server)))
        } catch (e) {
          // A spoofed or garbled datagram: keep waiting for the real answer until the timeout,
          // but remember the reason in case nothing better arrives.
          if (e instanceof DnsMalformed) lastMalformed = e
        }
      })
      socket.send(encodeQuery(q, id), server.port, server.host, (err) => {
        if (err) finish(Effect.fail(new DnsFailure({ server: fmt(server), name: q.name, reason: err.message })))
      })
      return Effect.sync(() => { done = true; try { socket.close() } catch { /* already closed */ } })
    }).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(timeoutMs),
        onTimeout: () => lastMalformed ?? new DnsTimeout({ server: fmt(server), name: q.name })
      })
    )
  })

/** One length-prefixed exchange over TCP; messages whose id or question do not match are dropped. */
const tcpExchange = (q: DnsQuestion, server: ResolverAddress, timeoutMs: number) =>
  Effect.async<DnsAnswerSet, DnsError>((resume) => {
    const id = newQueryId()
    const socket = net.connect({ host: server.host, port: server.port })
    let done = false
    let buf = Buffer.alloc(0)
    const finish = (eff: Effect.Effect<DnsAnswerSet, DnsError>) => {
      if (done) return
      done = true
      socket.destroy()
      resume(eff)
    }
    socket.on("connect", () => {
      const msg = encodeQuery(q, id)
      const len = Buffer.alloc(2)
      len.writeUInt16BE(msg.length)
      socket.write(Buffer.concat([len, msg]))
    })
    socket.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      if (buf.length > 140_000) {
        return finish(Effect.fail(new DnsMalformed({ server: fmt(server), name: q.name, reason: "oversized TCP message" })))
      }
      while (!done && buf.length >= 2) {
        const n = buf.readUInt16BE(0)
        if (buf.length < 2 + n) return
        const raw = buf.subarray(2, 2 + n)
        buf = buf.subarray(2 + n)
        try {
          return finish(Effect.succeed(decodeAnswer(raw, q, id, server)))
        } catch (e) {
          // Not the answer to this query: drop it and read on.
          if (!(e instanceof DnsMalformed) || !/does not match/.test(e.reason)) return finish(Effect.fail(e as DnsError))
        }
      }
    })
    socket.on("error", (e) => finish(Effect.fail(new DnsFailure({ server: fmt(server), name: q.name, reason: e.message }))))
    socket.on("close", () => finish(Effect.fail(new DnsFailure({ server: fmt(server), name: q.name, reason: "connection closed before an answer" }))))
    return Effect.sync(() => { done = true; socket.destroy() })
  }).pipe(
    Effect.timeoutFail({ duration: Duration.millis(timeoutMs), onTimeout: () => new DnsTimeout({ server: fmt(server), name: q.name }) })
  )

export const exchange = (q: DnsQuestion, server: ResolverAddress, timeoutMs: number): Effect.Effect<DnsAnswerSet, DnsError> =>
  (q.tcp
    ? tcpExchange(q, server, timeoutMs)
    : Effect.flatMap(udpExchange(q, server, timeoutMs), (ans) => (ans.flags.tc ? tcpExchange(q, server, timeoutMs) : Effect.succeed(ans)))
  ).pipe(countOutbound("dns")) // domain_intel_outbound_requests_total

export interface DnsResolverShape {
  /** One question, to `q.server` or to the configured recursive resolvers in turn. */
  readonly query: (q: DnsQuestion) => Effect.Effect<DnsAnswerSet, DnsError>
  /** A and AAAA addresses of a name through the recursive resolvers (CNAMEs followed by them). */
  readonly lookupAddresses: (name: string) => Effect.Effect<ReadonlyArray<string>, DnsError>
}

export const makeResolver = (resolvers: ReadonlyArray<ResolverAddress>, timeoutMs: number): DnsResolverShape => {
  const query = (q: DnsQuestion): Effect.Effect<DnsAnswerSet, DnsError> => {
    const timeout = q.timeoutMs ?? timeoutMs
    if (q.server) return exchange(q, q.server, timeout)
    if (resolvers.length === 0) {
      return Effect.fail(new DnsFailure({ server: "-", name: q.name, reason: "no resolvers configured" }))
    }
    // Retry across resolvers: the first that answers (SERVFAIL counts as not answering).
    const attempt = (i: number): Effect.Effect<DnsAnswerSet, DnsError> =>
      exchange(q, resolvers[i], timeout).pipe(
        Effect.filterOrFail(
          (a) => a.rcode !== "SERVFAIL" && a.rcode !== "REFUSED",
          (a) => new DnsRcode({ server: fmt(resolvers[i]), name: q.name, rcode: a.rcode })
        ),
        Effect.catchAll((e) => (i + 1 < resolvers.length ? attempt(i + 1) : Effect.fail(e)))
      )
    return attempt(0)
  }
  const lookupAddresses = (name: string) =>
    Effect.all([query({ name, type: "A" }), query({ name, type: "AAAA" })], { concurrency: 2 }).pipe(
      Effect.map(([a, aaaa]) =>
        [...a.answers, ...aaaa.answers]
          .filter((r) => r.type === "A" || r.type === "AAAA")
          .map((r) => String((r as any).data))
      )
    )
  return { query, lookupAddresses }
}

export class DnsResolver extends Context.Tag("domain-intel/DnsResolver")<DnsResolver, DnsResolverShape>() {
  static readonly Live = Layer.effect(
    this,
    Effect.map(AppConfig, (c) => makeResolver(c.dnsResolvers, c.dnsTimeoutMs))
  )
}
