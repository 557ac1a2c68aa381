/**
 * DNS record types the dns_lookup tool accepts and the rendering of decoded answers (pure).
 * dns-packet 5.6 knows most types by name; SVCB, HTTPS and a few newer ones it does not, so they
 * are queried by number (`UNKNOWN_<n>`) and their RDATA is decoded here (SVCB/HTTPS, RFC 9460)
 * or shown as hex.
 */
import type * as packet from "dns-packet"
import { isIP } from "node:net"
import { classifyAddress } from "../../adapters/probe/guard"

/** Types dns-packet encodes and decodes by name (meta types OPT, AXFR, IXFR, TKEY, TSIG left out). */
const packetTypes = [
  "A", "AAAA", "AFSDB", "APL", "CAA", "CDNSKEY", "CDS", "CERT", "CNAME", "DHCID", "DLV", "DNAME", "DNSKEY",
  "DS", "HINFO", "HIP", "IPSECKEY", "KEY", "KX", "LOC", "MX", "NAPTR", "NS", "NSEC", "NSEC3", "NSEC3PARAM",
  "NULL", "PTR", "RP", "RRSIG", "SIG", "SOA", "SPF", "SRV", "SSHFP", "TA", "TLSA", "TXT", "ANY"
] as const

/** Types queried by number because dns-packet has no name for them. */
export const numberedTypes = {
  SMIMEA: 53,
  OPENPGPKEY: 61,
  CSYNC: 62,
  ZONEMD: 63,
  SVCB: 64,
  HTTPS: 65,
  URI: 256
} as const

export const recordTypes = [...packetTypes, ...(Object.keys(numberedTypes) as Array<keyof typeof numberedTypes>)].sort()
export type RecordTypeName = (typeof packetTypes)[number] | keyof typeof numberedTypes

/** The type name to hand to dns-packet. */
export const wireTypeName = (t: RecordTypeName): string =>
  t in numberedTypes ? `UNKNOWN_${numberedTypes[t as keyof typeof numberedTypes]}` : t

const byNumber = new Map<number, string>(Object.entries(numberedTypes).map(([k, v]) => [v, k]))

/** The display name of a decoded answer's type (`UNKNOWN_65` → `HTTPS`). */
export const displayTypeName = (t: string): string => {
  const m = /^UNKNOWN_(\d+)$/.exec(t)
  if (!m) return t
  return byNumber.get(Number(m[1])) ?? `TYPE${m[1]}`
}

/** Wire-format domain name, uncompressed (RFC 9460 forbids compression in SVCB targets). */
const readName = (buf: Buffer, offset: number): { name: string; next: number } => {
  const labels: Array<string> = []
  let i = offset
  for (;;) {
    if (i >= buf.length) throw new Error("name runs past the RDATA")
    const len = buf[i]
    if (len === 0) return { name: labels.length === 0 ? "." : labels.join("."), next: i + 1 }
    if (len > 63) throw new Error("compressed or invalid label in SVCB target")
    labels.push(buf.subarray(i + 1, i + 1 + len).toString("latin1"))
    i += 1 + len
  }
}

const svcParamNames: Record<number, string> = {
  0: "mandatory", 1: "alpn", 2: "no-default-alpn", 3: "port", 4: "ipv4hint", 5: "ech", 6: "ipv6hint", 7: "dohpath", 8: "ohttp"
}

export interface SvcbRecord {
  readonly priority: number
  readonly target: string
  readonly params: Readonly<Record<string, string | number | boolean | ReadonlyArray<string>>>
}

const ipv6 = (b: Buffer): string => {
  const parts: Array<string> = []
  for (let i = 0; i < 16; i += 2) parts.push(b.readUInt16BE(i).toString(16))
  return parts.join(":").replace(/(^|:)0(:0)+(:|$)/, "::").replace(/:{3,}/, "::")
}

/** Decodes SVCB/HTTPS RDATA (RFC 9460 §2.2). */
export const decodeSvcb = (rdata: Buffer): SvcbRecord => {
  if (rdata.length < 3) throw new Error("SVCB RDATA too short")
  const priority = rdata.readUInt16BE(0)
  const { name: target, next } = readName(rdata, 2)
  const params: Record<string, string | number | boolean | ReadonlyArray<string>> = {}
  let i = next
  while (i < rdata.length) {
    if (i + 4 > rdata.length) throw new Error("truncated SvcParam")
    const key = rdata.readUInt16BE(i)
    const len = rdata.readUInt16BE(i + 2)
    const v = rdata.subarray(i + 4, i + 4 + len)
    if (v.length !== len) throw new Error("truncated SvcParam value")
    i += 4 + len
    const name = svcParamNames[key] ?? `key${key}`
    switch (key) {
      case 0: {
        const keys: Array<string> = []
        for (let j = 0; j + 1 < v.length; j += 2) keys.push(svcParamNames[v.readUInt16BE(j)] ?? `key${v.readUInt16BE(j)}`)
        params[name] = keys
        break
      }
      case 1: {
        const ids: Array<string> = []
        let j = 0
        while (j < v.length) {
          const l = v[j]
          ids.push(v.subarray(j + 1, j + 1 + l).toString("latin1"))
          j += 1 + l
        }
        params[name] = ids
        break
      }
      case 2:
        params[name] = true
        break
      case 3:
        params[name] = len === 2 ? v.readUInt16BE(0) : v.toString("hex")
        break
      case 4: {
        const addrs: Array<string> = []
        for (let j = 0; j + 3 < v.length; j += 4) addrs.push(`${v[j]}.${v[j + 1]}.${v[j + 2]}.${v[j + 3]}`)
        params[name] = addrs
        break
      }
      case 6: {
        const addrs: Array<string> = []
        for (let j = 0; j + 15 < v.length; j += 16) addrs.push(ipv6(v.subarray(j, j + 16)))
        params[name] = addrs
        break
      }
      case 5:
      case 8:
        params[name] = v.toString("base64")
        break
      case 7:
        params[name] = v.toString("utf8")
        break
      default:
        params[name] = v.toString("hex")
    }
  }
  return { priority, target, params }
}

