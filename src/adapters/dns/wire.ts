/**
 * DNS messages on the wire (RFC 1035 §4), pure: the query the resolver sends, and the decoding
 * of an answer into its header and typed records (./rdata.ts). Anything that does not parse
 * exactly (a count the sections do not hold, RDATA past its RDLENGTH or not filling it) is
 * MalformedWire; octets after the last counted record are ignored. OPT pseudo-records (RFC 6891) are left out of the sections.
 */
import { MalformedWire, nameWire, readName } from "./names"
import { decodeRecord } from "./rdata"
import type { DnsRecord } from "./records"
import { className, rcodeName, typeName } from "./rrtypes"

export const FLAGS = {
  QR: 0x8000,
  AA: 0x0400,
  TC: 0x0200,
  RD: 0x0100,
  RA: 0x0080,
  AD: 0x0020,
  CD: 0x0010
} as const

/** The DO bit in the OPT record's TTL field (RFC 3225). */
const DNSSEC_OK = 0x8000

export interface QueryWire {
  readonly id: number
  readonly name: string
  readonly code: number
  readonly recursionDesired: boolean
  readonly checkingDisabled: boolean
  /** Add an OPT record (EDNS0, 1232-octet payload) with the DO bit as given; none when undefined. */
  readonly dnssecOk?: boolean
}

/** The query message. Throws when the name has no wire form (an empty or over-long label). */
export const encodeQuery = (q: QueryWire): Buffer => {
  const head = Buffer.alloc(12)
  head.writeUInt16BE(q.id, 0)
  head.writeUInt16BE((q.recursionDesired ? FLAGS.RD : 0) | (q.checkingDisabled ? FLAGS.CD : 0), 2)
  head.writeUInt16BE(1, 4)
  head.writeUInt16BE(q.dnssecOk === undefined ? 0 : 1, 10)
  const question = Buffer.alloc(4)
  question.writeUInt16BE(q.code, 0)
  question.writeUInt16BE(1, 2) // IN
  const parts = [head, nameWire(q.name), question]
  if (q.dnssecOk !== undefined) {
    // root owner, type OPT, payload size in the class, extended rcode/version/DO in the TTL, no options
    const opt = Buffer.alloc(11)
    opt.writeUInt16BE(41, 1)
    opt.writeUInt16BE(1232, 3)
    opt.writeUInt16BE(q.dnssecOk ? DNSSEC_OK : 0, 7)
    parts.push(opt)
  }
  return Buffer.concat(parts)
}

export interface QuestionWire {
  readonly name: string
  readonly code: number
  readonly type: string
  readonly classCode: number
}

export interface Message {
  readonly id: number
  readonly response: boolean
  /** The header's flag bits (QR, AA, TC, RD, RA, AD, CD), see FLAGS. */
  readonly flags: number
  readonly rcode: string
  readonly questions: ReadonlyArray<QuestionWire>
  readonly answers: ReadonlyArray<DnsRecord>
  readonly authorities: ReadonlyArray<DnsRecord>
  readonly additionals: ReadonlyArray<DnsRecord>
}

/** Decodes a whole message; throws MalformedWire on anything that does not parse exactly. */
export const decodeMessage = (msg: Buffer): Message => {
  if (msg.length < 12) throw new MalformedWire("message shorter than its header")
  const flags = msg.readUInt16BE(2)
  const counts = [msg.readUInt16BE(4), msg.readUInt16BE(6), msg.readUInt16BE(8), msg.readUInt16BE(10)]
  let at = 12
  const questions: Array<QuestionWire> = []
  for (let i = 0; i < counts[0]; i++) {
    const n = readName(msg, at)
    if (n.next + 4 > msg.length) throw new MalformedWire("question runs past the end of the message")
    const code = msg.readUInt16BE(n.next)
    questions.push({ name: n.name, code, type: typeName(code), classCode: msg.readUInt16BE(n.next + 2) })
    at = n.next + 4
  }
  const section = (count: number): Array<DnsRecord> => {
    const out: Array<DnsRecord> = []
    for (let i = 0; i < count; i++) {
      const n = readName(msg, at)
      if (n.next + 10 > msg.length) throw new MalformedWire("record runs past the end of the message")
      const code = msg.readUInt16BE(n.next)
      const klass = msg.readUInt16BE(n.next + 2)
      const ttl = msg.readUInt32BE(n.next + 4)
      const start = n.next + 10
      const end = start + msg.readUInt16BE(n.next + 8)
      if (end > msg.length) throw new MalformedWire("RDATA runs past the end of the message")
      at = end
      if (code === 41) continue
      try {
        out.push(decodeRecord(msg, start, end, { name: n.name, code, class: className(klass), ttl }))
      } catch (e) {
        if (e instanceof MalformedWire) throw new MalformedWire(`${typeName(code)} record of ${n.name}: ${e.message}`)
        throw e
      }
    }
    return out
  }
  const answers = section(counts[1])
  const authorities = section(counts[2])
  const additionals = section(counts[3])
  return {
    id: msg.readUInt16BE(0),
    response: (flags & FLAGS.QR) !== 0,
    flags: flags & 0x7fff,
    rcode: rcodeName(flags & 0x0f),
    questions,
    answers,
    authorities,
    additionals
  }
}
