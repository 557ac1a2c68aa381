/**
 * DNS on the wire with dns-packet: UDP with EDNS0, TCP on truncation (or on request), to the
 * recursive resolvers of `DNS_RESOLVERS` (tried in turn) or to one named server.
 * Answers decoded by dns-packet are typed here, once (./fromPacket.ts, ./records.ts); malformed
 * or hostile answers are typed errors, never crashes. Transaction ids come from the
 * CSPRNG; an answer counts only when its id and its echoed question (name, type, class) match
 * the query, anything else is dropped as spoofed. Every wait is an Effect timeout, so TestClock
 * drives it.
 */
import { Context, Data, Duration, Effect, Layer } from "effect"
import * as packet from "dns-packet"
import { randomInt } from "node:crypto"
import * as dgram from "node:dgram"
import * as net from "node:net"
import { AppConfig, type ResolverAddress } from "../../platform/Config"
import { countOutbound } from "../../platform/observability/metrics"
import { recordsFromPacket } from "./fromPacket"
import { failingRecord, packetClassCode, packetTypeCode, packetTypeName } from "./packetCodec"
import { dataOf, type DnsRecord, MalformedRdata } from "./records"
import { typeCode } from "./rrtypes"

export * from "./records"

export interface DnsQuestion {
  readonly name: string
  /** A type mnemonic ("A", "HTTPS", ...) or `TYPE<n>` (RFC 3597). */
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
  readonly answers: ReadonlyArray<DnsRecord>
  readonly authorities: ReadonlyArray<DnsRecord>
  /** Without the OPT pseudo-record. */
  readonly additionals: ReadonlyArray<DnsRecord>
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

/** The query's wire form; a type or name that has none is a DnsFailure before anything is sent. */
export const encodeQuery = (q: DnsQuestion, id: number, server: ResolverAddress, edns = true): Effect.Effect<Buffer, DnsFailure> =>
  Effect.suspend(() => {
    const code = typeCode(q.type)
    if (code === undefined) return Effect.fail(new DnsFailure({ server: fmt(server), name: q.name, reason: `unknown record type ${q.type}` }))
    return Effect.try({
      try: () =>
        packet.encode({
          type: "query",
          id,
          flags: (q.recursionDesired === false ? 0 : packet.RECURSION_DESIRED) | (q.checkingDisabled ? packet.CHECKING_DISABLED : 0),
          questions: [{ type: packetTypeName(code), name: q.name, class: "IN" }],
          additionals: edns
            ? [{ type: "OPT", name: ".", udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: q.dnssec ? packet.DNSSEC_OK : 0, flag_do: q.dnssec === true, options: [] }]
            : []
        }),
      catch: (e) => new DnsFailure({ server: fmt(server), name: q.name, reason: `cannot encode the query: ${e instanceof Error ? e.message : String(e)}` })
    })
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
  const malformed = (reason: string) => new DnsMalformed({ server: fmt(server), name: q.name, reason })
  if (buf.length >= 2 && buf.readUInt16BE(0) !== id) throw malformed("answer id does not match the query")
  let p: packet.DecodedPacket
  try {
    p = packet.decode(buf)
  } catch (e) {
    const record = failingRecord(buf)
    throw malformed(`${record === undefined ? "" : `${record}: `}${e instanceof Error ? e.message : String(e)}`)
  }
  const read = packet.decode.bytes
  if (p.type !== "response") throw malformed("message is not a response")
  const qs = p.questions ?? []
  if (requireQuestion || qs.length > 0) {
    const echo = qs[0]
    const same = qs.length === 1 && normName(String(echo.name)) === normName(q.name) &&
      packetTypeCode(String(echo.type)) === typeCode(q.type) && packetClassCode(String(echo.class)) === 1
    if (!same) throw malformed("answer question does not match the query")
  }
  const flags = p.flags ?? 0
  let sections: readonly [Array<DnsRecord>, Array<DnsRecord>, Array<DnsRecord>]
  try {
    sections = [recordsFromPacket(p.answers), recordsFromPacket(p.authorities), recordsFromPacket(p.additionals)]
  } catch (e) {
    if (e instanceof MalformedRdata) throw malformed(e.message)
    throw e
  }
  // dns-packet reads a field cut off by the end of the message as far as the message goes.
  if (!(read <= buf.length)) throw malformed("records run past the end of the message")
  return {
    rcode: p.rcode,
    flags: {
      aa: (flags & packet.AUTHORITATIVE_ANSWER) !== 0,
      tc: (flags & packet.TRUNCATED_RESPONSE) !== 0,
      ra: (flags & packet.RECURSION_AVAILABLE) !== 0,
      ad: (flags & packet.AUTHENTIC_DATA) !== 0
    },
    answers: sections[0],
    authorities: sections[1],
    additionals: sections[2],
    server
  }
}

/** A fresh id and the query's bytes for it; `edns` false leaves the OPT record out (AXFR). */
export const prepareQuery = (q: DnsQuestion, server: ResolverAddress, edns = true) =>
  Effect.suspend(() => {
    const id = newQueryId()
    return Effect.map(encodeQuery(q, id, server, edns), (msg) => ({ id, msg }))
  })

const udpExchange = (q: DnsQuestion, server: ResolverAddress, timeoutMs: number) =>
  Effect.flatMap(prepareQuery(q, server), ({ id, msg: query }) => {
    let lastMalformed: DnsMalformed | undefined
    return Effect.async<DnsAnswerSet, DnsError>((resume) => {
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
      socket.send(query, server.port, server.host, (err) => {
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
  Effect.flatMap(prepareQuery(q, server), ({ id, msg }) => Effect.async<DnsAnswerSet, DnsError>((resume) => {
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
  ))

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
      Effect.map(([a, aaaa]) => [...dataOf(a.answers, "A"), ...dataOf(aaaa.answers, "AAAA")])
    )
  return { query, lookupAddresses }
}

export class DnsResolver extends Context.Tag("domain-intel/DnsResolver")<DnsResolver, DnsResolverShape>() {
  static readonly Live = Layer.effect(
    this,
    Effect.map(AppConfig, (c) => makeResolver(c.dnsResolvers, c.dnsTimeoutMs))
  )
}