const base64Fields = new Set(["key", "signature", "certificate", "publicKey"])

/** JSON-safe copy of decoded RDATA: Buffers become hex (keys and signatures base64). */
const jsonSafe = (v: unknown, field?: string): unknown => {
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) {
    const b = Buffer.from(v as Uint8Array)
    return field !== undefined && base64Fields.has(field) ? b.toString("base64") : b.toString("hex")
  }
  if (Array.isArray(v)) return v.map((x) => jsonSafe(x, field))
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) out[k] = jsonSafe(x, k)
    return out
  }
  return v
}

export interface RenderedRecord {
  readonly name: string
  readonly type: string
  readonly ttl: number
  readonly class: string
  /** Presentation format, as in a zone file. */
  readonly value: string
  /** Structured RDATA. */
  readonly data: unknown
}

const presentSvcb = (r: SvcbRecord): string =>
  [
    String(r.priority),
    r.target,
    ...Object.entries(r.params).map(([k, v]) => (v === true ? k : `${k}=${Array.isArray(v) ? v.join(",") : String(v)}`))
  ].join(" ")

const quoteTxt = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

export const renderRecord = (a: packet.Answer): RenderedRecord => {
  const rawType = String(a.type)
  const type = displayTypeName(rawType)
  const d = (a as any).data
  let value: string
  let data: unknown
  try {
    switch (type) {
      case "SVCB":
      case "HTTPS": {
        const r = decodeSvcb(Buffer.from(d))
        data = r
        value = presentSvcb(r)
        break
      }
      case "TXT":
      case "SPF": {
        const parts: Array<string> = (Array.isArray(d) ? d : [d]).map((b: unknown) => Buffer.isBuffer(b) ? b.toString("utf8") : String(b))
        data = parts
        value = parts.map(quoteTxt).join(" ")
        break
      }
      case "MX":
        data = d
        value = `${d.preference} ${d.exchange}.`
        break
      case "SOA":
        data = d
        value = `${d.mname}. ${d.rname}. ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}`
        break
      case "CAA":
        data = d
        value = `${d.flags ?? 0} ${d.tag} ${quoteTxt(String(d.value))}`
        break
      case "SRV":
        data = d
        value = `${d.priority} ${d.weight} ${d.port} ${d.target}.`
        break
      case "DS":
      case "CDS":
        data = jsonSafe(d)
        value = `${d.keyTag} ${d.algorithm} ${d.digestType} ${Buffer.from(d.digest).toString("hex").toUpperCase()}`
        break
      case "DNSKEY":
      case "CDNSKEY":
        data = jsonSafe(d)
        value = `${d.flags} 3 ${d.algorithm} ${Buffer.from(d.key).toString("base64")}`
        break
      case "CNAME":
      case "NS":
      case "PTR":
      case "DNAME":
        data = d
        value = `${d}.`
        break
      case "A":
      case "AAAA":
        data = d
        value = String(d)
        break
      default:
        data = jsonSafe(d)
        value = Buffer.isBuffer(d)
          ? `\\# ${d.length} ${d.toString("hex")}`
          : typeof data === "object" && data !== null ? Object.values(data as Record<string, unknown>).map((x) => Array.isArray(x) ? x.join(" ") : String(x)).join(" ") : String(data)
    }
  } catch (e) {
    data = jsonSafe(d)
    value = `(undecodable RDATA: ${(e as Error).message})`
  }
  return { name: a.name, type, ttl: (a as any).ttl ?? 0, class: String((a as any).class ?? "IN"), value, data }
}

/** Reverse-lookup name for an IP address (PTR convenience). */
export const reverseName = (ip: string): string | undefined => {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip)
  if (v4) return `${v4[4]}.${v4[3]}.${v4[2]}.${v4[1]}.in-addr.arpa`
  if (ip.includes(":")) {
    const [head, tail = ""] = ip.split("::")
    const h = head ? head.split(":") : []
    const t = tail ? tail.split(":") : []
    if (!ip.includes("::") && h.length !== 8) return undefined
    const groups = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t]
    if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined
    return groups.map((g) => g.padStart(4, "0")).join("").split("").reverse().join(".") + ".ip6.arpa"
  }
  return undefined
}

export interface WithheldAnswers {
  readonly answers: ReadonlyArray<RenderedRecord>
  /** How many answers were left out, and why; null when none were. */
  readonly withheld: string | null
}

/**
 * The service's resolver may know internal names (split-horizon DNS): unless private targets
 * are allowed, A/AAAA answers in non-public ranges are left out, and so are PTR answers for a
 * non-public address, and the report says how many were. The same table as the target guard.
 */
export const withholdPrivate = (queried: string, type: string, answers: ReadonlyArray<RenderedRecord>, allowPrivate: boolean): WithheldAnswers => {
  if (allowPrivate) return { answers, withheld: null }
  const privateQuery = type === "PTR" && isIP(queried) !== 0 && classifyAddress(queried) !== "public"
  const kept = answers.filter((a) =>
    privateQuery ? false : a.type === "A" || a.type === "AAAA" ? classifyAddress(String(a.data)) === "public" : true
  )
  const n = answers.length - kept.length
  if (n === 0) return { answers, withheld: null }
  return {
    answers: kept,
    withheld: `${n} answer${n === 1 ? "" : "s"} in private or special-purpose address ranges left out (the service does not disclose its resolver's view of non-public networks)`
  }
}
