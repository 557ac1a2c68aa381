/**
 * SVCB and HTTPS RDATA (RFC 9460 §2.2), pure: SvcPriority, an uncompressed TargetName, then
 * SvcParams as key, length, value. dns-packet 5.6.1 hands these types over as raw bytes; this is
 * their decoder. A record is malformed (RFC 9460 §2.2) when the RDATA ends inside a SvcParam,
 * the keys are not in strictly increasing order, or a value does not have its key's format;
 * `decodeSvcb` throws MalformedRdata then.
 */
import { ipv4FromBytes, ipv6FromBytes } from "./ipText"
import { decodeName } from "./packetCodec"
import { MalformedRdata, type SvcbData, type SvcParams } from "./records"

const KEY_NAMES: Record<number, string> = {
  0: "mandatory", 1: "alpn", 2: "no-default-alpn", 3: "port", 4: "ipv4hint", 5: "ech", 6: "ipv6hint", 7: "dohpath", 8: "ohttp"
}
export const svcKeyName = (key: number): string => KEY_NAMES[key] ?? `key${key}`

const bad = (why: string): never => {
  throw new MalformedRdata(`SVCB/HTTPS: ${why}`)
}

/** RFC 9460 §7.1.1: a non-empty list of non-empty length-prefixed ids. */
const alpnIds = (v: Buffer): Array<string> => {
  const ids: Array<string> = []
  for (let j = 0; j < v.length;) {
    const l = v[j]
    if (l === 0 || j + 1 + l > v.length) bad("malformed alpn value")
    ids.push(v.subarray(j + 1, j + 1 + l).toString("latin1"))
    j += 1 + l
  }
  if (ids.length === 0) bad("empty alpn value")
  return ids
}

const addresses = (v: Buffer, size: 4 | 16, key: string): Array<string> => {
  if (v.length === 0 || v.length % size !== 0) bad(`${key} length ${v.length} is not a non-zero multiple of ${size}`)
  const out: Array<string> = []
  for (let j = 0; j < v.length; j += size) {
    const b = v.subarray(j, j + size)
    out.push(size === 4 ? ipv4FromBytes(b) : ipv6FromBytes(b))
  }
  return out
}

/**
 * The end of the TargetName at offset 2, which is never compressed (RFC 9460 §2.2): the labels
 * are walked only to find that end and refuse a pointer; dns-packet reads the name.
 */
const targetEnd = (rdata: Buffer): number => {
  let at = 2
  while (at < rdata.length && rdata[at] !== 0) {
    if ((rdata[at] & 0xc0) !== 0) bad("TargetName is compressed or has an unknown label type")
    at += 1 + rdata[at]
  }
  if (at >= rdata.length) bad("TargetName runs past the RDATA")
  return at + 1
}

/** RFC 9460 §8: a non-empty, strictly increasing list of keys, never `mandatory` itself. */
const mandatoryKeys = (v: Buffer): Array<string> => {
  if (v.length === 0 || v.length % 2 !== 0) bad("malformed mandatory value")
  const keys: Array<string> = []
  let prev = -1
  for (let j = 0; j < v.length; j += 2) {
    const k = v.readUInt16BE(j)
    if (k === 0 || k <= prev) bad("mandatory keys must be increasing and must not list mandatory")
    prev = k
    keys.push(svcKeyName(k))
  }
  return keys
}

/** Decodes one SVCB/HTTPS RDATA. */
export const decodeSvcb = (rdata: Buffer): SvcbData => {
  if (rdata.length < 3) bad("RDATA too short")
  const priority = rdata.readUInt16BE(0)
  const next = targetEnd(rdata)
  const target = decodeName(rdata.subarray(2, next))
  const params: { -readonly [K in keyof SvcParams]: SvcParams[K] } = {}
  let prev = -1
  for (let i = next; i < rdata.length;) {
    if (i + 4 > rdata.length) bad("truncated SvcParam")
    const key = rdata.readUInt16BE(i)
    const len = rdata.readUInt16BE(i + 2)
    if (i + 4 + len > rdata.length) bad("truncated SvcParam value")
    if (key <= prev) bad("SvcParam keys not in strictly increasing order")
    prev = key
    const v = rdata.subarray(i + 4, i + 4 + len)
    i += 4 + len
    switch (key) {
      case 0:
        params.mandatory = mandatoryKeys(v)
        break
      case 1:
        params.alpn = alpnIds(v)
        break
      case 2:
        if (len !== 0) bad("no-default-alpn takes no value")
        params["no-default-alpn"] = true
        break
      case 8:
        if (len !== 0) bad("ohttp takes no value")
        params.ohttp = true
        break
      case 3:
        if (len !== 2) bad("port value is not 2 octets")
        params.port = v.readUInt16BE(0)
        break
      case 4:
        params.ipv4hint = addresses(v, 4, "ipv4hint")
        break
      case 6:
        params.ipv6hint = addresses(v, 16, "ipv6hint")
        break
      case 5:
        params.ech = v.toString("base64")
        break
      case 7:
        params.dohpath = v.toString("utf8")
        break
      default:
        params[`key${key}`] = v.toString("hex")
    }
  }
  return { priority, target, params }
}
