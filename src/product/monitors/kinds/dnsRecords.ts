/**
 * `dns_records` (docs/operations/monitors.md, "Kinds"): one record type of a name through the
 * configured recursive resolvers, as a sorted list of presentation strings; `changed` compares
 * with the previous run's answer, `expected` with a given one. NXDOMAIN is an empty answer (a
 * name that vanished is a change); any other error rcode or no answer is a failed run. Either is
 * the name's own only when the service's resolvers answer for the root (ResolverHealth, docs/dns.md
 * "Own resolver health"); otherwise the run records nothing against it (docs/monitors.md).
 */
import { Effect, Schema } from "effect"
import { type DnsRecord, DnsResolver, requireNoError, txtText, typeNameOf } from "../../../adapters/dns/DnsResolver"
import { ResolverHealth } from "../../../adapters/dns/ResolverHealth"
import type { Baseline, Verdict } from "../model/analyze"
import { domainTarget, httpsUrlOf } from "../model/target"
import { defineKind } from "../model/kindSpec"

export const DnsRecordType = Schema.Literal("A", "AAAA", "CNAME", "MX", "NS", "TXT", "CAA", "SRV", "SOA", "PTR")

export const DnsRecordsConditions = Schema.Struct({
  record_type: Schema.optional(DnsRecordType),
  changed: Schema.optional(Schema.Boolean),
  expected: Schema.optional(Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000))).pipe(Schema.maxItems(100)))
}).pipe(Schema.filter((c) => c.changed === true || c.expected !== undefined || "dns_records needs changed: true or expected"))
export type DnsRecordsConditions = typeof DnsRecordsConditions.Type

export interface DnsRecordsReport {
  readonly name: string
  readonly record_type: string
  readonly answer: ReadonlyArray<string>
}

const host = (s: string) => s.trim().toLowerCase().replace(/\.$/, "")

/** An IPv6 address in its canonical compressed form (RFC 5952), as the WHATWG URL parser writes it. */
const canonicalV6 = (s: string) => {
  try {
    return new URL(`http://[${s.trim()}]/`).hostname.slice(1, -1)
  } catch {
    return s.trim().toLowerCase()
  }
}

/** Pure: one record in presentation form (names lower-cased without the final dot). */
export const presentRecord = (r: DnsRecord): string => {
  switch (r.type) {
    case "A":
      return r.data
    case "AAAA":
      return canonicalV6(r.data)
    case "CNAME":
    case "NS":
    case "PTR":
      return host(r.data)
    case "MX":
      return `${r.data.preference} ${host(r.data.exchange)}`
    case "TXT":
      return txtText(r)
    case "CAA":
      return `${r.data.flags} ${r.data.tag} "${r.data.value}"`
    case "SRV":
      return `${r.data.priority} ${r.data.weight} ${r.data.port} ${host(r.data.target)}`
    case "SOA": {
      const d = r.data
      return `${host(d.mname)} ${host(d.rname)} ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}`
    }
    default:
      return JSON.stringify(r.data)
  }
}

/** Pure: an `expected` entry in the same form as an answer of `type`. */
export const normalizeExpected = (type: string, v: string): string => {
  if (type === "TXT") return v
  if (type === "AAAA") return canonicalV6(v)
  if (type === "A") return v.trim()
  // names inside the value: lower case, no final dot
  return v.trim().split(/\s+/).map((w) => (/^".*"$/.test(w) ? w : host(w))).join(" ")
}

const same = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((x, i) => x === b[i])
const show = (xs: ReadonlyArray<string>) => (xs.length === 0 ? "(none)" : xs.join(", "))

/** Pure: the verdict on a report; the answer is the next run's baseline. */
export const evaluateDnsRecords = (c: DnsRecordsConditions, r: DnsRecordsReport, previous: Baseline | null): Verdict => {
  const held: Array<string> = []
  if (c.expected !== undefined) {
    const want = [...new Set(c.expected.map((e) => normalizeExpected(r.record_type, e)))].sort()
    if (!same(want, r.answer)) held.push(`${r.record_type} answer ${show(r.answer)} differs from expected ${show(want)}`)
  }
  if (c.changed && previous?.answer !== undefined && !same(previous.answer, r.answer)) {
    held.push(`${r.record_type} answer changed from ${show(previous.answer)} to ${show(r.answer)}`)
  }
  return {
    ok: held.length === 0,
    summary: held.length === 0 ? `${r.record_type}: ${show(r.answer)}`.slice(0, 500) : held.join("; "),
    report: r,
    baseline: { answer: r.answer }
  }
}

export const dnsRecordsKind = defineKind<DnsRecordsConditions>({
  conditions: DnsRecordsConditions,
  defaults: { record_type: "A", changed: true },
  minIntervalFactor: 1,
  target: domainTarget,
  // Never connected to, but its addresses are judged as for a connection: answers from the
  // operator's resolver must not map internal networks (the guard's rule, src/adapters/probe/guard.ts).
  guard: (t) => ({ url: httpsUrlOf(t), connects: true }),
  run: (name, c) =>
    Effect.gen(function*() {
      const type = c.record_type ?? "A"
      const resolver = yield* DnsResolver
      const health = yield* ResolverHealth
      const answered = yield* health.guard(name, resolver.query({ name, type }), (a) => a.rcode !== "NOERROR")
      const ans = yield* requireNoError(answered, name, true)
      const answer = [...new Set(ans.answers.filter((r) => typeNameOf(r) === type).map(presentRecord))].sort()
      return { name, record_type: type, answer } satisfies DnsRecordsReport
    }),
  evaluate: (c, report, previous) => evaluateDnsRecords(c, report, previous)
})
