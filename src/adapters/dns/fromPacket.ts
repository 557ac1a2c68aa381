/**
 * The one typed boundary of DNS answers: a record as dns-packet decoded it becomes a variant of
 * DnsRecord (./records.ts), every field checked for its shape (numbers in their range, strings,
 * Buffers, lists of the right elements), since dns-packet's objects are untyped at run time and
 * its typings do not match them (`UNKNOWN_<n>` types, raw bytes for types it has no codec for).
 * Types dns-packet hands over as raw bytes are decoded here: SVCB and HTTPS (./svcb.ts), CDS,
 * CDNSKEY and SPF through dns-packet's DS, DNSKEY and TXT codecs, NSEC3PARAM (RFC 5155 §4.2).
 * Anything that does not fit throws MalformedRdata naming the record.
 */
import { isIPv4, isIPv6 } from "node:net"
import { ipv6Text } from "./ipText"
import { decodeRdata, packetClassCode, packetTypeCode } from "./packetCodec"
import { type DnsRecord, type DnskeyData, type DsData, MalformedRdata } from "./records"
import { typeName } from "./rrtypes"
import { decodeSvcb } from "./svcb"

type Fields = { readonly [key: string]: unknown }

const bad = (why: string): never => {
  throw new MalformedRdata(why)
}

const isFields = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v)
const fields = (v: unknown, what = "RDATA"): Fields => (isFields(v) ? v : bad(`${what} is not a set of fields`))

const uint = (max: number, bits: number) => (v: unknown, field: string): number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= max ? v : bad(`${field} is not a ${bits}-bit number`)
const u8 = uint(0xff, 8)
const u16 = uint(0xffff, 16)
const u32 = uint(0xffffffff, 32)

const text = (v: unknown, field: string): string => (typeof v === "string" ? v : bad(`${field} is not text`))
/** dns-packet reads the root as "." and every other name without the final dot, never "". */
const domain = (v: unknown, field: string): string => (typeof v === "string" && v !== "" ? v : bad(`${field} is not a name`))
const bytes = (v: unknown, field: string): Buffer => (Buffer.isBuffer(v) ? v : bad(`${field} is not bytes`))
const list = <T>(v: unknown, field: string, each: (x: unknown, field: string) => T): Array<T> =>
  Array.isArray(v) ? v.map((x) => each(x, field)) : bad(`${field} is not a list`)

/** A type as dns-packet names it (a mnemonic or `UNKNOWN_<n>`), by this module's mnemonic. */
const typeField = (v: unknown, field: string): string => {
  const code = packetTypeCode(text(v, field))
  return code > 0 && code <= 0xffff ? typeName(code) : bad(`${field} is not a record type`)
}

const ds = (v: unknown): DsData => {
  const d = fields(v)
  return { keyTag: u16(d.keyTag, "key tag"), algorithm: u8(d.algorithm, "algorithm"), digestType: u8(d.digestType, "digest type"), digest: bytes(d.digest, "digest") }
}
const dnskey = (v: unknown): DnskeyData => {
  const d = fields(v)
  return { flags: u16(d.flags, "flags"), algorithm: u8(d.algorithm, "algorithm"), key: bytes(d.key, "key") }
}
const txt = (v: unknown): Array<Buffer> => list(v, "character-string", bytes)
const typeList = (v: unknown): Array<string> => list(v, "type bitmap entry", typeField)

/** NSEC3PARAM RDATA (RFC 5155 §4.2): algorithm, flags, iterations, salt length, salt. */
const nsec3Param = (raw: Buffer) => {
  if (raw.length < 5 || raw.length !== 5 + raw[4]) bad("NSEC3PARAM RDATA does not hold its salt exactly")
  return { algorithm: raw[0], flags: raw[1], iterations: raw.readUInt16BE(2), salt: raw.subarray(5) }
}

