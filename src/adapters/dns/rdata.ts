/**
 * One resource record's RDATA decoded into its typed variant (./records.ts), pure. Each
 * decoder must consume the RDATA exactly: a field that runs past RDLENGTH, bytes left over, or
 * a value outside its format is MalformedWire. Names inside RDATA may be compressed where
 * RFC 1035 and RFC 3597 §4 allow it, not in RRSIG and NSEC (RFC 4034 §3.1.7, §4.1.1).
 */
import { expandedName, ipv4Text, ipv6Text, MalformedWire, readName } from "./names"
import type { DnsRecord } from "./records"
import { typeName } from "./rrtypes"
import { decodeSvcb } from "./svcb"

/** A cursor over [start, end) of a message that also rebuilds the RDATA with names expanded. */
class Rdata {
  private readonly first: number
  private copied: number
  private readonly parts: Array<Buffer> = []
  constructor(private readonly msg: Buffer, public at: number, private readonly end: number) {
    this.first = at
    this.copied = at
  }
  private need(n: number) {
    if (this.at + n > this.end) throw new MalformedWire("RDATA shorter than its fields")
  }
  u8(): number {
    this.need(1)
    return this.msg[this.at++]
  }
  u16(): number {
    this.need(2)
    this.at += 2
    return this.msg.readUInt16BE(this.at - 2)
  }
  u32(): number {
    this.need(4)
    this.at += 4
    return this.msg.readUInt32BE(this.at - 4)
  }
  bytes(n: number): Buffer {
    this.need(n)
    this.at += n
    return this.msg.subarray(this.at - n, this.at)
  }
  rest(): Buffer {
    return this.bytes(this.end - this.at)
  }
  /** A <character-string> (RFC 1035 §3.3). */
  string(): Buffer {
    return this.bytes(this.u8())
  }
  name(compression = true): string {
    const start = this.at
    const n = readName(this.msg, start, compression)
    if (n.next > this.end) throw new MalformedWire("name runs past RDLENGTH")
    this.at = n.next
    if (n.next - start !== n.length) {
      this.parts.push(this.msg.subarray(this.copied, start), expandedName(this.msg, n))
      this.copied = n.next
    }
    return n.name
  }
  /** RFC 4034 §4.1.2: windows in increasing order, each 1 to 32 octets. */
  typeBitmap(): Array<string> {
    const types: Array<string> = []
    let prev = -1
    while (this.at < this.end) {
      const window = this.u8()
      const len = this.u8()
      if (window <= prev || len < 1 || len > 32) throw new MalformedWire("malformed type bitmap")
      prev = window
      const bits = this.bytes(len)
      for (let i = 0; i < len; i++) {
        for (let j = 0; j < 8; j++) if (bits[i] & (0x80 >> j)) types.push(typeName((window << 8) | (i << 3) | j))
      }
    }
    return types
  }
  /** The whole RDATA, consumed exactly, with compressed names written out. */
  finish(): Buffer {
    if (this.at !== this.end) throw new MalformedWire(`${this.end - this.at} octets left over in RDATA`)
    if (this.parts.length === 0) return this.msg.subarray(this.first, this.end)
    return Buffer.concat([...this.parts, this.msg.subarray(this.copied, this.end)])
  }
}

const utf8 = (b: Buffer) => b.toString("utf8")

export interface RecordHead {
  readonly name: string
  readonly code: number
  readonly class: string
  readonly ttl: number
}

