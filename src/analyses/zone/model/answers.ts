/** Reading DNS answers for Zone Hygiene (pure helpers). */
import { randomBytes } from "node:crypto"
import { type DnsAnswerSet, type DnsError, type DnsRecord, recordsOf } from "../../../adapters/dns/DnsResolver"
import type { SoaFields } from "./observations"

export const norm = (n: string) => n.toLowerCase().replace(/\.$/, "")

export const soaOf = (ans: DnsAnswerSet, zone: string): SoaFields | null => {
  const r = recordsOf(ans.answers, "SOA").find((a) => norm(a.name) === zone)
  if (!r) return null
  const d = r.data
  return { serial: d.serial, primary_ns: norm(d.mname), rname: norm(d.rname), refresh: d.refresh, retry: d.retry, expire: d.expire, minimum: d.minimum }
}

export const errText = (e: DnsError): string =>
  e._tag === "DnsTimeout" ? "timeout" : e._tag === "DnsRcode" ? e.rcode : e._tag === "DnsMalformed" ? `malformed answer: ${e.reason}` : e.reason

/** A and AAAA data and the first CNAME hop for `name` from an answer section. */
export const addressesIn = (answers: ReadonlyArray<DnsRecord>, name: string) => {
  const cname = recordsOf(answers, "CNAME").find((a) => norm(a.name) === name)
  const ips = answers.flatMap((a) => (a.type === "A" || a.type === "AAAA" ? [a.data] : []))
  return { ips, cname: cname ? norm(cname.data) : null }
}

export const randomLabel = () => `di-wc-${randomBytes(5).toString("hex")}`

