/**
 * HTTP/3 advertisement: an `Alt-Svc` field (RFC 7838 §3) of an HTTPS answer on the host and port
 * naming `h3` (RFC 9114 §3.1.1), or the `alpn` of the origin's HTTPS DNS record (RFC 9460 §7.1)
 * naming `h3`. Draft versions (`h3-29`) are not HTTP/3 and are not counted.
 */
import { Effect } from "effect"
import type { DnsError, DnsResolverShape } from "../../adapters/dns/DnsResolver"

/** Alternatives of an Alt-Svc value, split at commas outside quoted strings. */
const alternatives = (value: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  let cur = ""
  let quoted = false
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]
    if (ch === "\\" && quoted) {
      cur += ch + (value[i + 1] ?? "")
      i++
    } else if (ch === '"') {
      quoted = !quoted
      cur += ch
    } else if (ch === "," && !quoted) {
      out.push(cur)
      cur = ""
    } else cur += ch
  }
  out.push(cur)
  return out.map((a) => a.trim()).filter((a) => a.length > 0)
}

/** Protocol ids of an Alt-Svc value (percent-decoded, RFC 7838 §3); none for `clear`. */
export const altSvcProtocols = (value: string | null): ReadonlyArray<string> => {
  if (value === null || value.trim().toLowerCase() === "clear") return []
  return alternatives(value).flatMap((alt) => {
    const eq = alt.indexOf("=")
    if (eq <= 0) return []
    try {
      return [decodeURIComponent(alt.slice(0, eq).trim())]
    } catch {
      return []
    }
  })
}

export const advertisesH3 = (protocols: ReadonlyArray<string>) => protocols.includes("h3")

/** The owner of the HTTPS record for an https origin (RFC 9460 §9.1: port prefix unless 443). */
export const httpsRecordName = (host: string, port: number) => (port === 443 ? host : `_${port}._https.${host}`)

/**
 * The alpn SvcParam (key 1) of HTTPS RDATA (RFC 9460 §2.2): priority, an uncompressed target name,
 * then key/length/value params; alpn is a list of length-prefixed ids. AliasMode (priority 0)
 * carries no params that count.
 */
export const alpnOfHttpsRdata = (rdata: Uint8Array): ReadonlyArray<string> => {
  if (rdata.length < 3 || ((rdata[0] << 8) | rdata[1]) === 0) return []
  let i = 2
  while (i < rdata.length && rdata[i] !== 0) i += 1 + rdata[i]
  i += 1
  const out: Array<string> = []
  while (i + 4 <= rdata.length) {
    const key = (rdata[i] << 8) | rdata[i + 1]
    const len = (rdata[i + 2] << 8) | rdata[i + 3]
    const value = rdata.subarray(i + 4, Math.min(rdata.length, i + 4 + len))
    i += 4 + len
    if (key !== 1) continue
    for (let j = 0; j < value.length && j + 1 + value[j] <= value.length; j += 1 + value[j]) out.push(Buffer.from(value.subarray(j + 1, j + 1 + value[j])).toString("latin1"))
  }
  return out
}

/**
 * The alpn ids of the HTTPS records at `name`. dns-packet 5.6 has no HTTPS type, so the query
 * names type 65 and the records arrive as raw RDATA.
 */
export const alpnFromHttpsRecord = (resolver: DnsResolverShape, name: string): Effect.Effect<ReadonlyArray<string>, DnsError> =>
  resolver.query({ name, type: "UNKNOWN_65" }).pipe(
    Effect.map((ans) => ans.answers.flatMap((r) => {
      const data: unknown = "data" in r ? r.data : undefined
      return String(r.type) === "UNKNOWN_65" && data instanceof Uint8Array ? alpnOfHttpsRdata(data) : []
    }))
  )