/** Decodes the RDATA at [start, end) of `msg` for a record whose owner, type, class and TTL are `h`. */
export const decodeRecord = (msg: Buffer, start: number, end: number, h: RecordHead): DnsRecord => {
  const r = new Rdata(msg, start, end)
  const base = { name: h.name, ttl: h.ttl, class: h.class }
  switch (h.code) {
    case 1: {
      const data = ipv4Text(r.bytes(4))
      return { ...base, type: "A", data, rdata: r.finish() }
    }
    case 28: {
      const data = ipv6Text(r.bytes(16))
      return { ...base, type: "AAAA", data, rdata: r.finish() }
    }
    case 2: {
      const data = r.name()
      return { ...base, type: "NS", data, rdata: r.finish() }
    }
    case 5: {
      const data = r.name()
      return { ...base, type: "CNAME", data, rdata: r.finish() }
    }
    case 12: {
      const data = r.name()
      return { ...base, type: "PTR", data, rdata: r.finish() }
    }
    case 39: {
      const data = r.name()
      return { ...base, type: "DNAME", data, rdata: r.finish() }
    }
    case 15: {
      const preference = r.u16()
      const data = { preference, exchange: r.name() }
      return { ...base, type: "MX", data, rdata: r.finish() }
    }
    case 16:
    case 99: {
      const data: Array<Buffer> = []
      while (r.at < end) data.push(r.string())
      return h.code === 16 ? { ...base, type: "TXT", data, rdata: r.finish() } : { ...base, type: "SPF", data, rdata: r.finish() }
    }
    case 6: {
      const mname = r.name()
      const rname = r.name()
      const data = { mname, rname, serial: r.u32(), refresh: r.u32(), retry: r.u32(), expire: r.u32(), minimum: r.u32() }
      return { ...base, type: "SOA", data, rdata: r.finish() }
    }
    case 33: {
      const priority = r.u16()
      const weight = r.u16()
      const port = r.u16()
      const data = { priority, weight, port, target: r.name() }
      return { ...base, type: "SRV", data, rdata: r.finish() }
    }
    case 257: {
      const flags = r.u8()
      const tag = r.string()
      if (tag.length === 0) throw new MalformedWire("CAA tag is empty")
      const data = { flags, tag: tag.toString("latin1"), value: utf8(r.rest()), issuerCritical: (flags & 0x80) !== 0 }
      return { ...base, type: "CAA", data, rdata: r.finish() }
    }
    case 43:
    case 59: {
      const data = { keyTag: r.u16(), algorithm: r.u8(), digestType: r.u8(), digest: r.rest() }
      return h.code === 43 ? { ...base, type: "DS", data, rdata: r.finish() } : { ...base, type: "CDS", data, rdata: r.finish() }
    }
    case 48:
    case 60: {
      const flags = r.u16()
      if (r.u8() !== 3) throw new MalformedWire("DNSKEY protocol is not 3")
      const data = { flags, algorithm: r.u8(), key: r.rest() }
      return h.code === 48 ? { ...base, type: "DNSKEY", data, rdata: r.finish() } : { ...base, type: "CDNSKEY", data, rdata: r.finish() }
    }
    case 46: {
      const typeCovered = typeName(r.u16())
      const algorithm = r.u8()
      const labels = r.u8()
      const originalTTL = r.u32()
      const expiration = r.u32()
      const inception = r.u32()
      const keyTag = r.u16()
      const signersName = r.name(false)
      const data = { typeCovered, algorithm, labels, originalTTL, expiration, inception, keyTag, signersName, signature: r.rest() }
      return { ...base, type: "RRSIG", data, rdata: r.finish() }
    }
    case 47: {
      const nextDomain = r.name(false)
      const data = { nextDomain, rrtypes: r.typeBitmap() }
      return { ...base, type: "NSEC", data, rdata: r.finish() }
    }
    case 50: {
      const algorithm = r.u8()
      const flags = r.u8()
      const iterations = r.u16()
      const salt = r.string()
      const nextDomain = r.string()
      if (nextDomain.length === 0) throw new MalformedWire("NSEC3 next hashed owner is empty")
      const data = { algorithm, flags, iterations, salt, nextDomain, rrtypes: r.typeBitmap() }
      return { ...base, type: "NSEC3", data, rdata: r.finish() }
    }
    case 51: {
      const data = { algorithm: r.u8(), flags: r.u8(), iterations: r.u16(), salt: r.string() }
      return { ...base, type: "NSEC3PARAM", data, rdata: r.finish() }
    }
    case 52: {
      const data = { usage: r.u8(), selector: r.u8(), matchingType: r.u8(), certificate: r.rest() }
      return { ...base, type: "TLSA", data, rdata: r.finish() }
    }
    case 64:
    case 65: {
      const data = decodeSvcb(r.rest())
      return h.code === 64 ? { ...base, type: "SVCB", data, rdata: r.finish() } : { ...base, type: "HTTPS", data, rdata: r.finish() }
    }
    case 13: {
      const cpu = utf8(r.string())
      const data = { cpu, os: utf8(r.string()) }
      return { ...base, type: "HINFO", data, rdata: r.finish() }
    }
    case 17: {
      const mbox = r.name()
      const data = { mbox, txt: r.name() }
      return { ...base, type: "RP", data, rdata: r.finish() }
    }
    case 44: {
      const algorithm = r.u8()
      const hash = r.u8()
      const data = { algorithm, hash, fingerprint: r.rest().toString("hex").toUpperCase() }
      return { ...base, type: "SSHFP", data, rdata: r.finish() }
    }
    case 35: {
      const order = r.u16()
      const preference = r.u16()
      const flags = utf8(r.string())
      const services = utf8(r.string())
      const regexp = utf8(r.string())
      const data = { order, preference, flags, services, regexp, replacement: r.name() }
      return { ...base, type: "NAPTR", data, rdata: r.finish() }
    }
    default: {
      const data = r.rest()
      return { ...base, type: "UNKNOWN", code: h.code, data, rdata: r.finish() }
    }
  }
}
