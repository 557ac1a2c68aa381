/**
 * dns-packet, the wire codec, with the few parts of it its typings leave out. dns-packet 5.6.1
 * exports at run time its per-type RDATA codecs (`record(type)`), its name codec and, in its
 * own `types` and `classes` modules, the tables between numbers and the names it reads and
 * writes (`UNKNOWN_<n>` for a number it has no name for); @types/dns-packet 5.6.5 declares none
 * of them, nor the `rcode` its decoder sets. They are declared here, once, as dns-packet defines them.
 */
import * as packet from "dns-packet"
import { typeName } from "./rrtypes"

declare module "dns-packet" {
  /** One type's RDATA codec: `encode` writes RDLENGTH then the RDATA, `decode` reads from RDLENGTH. */
  interface RdataCodec {
    readonly encode: (data: unknown) => Buffer
    readonly decode: Decoder<unknown>
  }
  /** The codec of a type name; a type without one gets the codec of raw bytes. */
  export function record(type: string): RdataCodec
  /** A decoder that records how many octets it read in `bytes`. */
  interface Decoder<T> {
    (buf: Buffer, offset?: number): T
    readonly bytes: number
  }
  /** Domain names: labels as UTF-8 joined with `.`, "." for the root; compression followed. */
  export const name: { readonly decode: Decoder<string> }
  /** One question, and one resource record, as `decode` reads them in turn. */
  export const question: { readonly decode: Decoder<unknown> }
  export const answer: { readonly decode: Decoder<unknown> }
  interface DecodedPacket {
    /** The header's response code by name (`NOERROR`, `NXDOMAIN`, ..., `RCODE_<n>`). */
    readonly rcode: string
  }
}

const types = require("dns-packet/types") as { readonly toType: (name: string) => number; readonly toString: (code: number) => string }
const classes = require("dns-packet/classes") as { readonly toClass: (name: string) => number }

/** The type number of a type name as dns-packet writes it; 0 for none. */
export const packetTypeCode = (name: string): number => types.toType(name)

/** The class number of a class name as dns-packet reads it; 0 for none. */
export const packetClassCode = (name: string): number => {
  const unknown = /^UNKNOWN_(\d+)$/.exec(name)
  return unknown ? Number(unknown[1]) : classes.toClass(name)
}

/**
 * The name dns-packet reads and writes for a type number. @types/dns-packet's `RecordType` lists
 * fewer names than dns-packet's encoder accepts (`UNKNOWN_<n>` among them), hence the assertion.
 */
export const packetTypeName = (code: number): packet.RecordType => types.toString(code) as packet.RecordType

/** A name's uncompressed wire form as text, read by dns-packet (throws on a malformed one). */
export const decodeName = (wire: Buffer): string => packet.name.decode(wire)

/** The RDATA (no RDLENGTH) of `data` in dns-packet's shape for `type`, encoded by dns-packet. */
export const encodeRdata = (type: string, data: unknown): Buffer => packet.record(type).encode(data).subarray(2)

/** RDATA bytes decoded by dns-packet's codec for `type` (one dns-packet reads as raw bytes). */
export const decodeRdata = (type: string, rdata: Buffer): unknown => {
  const withLength = Buffer.alloc(rdata.length + 2)
  withLength.writeUInt16BE(rdata.length)
  rdata.copy(withLength, 2)
  return packet.record(type).decode(withLength)
}

/**
 * The record `packet.decode` failed on (`TXT record of x.test`), for the reason of a malformed
 * message: the message read again one question and one record at a time with dns-packet's own
 * decoders, as `packet.decode` reads it. Undefined when the failure is not inside a record.
 */
export const failingRecord = (msg: Buffer): string | undefined => {
  try {
    const [questions, ...sections] = [4, 6, 8, 10].map((o) => msg.readUInt16BE(o))
    let at = 12
    for (let i = 0; i < questions; i++) {
      packet.question.decode(msg, at)
      at += packet.question.decode.bytes
    }
    for (let i = 0; i < sections[0] + sections[1] + sections[2]; i++) {
      const owner = packet.name.decode(msg, at)
      const type = msg.readUInt16BE(at + packet.name.decode.bytes)
      try {
        packet.answer.decode(msg, at)
      } catch {
        return `${typeName(type)} record of ${owner}`
      }
      at += packet.answer.decode.bytes
    }
  } catch {
    // the header, a question or an owner name: no record to name
  }
  return undefined
}
