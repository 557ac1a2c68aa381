/**
 * DNS on the wire with `dns-packet`: UDP with EDNS0, TCP on truncation (or on request), to the
 * recursive resolvers of `DNS_RESOLVERS` (tried in turn) or to one named server.
 * Malformed or hostile answers are typed errors, never crashes.
 */
import { Context, Data, Effect, Layer } from "effect"
import * as dgram from "node:dgram"
import * as net from "node:net"
import * as packet from "dns-packet"
import { AppConfig, type ResolverAddress } from "../Config"

export interface DnsQuestion {
  readonly name: string
  readonly type: string
  /** Ask this server instead of the configured recursive resolvers. */
  readonly server?: ResolverAddress
  /** RD flag; default true. */
  readonly recursionDesired?: boolean
  /** Set the EDNS0 DO bit (DNSSEC records wanted). */
  readonly dnssec?: boolean
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
export type DnsError = DnsTimeout | DnsFailure | DnsMalformed

const fmt = (s: ResolverAddress) => (s.host.includes(":") ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`)

const encodeQuery = (q: DnsQuestion, id: number): Buffer =>
  packet.encode({
    type: "query",
    id,
    flags: q.recursionDesired === false ? 0 : packet.RECURSION_DESIRED,
    questions: [{ type: q.type as any, name: q.name, class: "IN" }],
    additionals: [{
      type: "OPT",
      name: ".",
      udpPayloadSize: 1232,
      flags: q.dnssec ? packet.DNSSEC_OK : 0
    } as any]
  })

const decodeAnswer = (buf: Buffer, q: DnsQuestion, id: number, server: ResolverAddress): DnsAnswerSet => {
  let p: packet.Packet
  try {
    p = packet.decode(buf)
  } catch (e) {
    throw new DnsMalformed({ server: fmt(server), name: q.name, reason: String((e as Error).message ?? e) })
  }
  if (p.id !== id) throw new DnsMalformed({ server: fmt(server), name: q.name, reason: "answer id does not match the query" })
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
  Effect.async<DnsAnswerSet, DnsError>((resume) => {
    const id = Math.floor(Math.random() * 65535)
    const socket = dgram.createSocket(net.isIPv6(server.host) ? "udp6" : "udp4")
    let done = false
    const finish = (eff: Effect.Effect<DnsAnswerSet, DnsError>) => {
      if (done) return
      done = true
      clearTimeout(timer)
      try { socket.close() } catch { /* already closed */ }
      resume(eff)
    }
    const timer = setTimeout(() => finish(Effect.fail(new DnsTimeout({ server: fmt(server), name: q.name }))), timeoutMs)
    socket.on("error", (e) => finish(Effect.fail(new DnsFailure({ server: fmt(server), name: q.name, reason: e.message }))))
    socket.on("message", (msg) => {
      try {
        const ans = decodeAnswer(msg, q, id, server)
        finish(Effect.succeed(ans))
      } catch (e) {
        // A spoofed or garbled datagram: keep waiting for the real answer until the timeout,
        // but remember the reason in case nothing better arrives.
        if (e instanceof DnsMalformed) lastMalformed = e
      }
    })
    let lastMalformed: DnsMalformed | undefined
    socket.send(encodeQuery(q, id), server.port, server.host)
    return Effect.sync(() => finish(Effect.fail(new DnsTimeout({ server: fmt(server), name: q.name }))))
  })

/** One length-prefixed exchange over TCP; reads exactly one message. */
const tcpExchange = (q: DnsQuestion, server: ResolverAddress, timeoutMs: number) =>
  Effect.async<DnsAnswerSet, DnsError>((resume) => {
    const id = Math.floor(Math.random() * 65535)
    const socket = net.connect({ host: server.host, port: server.port })
    let done = false
    let buf = Buffer.alloc(0)
    const finish = (eff: Effect.Effect<DnsAnswerSet, DnsError>) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resume(eff)
    }
    const timer = setTimeout(() => finish(Effect.fail(new DnsTimeout({ server: fmt(server), name: q.name }))), timeoutMs)
    socket.on("connect", () => {
      const msg = encodeQuery(q, id)
      const len = Buffer.alloc(2)
      len.writeUInt16BE(msg.length)
      socket.write(Buffer.concat([len, msg]))
    })
    socket.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      if (buf.length > 70_000) {
        return finish(Effect.fail(new DnsMalformed({ server: fmt(server), name: q.name, reason: "oversized TCP message" })))
      }
      if (buf.length >= 2) {
        const n = buf.readUInt16BE(0)
        if (buf.length >= 2 + n) {
          try {
            finish(Effect.succeed(decodeAnswer(buf.subarray(2, 2 + n), q, id, server)))
          } catch (e) {
            finish(Effect.fail(e as DnsError))
          }
        }
      }
    })
    socket.on("error", (e) => finish(Effect.fail(new DnsFailure({ server: fmt(server), name: q.name, reason: e.message }))))
    socket.on("close", () => finish(Effect.fail(new DnsFailure({ server: fmt(server), name: q.name, reason: "connection closed before an answer" }))))
    return Effect.sync(() => finish(Effect.fail(new DnsTimeout({ server: fmt(server), name: q.name }))))
  })

export const exchange = (q: DnsQuestion, server: ResolverAddress, timeoutMs: number): Effect.Effect<DnsAnswerSet, DnsError> =>
  q.tcp
    ? tcpExchange(q, server, timeoutMs)
    : Effect.flatMap(udpExchange(q, server, timeoutMs), (ans) => (ans.flags.tc ? tcpExchange(q, server, timeoutMs) : Effect.succeed(ans)))

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
          (a) => new DnsFailure({ server: fmt(resolvers[i]), name: q.name, reason: a.rcode })
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
