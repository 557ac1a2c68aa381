/**
 * DNS record types the dns_lookup tool accepts and the rendering of typed answers (pure): each
 * record in zone-file presentation form (`value`) and as JSON-safe structured data (`data`).
 */
import { isIP } from "node:net"
import type { DnsRecord, SvcbData } from "../../adapters/dns/records"
import { typeNameOf } from "../../adapters/dns/records"
import { classifyAddress } from "../../adapters/probe/guard"

/** Meta types (OPT, AXFR, IXFR, TKEY, TSIG) are left out: they are no lookups. */
const lookupTypes = [
  "A", "AAAA", "AFSDB", "APL", "CAA", "CDNSKEY", "CDS", "CERT", "CNAME", "DHCID", "DLV", "DNAME", "DNSKEY",
  "DS", "HINFO", "HIP", "IPSECKEY", "KEY", "KX", "LOC", "MX", "NAPTR", "NS", "NSEC", "NSEC3", "NSEC3PARAM",
  "NULL", "PTR", "RP", "RRSIG", "SIG", "SOA", "SPF", "SRV", "SSHFP", "TA", "TLSA", "TXT", "ANY",
  "SMIMEA", "OPENPGPKEY", "CSYNC", "ZONEMD", "SVCB", "HTTPS", "URI"
] as const

export const recordTypes = [...lookupTypes].sort()
export type RecordTypeName = (typeof lookupTypes)[number]

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

const presentSvcb = (r: SvcbData): string =>
  [
    String(r.priority),
    r.target,
    ...Object.entries(r.params).map(([k, v]) => (v === true ? k : `${k}=${Array.isArray(v) ? v.join(",") : String(v)}`))
  ].join(" ")

const quoteTxt = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

const rendered = (a: DnsRecord): { readonly value: string; readonly data: unknown } => {
  switch (a.type) {
    case "SVCB":
    case "HTTPS":
      return { data: a.data, value: presentSvcb(a.data) }
    case "TXT":
    case "SPF": {
      const parts = a.data.map((b) => b.toString("utf8"))
      return { data: parts, value: parts.map(quoteTxt).join(" ") }
    }
    case "MX":
      return { data: a.data, value: `${a.data.preference} ${a.data.exchange}.` }
    case "SOA": {
      const d = a.data
      return { data: d, value: `${d.mname}. ${d.rname}. ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}` }
    }
    case "CAA":
      return { data: a.data, value: `${a.data.flags} ${a.data.tag} ${quoteTxt(a.data.value)}` }
    case "SRV":
      return { data: a.data, value: `${a.data.priority} ${a.data.weight} ${a.data.port} ${a.data.target}.` }
    case "DS":
    case "CDS": {
      const d = a.data
      return { data: jsonSafe(d), value: `${d.keyTag} ${d.algorithm} ${d.digestType} ${d.digest.toString("hex").toUpperCase()}` }
    }
    case "DNSKEY":
    case "CDNSKEY": {
      const d = a.data
      return { data: jsonSafe(d), value: `${d.flags} 3 ${d.algorithm} ${d.key.toString("base64")}` }
    }
    case "NSEC3PARAM": {
      const d = a.data
      return { data: jsonSafe(d), value: `${d.algorithm} ${d.flags} ${d.iterations} ${d.salt.length === 0 ? "-" : d.salt.toString("hex").toUpperCase()}` }
    }
    case "CNAME":
    case "NS":
    case "PTR":
    case "DNAME":
      return { data: a.data, value: `${a.data}.` }
    case "A":
    case "AAAA":
      return { data: a.data, value: a.data }
    case "UNKNOWN":
      // RFC 3597 §5: the generic form of RDATA of a type without a presentation format here.
      return { data: a.data.toString("hex"), value: `\\# ${a.data.length} ${a.data.toString("hex")}` }
    default: {
      const data = jsonSafe(a.data)
      const values = typeof data === "object" && data !== null ? Object.values(data) : [data]
      return { data, value: values.map((x) => (Array.isArray(x) ? x.join(" ") : String(x))).join(" ") }
    }
  }
}

export const renderRecord = (a: DnsRecord): RenderedRecord => {
  const r = rendered(a)
  return { name: a.name, type: typeNameOf(a), ttl: a.ttl, class: a.class, value: r.value, data: r.data }
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
