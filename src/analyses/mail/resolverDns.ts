/**
 * The project's DnsResolver seen as the email analysis needs it: typed lookups that never fail
 * (a failure of the target's DNS is a `Failed` lookup, a finding), and the adapter to the SPF
 * evaluator's `SpfDns` interface (where a failure is RFC 7208's temperror).
 * Whether a failure is the target's or the service's own resolvers' is decided by EmailSecurity
 * through ResolverHealth (docs/dns.md, "Own resolver health").
 */
import { Effect } from "effect"
import { isIP } from "node:net"
import {
  type DnsAnswerSet,
  type DnsError,
  type DnsRecordType,
  type DnsResolverShape,
  recordsOf,
  type RecordOfType,
  txtText
} from "../../adapters/dns/DnsResolver"
import type { Lookup } from "./lookup"
import type { MxRecord } from "./mx"
import { SpfTempError, type SpfDns, type SpfLookup } from "./spf/dns"

const errReason = (e: DnsError): string =>
  e._tag === "DnsTimeout" ? "timeout" : e._tag === "DnsRcode" ? e.rcode : e._tag === "DnsMalformed" ? `malformed answer: ${e.reason}` : e.reason

const toLookup = <T extends DnsRecordType, A>(ans: DnsAnswerSet, type: T, read: (r: RecordOfType<T>) => A): Lookup<A> => {
  if (ans.rcode === "NXDOMAIN") return { _tag: "Void", rcode: "NXDOMAIN" }
  if (ans.rcode !== "NOERROR") return { _tag: "Failed", reason: ans.rcode }
  // The resolver follows CNAMEs: the records of the asked type are the answer.
  const records = recordsOf(ans.answers, type).map(read)
  return records.length > 0 ? { _tag: "Found", records } : { _tag: "Void", rcode: "NOERROR" }
}

const mxOf = (r: RecordOfType<"MX">): MxRecord => ({ preference: r.data.preference, exchange: r.data.exchange })

export const makeMailDns = (resolver: DnsResolverShape) => {
  const ask = <T extends DnsRecordType, A>(name: string, type: T, read: (r: RecordOfType<T>) => A): Effect.Effect<Lookup<A>> =>
    resolver.query({ name, type }).pipe(
      Effect.map((ans) => toLookup(ans, type, read)),
      Effect.catchAll((e) => Effect.succeed<Lookup<A>>({ _tag: "Failed", reason: errReason(e) }))
    )
  return {
    txt: (name: string) => ask(name, "TXT", txtText),
    mx: (name: string) => ask(name, "MX", mxOf),
    a: (name: string) => ask(name, "A", (r) => r.data),
    aaaa: (name: string) => ask(name, "AAAA", (r) => r.data),
    ptr: (name: string) => ask(name, "PTR", (r) => r.data.replace(/\.$/, ""))
  }
}
export type MailDns = ReturnType<typeof makeMailDns>

/** The reverse-lookup name of an address (RFC 1035 §3.5, RFC 3596 §2.5). */
export const reverseName = (ip: string): string => {
  if (isIP(ip) === 4) return `${ip.split(".").reverse().join(".")}.in-addr.arpa`
  const groups = ip.split("::")
  const head = groups[0] ? groups[0].split(":") : []
  const tail = groups.length > 1 && groups[1] ? groups[1].split(":") : []
  const full = [...head, ...Array(8 - head.length - tail.length).fill("0"), ...tail]
  return `${full.map((g) => g.padStart(4, "0")).join("").split("").reverse().join(".")}.ip6.arpa`
}

const toSpf = <A>(name: string, l: Effect.Effect<Lookup<A>>): Effect.Effect<SpfLookup<A>, SpfTempError> =>
  Effect.flatMap(l, (x) =>
    x._tag === "Failed"
      ? Effect.fail(new SpfTempError({ name, reason: x.reason }))
      : Effect.succeed<SpfLookup<A>>(x._tag === "Found" ? { _tag: "Found", records: x.records } : { _tag: "Void", rcode: x.rcode }))

/** The SPF evaluator's DNS over the project's resolver: a failed lookup is a temperror. */
export const spfDnsOf = (dns: MailDns): SpfDns => ({
  txt: (name) => toSpf(name, dns.txt(name)),
  a: (name) => toSpf(name, dns.a(name)),
  aaaa: (name) => toSpf(name, dns.aaaa(name)),
  mx: (name) => toSpf(name, dns.mx(name)),
  ptr: (ip) => toSpf(ip, dns.ptr(reverseName(ip)))
})
