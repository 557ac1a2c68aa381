/**
 * AXFR over TCP (RFC 5936) with the resolver's wire rules: CSPRNG id, the echoed question
 * checked on the first message, one Effect timeout for the whole transfer.
 */
import { Duration, Effect } from "effect"
import * as net from "node:net"
import type { ResolverAddress } from "../../platform/Config"
import { decodeAnswer, DnsFailure, DnsMalformed, DnsRcode, DnsTimeout, fmt, prepareQuery, type DnsAnswerSet, type DnsError, type DnsQuestion } from "./DnsResolver"
import type { DnsRecord } from "./records"

export interface ZoneTransfer {
  /** Every record of the transfer, the opening and the closing SOA included. */
  readonly records: ReadonlyArray<DnsRecord>
  /** How many DNS messages carried the transfer. */
  readonly messages: number
}

/**
 * AXFR over TCP (RFC 5936): one query, then as many length-prefixed messages as the server
 * sends, until the SOA that closes the transfer. A refusal is a `DnsRcode`; a server that stops
 * early, sends garbage or never closes is a `DnsFailure`/`DnsMalformed`/`DnsTimeout`.
 * Bounded: at most `maxRecords` records and `timeoutMs` in all.
 */
export const axfr = (
  zone: string,
  server: ResolverAddress,
  timeoutMs: number,
  maxRecords = 200_000
): Effect.Effect<ZoneTransfer, DnsError> => {
  const q: DnsQuestion = { name: zone, type: "AXFR", recursionDesired: false }
  return Effect.flatMap(prepareQuery(q, server, false), ({ id, msg }) => Effect.async<ZoneTransfer, DnsError>((resume) => {
    const socket = net.connect({ host: server.host, port: server.port })
    const records: Array<DnsRecord> = []
    let messages = 0
    let soaSeen = 0
    let done = false
    let buf = Buffer.alloc(0)
    const srv = fmt(server)
    const finish = (eff: Effect.Effect<ZoneTransfer, DnsError>) => {
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
      while (!done && buf.length >= 2) {
        const n = buf.readUInt16BE(0)
        if (buf.length < 2 + n) return
        const raw = buf.subarray(2, 2 + n)
        buf = buf.subarray(2 + n)
        let ans: DnsAnswerSet
        try {
          ans = decodeAnswer(raw, q, id, server, messages === 0)
        } catch (e) {
          return finish(Effect.fail(e as DnsError))
        }
        messages++
        if (ans.rcode !== "NOERROR") {
          return finish(Effect.fail(new DnsRcode({ server: srv, name: zone, rcode: ans.rcode })))
        }
        for (const r of ans.answers) {
          if (records.length === 0 && r.type !== "SOA") {
            return finish(Effect.fail(new DnsMalformed({ server: srv, name: zone, reason: "transfer does not start with the SOA" })))
          }
          records.push(r)
          if (r.type === "SOA") soaSeen++
          if (soaSeen >= 2) return finish(Effect.succeed({ records, messages }))
          if (records.length > maxRecords) {
            return finish(Effect.fail(new DnsFailure({ server: srv, name: zone, reason: `transfer larger than ${maxRecords} records` })))
          }
        }
        if (ans.answers.length === 0) {
          return finish(Effect.fail(new DnsFailure({ server: srv, name: zone, reason: "empty transfer message" })))
        }
      }
    })
    socket.on("error", (e) => finish(Effect.fail(new DnsFailure({ server: srv, name: zone, reason: e.message }))))
    socket.on("close", () =>
      finish(Effect.fail(new DnsFailure({ server: srv, name: zone, reason: records.length === 0 ? "connection closed before an answer" : "connection closed before the closing SOA" })))
    )
    return Effect.sync(() => { done = true; socket.destroy() })
  }).pipe(
    Effect.timeoutFail({ duration: Duration.millis(timeoutMs), onTimeout: () => new DnsTimeout({ server: fmt(server), name: zone }) })
  ))
}

