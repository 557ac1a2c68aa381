/**
 * A fake SpfDns serving zone data in the OpenSPF suite's format (pure data, no sockets): the
 * suite is meant to be driven through a driver's own resolver. Semantics follow the suite's
 * reference driver (pyspf's testspf.py): SPF-type records are also served as TXT unless the name
 * lists TXT records of its own ("TXT: NONE" included); "TIMEOUT" times out every query type for
 * which no record precedes it; a name absent from the zone is NXDOMAIN; CNAMEs are chased, and a
 * CNAME loop is a DNS error. Every query is logged with the clock time it was issued at, and may
 * take `latency` (so a TestClock test can count round trips).
 */
import { Clock, Duration, Effect } from "effect"
import ipaddr from "ipaddr.js"
import { type SpfDns, type SpfLookup, SpfTempError } from "../../../../src/analyses/mail/spf/dns"

type Entry = "TIMEOUT" | Readonly<Record<string, unknown>>
export type Zone = Readonly<Record<string, ReadonlyArray<Entry>>>
type Rr = { readonly type: string; readonly value: unknown } | "TIMEOUT"

export interface QueryLog {
  readonly type: string
  readonly name: string
  readonly at: number
}

const text = (v: unknown): string => (Array.isArray(v) ? v.join("") : String(v))

const load = (zone: Zone): Map<string, Array<Rr>> => {
  const out = new Map<string, Array<Rr>>()
  for (const [name, entries] of Object.entries(zone)) {
    const rrs: Array<Rr> = []
    const generated: Array<Rr> = []
    let ownTxt = false
    for (const e of entries) {
      if (e === "TIMEOUT") {
        rrs.push("TIMEOUT")
        continue
      }
      for (const [type, value] of Object.entries(e)) {
        if (type === "TXT") ownTxt = true
        else if (type === "SPF") generated.push({ type: "TXT", value })
        if (value !== "NONE") rrs.push({ type, value })
      }
    }
    out.set(name.toLowerCase().replace(/\.$/, ""), ownTxt ? rrs : [...rrs, ...generated])
  }
  return out
}

export const reverseName = (ip: string): string => {
  const bytes = ipaddr.parse(ip).toByteArray()
  return bytes.length === 4
    ? `${bytes.reverse().join(".")}.in-addr.arpa`
    : `${bytes.flatMap((b) => [b >> 4, b & 15]).reverse().map((n) => n.toString(16)).join(".")}.ip6.arpa`
}

export const zoneDns = (zone: Zone, options: { readonly latency?: Duration.DurationInput } = {}) => {
  const data = load(zone)
  const log: Array<QueryLog> = []
  const resolve = (name: string, type: string, seen: ReadonlyArray<string>): SpfLookup<unknown> | SpfTempError => {
    const key = name.toLowerCase().replace(/\.$/, "")
    const rrs = data.get(key)
    if (rrs === undefined) return { _tag: "Void", rcode: "NXDOMAIN" }
    const cname = rrs.find((r) => r !== "TIMEOUT" && r.type === "CNAME")
    if (cname !== undefined && cname !== "TIMEOUT") {
      if (seen.includes(key)) return new SpfTempError({ name, reason: "CNAME loop" })
      return resolve(text(cname.value), type, [...seen, key])
    }
    let armed = true
    const found: Array<unknown> = []
    for (const r of rrs) {
      if (r === "TIMEOUT") {
        if (armed) return new SpfTempError({ name, reason: "timeout" })
        continue
      }
      if (r.type === type) {
        armed = false
        found.push(r.value)
      }
    }
    return found.length === 0 ? { _tag: "Void", rcode: "NOERROR" } : { _tag: "Found", records: found }
  }
  const query = <A>(type: string, name: string, map: (v: unknown) => A) =>
    Effect.gen(function*() {
      log.push({ type, name, at: yield* Clock.currentTimeMillis })
      if (options.latency !== undefined) yield* Effect.sleep(options.latency)
      const r = resolve(name, type, [])
      if (r instanceof SpfTempError) return yield* r
      return r._tag === "Found" ? { _tag: "Found" as const, records: r.records.map(map) } : r
    })
  const dns: SpfDns = {
    txt: (name) => query("TXT", name, text),
    a: (name) => query("A", name, String),
    aaaa: (name) => query("AAAA", name, String),
    mx: (name) =>
      query("MX", name, (v) => {
        const [preference, exchange] = v as [number, string]
        return { preference, exchange }
      }),
    ptr: (ip) => query("PTR", reverseName(ip), String)
  }
  return { dns, log }
}