/** One record's variant from dns-packet's `type` and `data`. */
const variant = (type: string, code: number, data: unknown, base: { readonly name: string; readonly ttl: number; readonly class: string }): DnsRecord => {
  switch (type) {
    case "A": {
      const a = text(data, "address")
      return isIPv4(a) ? { ...base, type, data: a } : bad("address is not IPv4")
    }
    case "AAAA": {
      const a = text(data, "address")
      return isIPv6(a) ? { ...base, type, data: ipv6Text(a) } : bad("address is not IPv6")
    }
    case "CNAME":
    case "DNAME":
    case "NS":
    case "PTR":
      return { ...base, type, data: domain(data, "target") }
    case "MX": {
      const d = fields(data)
      return { ...base, type, data: { preference: u16(d.preference, "preference"), exchange: domain(d.exchange, "exchange") } }
    }
    case "TXT":
      return { ...base, type, data: txt(data) }
    case "SOA": {
      const d = fields(data)
      return {
        ...base,
        type,
        data: {
          mname: domain(d.mname, "mname"), rname: domain(d.rname, "rname"), serial: u32(d.serial, "serial"), refresh: u32(d.refresh, "refresh"),
          retry: u32(d.retry, "retry"), expire: u32(d.expire, "expire"), minimum: u32(d.minimum, "minimum")
        }
      }
    }
    case "SRV": {
      const d = fields(data)
      return { ...base, type, data: { priority: u16(d.priority, "priority"), weight: u16(d.weight, "weight"), port: u16(d.port, "port"), target: domain(d.target, "target") } }
    }
    case "CAA": {
      const d = fields(data)
      const flags = u8(d.flags, "flags")
      // RFC 8659 §4.1: a tag is at least one character.
      const tag = text(d.tag, "tag") || bad("tag is empty")
      return { ...base, type, data: { flags, tag, value: text(d.value, "value"), issuerCritical: (flags & 0x80) !== 0 } }
    }
    case "DS":
      return { ...base, type, data: ds(data) }
    case "DNSKEY":
      return { ...base, type, data: dnskey(data) }
    case "RRSIG": {
      const d = fields(data)
      return {
        ...base,
        type,
        data: {
          typeCovered: typeField(d.typeCovered, "type covered"), algorithm: u8(d.algorithm, "algorithm"), labels: u8(d.labels, "labels"),
          originalTTL: u32(d.originalTTL, "original TTL"), expiration: u32(d.expiration, "expiration"), inception: u32(d.inception, "inception"),
          keyTag: u16(d.keyTag, "key tag"), signersName: domain(d.signersName, "signer's name"), signature: bytes(d.signature, "signature")
        }
      }
    }
    case "NSEC": {
      const d = fields(data)
      return { ...base, type, data: { nextDomain: domain(d.nextDomain, "next domain"), rrtypes: typeList(d.rrtypes) } }
    }
    case "NSEC3": {
      const d = fields(data)
      // RFC 5155 §3.2: the next hashed owner name is at least one octet.
      const nextDomain = bytes(d.nextDomain, "next hashed owner")
      if (nextDomain.length === 0) bad("next hashed owner is empty")
      return {
        ...base,
        type,
        data: { algorithm: u8(d.algorithm, "algorithm"), flags: u8(d.flags, "flags"), iterations: u16(d.iterations, "iterations"), salt: bytes(d.salt, "salt"), nextDomain, rrtypes: typeList(d.rrtypes) }
      }
    }
    case "TLSA": {
      const d = fields(data)
      return {
        ...base,
        type,
        data: { usage: u8(d.usage, "usage"), selector: u8(d.selector, "selector"), matchingType: u8(d.matchingType, "matching type"), certificate: bytes(d.certificate, "certificate") }
      }
    }
    case "HINFO": {
      const d = fields(data)
      return { ...base, type, data: { cpu: text(d.cpu, "cpu"), os: text(d.os, "os") } }
    }
    case "RP": {
      const d = fields(data)
      return { ...base, type, data: { mbox: domain(d.mbox, "mbox"), txt: domain(d.txt, "txt") } }
    }
    case "SSHFP": {
      const d = fields(data)
      // dns-packet reads the fingerprint by the length of hash types 1 and 2 only.
      const fingerprint = text(d.fingerprint, "fingerprint")
      if (!/^(?:[0-9A-F]{2})+$/.test(fingerprint)) bad(`no fingerprint of hash type ${String(d.hash)}`)
      return { ...base, type, data: { algorithm: u8(d.algorithm, "algorithm"), hash: u8(d.hash, "hash"), fingerprint } }
    }
    case "NAPTR": {
      const d = fields(data)
      return {
        ...base,
        type,
        data: {
          order: u16(d.order, "order"), preference: u16(d.preference, "preference"), flags: text(d.flags, "flags"), services: text(d.services, "services"),
          regexp: text(d.regexp, "regexp"), replacement: domain(d.replacement, "replacement")
        }
      }
    }
  }
  // Every other type arrives as its raw RDATA.
  const rdata = bytes(data, "RDATA")
  switch (code) {
    case 64:
      return { ...base, type: "SVCB", data: decodeSvcb(rdata), rdata }
    case 65:
      return { ...base, type: "HTTPS", data: decodeSvcb(rdata), rdata }
    case 59:
      return { ...base, type: "CDS", data: ds(decodeRdata("DS", rdata)), rdata }
    case 60:
      return { ...base, type: "CDNSKEY", data: dnskey(decodeRdata("DNSKEY", rdata)), rdata }
    case 99:
      return { ...base, type: "SPF", data: txt(decodeRdata("TXT", rdata)), rdata }
    case 51:
      return { ...base, type: "NSEC3PARAM", data: nsec3Param(rdata), rdata }
    default:
      return { ...base, type: "UNKNOWN", code, data: rdata }
  }
}

/** RFC 3597 §5 spelling for a class dns-packet has no name for, or whose top bit it took as mDNS's flush bit. */
const className = (name: string, flush: unknown): string => {
  const code = packetClassCode(name) | (flush === true ? 0x8000 : 0)
  return code === 0 || /^UNKNOWN_/.test(name) || flush === true ? `CLASS${code}` : name
}

/**
 * A record of a section of `packet.decode`'s result, typed; undefined for OPT (RFC 6891), which
 * is no record. Throws MalformedRdata naming the record.
 */
export const recordFromPacket = (answer: unknown): DnsRecord | undefined => {
  const a = fields(answer, "record")
  const name = domain(a.name, "owner")
  const type = text(a.type, "type")
  if (type === "OPT") return undefined
  const code = packetTypeCode(type)
  try {
    if (code <= 0 || code > 0xffff) bad("unknown type")
    return variant(type, code, a.data, { name, ttl: u32(a.ttl, "TTL"), class: className(text(a.class, "class"), a.flush) })
  } catch (e) {
    // dns-packet's codecs (and svcb.ts's name reading through them) throw plain errors too.
    throw new MalformedRdata(`${typeName(code)} record of ${name}: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/** A section of `packet.decode`'s result, typed, without OPT. */
export const recordsFromPacket = (section: ReadonlyArray<unknown> | undefined): Array<DnsRecord> => {
  const out: Array<DnsRecord> = []
  for (const a of section ?? []) {
    const r = recordFromPacket(a)
    if (r) out.push(r)
  }
  return out
}
