/**
 * HTTP/3 advertisement: an `Alt-Svc` field (RFC 7838 §3) of an HTTPS answer on the host and port
 * naming `h3` (RFC 9114 §3.1.1), or the `alpn` of the origin's HTTPS DNS record (RFC 9460 §7.1)
 * naming `h3`. Draft versions (`h3-29`) are not HTTP/3 and are not counted.
 */
import { Effect } from "effect"
import { dataOf, type DnsError, type DnsRecord, type DnsResolverShape } from "../../adapters/dns/DnsResolver"

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
 * The alpn ids of the origin's HTTPS records (RFC 9460 §7.1.1), decoded at the DNS adapter.
 * AliasMode records (priority 0) carry no params that count.
 */
export const alpnOfHttpsRecords = (records: ReadonlyArray<DnsRecord>): ReadonlyArray<string> =>
  dataOf(records, "HTTPS").flatMap((d) => (d.priority === 0 ? [] : d.params.alpn ?? []))

/** The alpn ids of the HTTPS records at `name`. */
export const alpnFromHttpsRecord = (resolver: DnsResolverShape, name: string): Effect.Effect<ReadonlyArray<string>, DnsError> =>
  resolver.query({ name, type: "HTTPS" }).pipe(Effect.map((ans) => alpnOfHttpsRecords(ans.answers)))
