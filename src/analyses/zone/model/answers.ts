/** Reading DNS answers for Zone Hygiene (pure helpers). */
import type * as packet from "dns-packet"
import { randomBytes } from "node:crypto"
import type { DnsAnswerSet, DnsError } from "../../../adapters/dns/DnsResolver"
import type { SoaFields } from "./observations"

export const norm = (n: string) => n.toLowerCase().replace(/\.$/, "")

export const soaOf = (ans: DnsAnswerSet, zone: string): SoaFields | null => {
  const r = ans.answers.find((a) => a.type === "SOA" && norm(a.name) === zone)
  if (!r) return null
  const d: any = (r as any).data
  return { serial: d.serial >>> 0, primary_ns: norm(String(d.mname)), rname: norm(String(d.rname)), refresh: d.refresh >>> 0, retry: d.retry >>> 0, expire: d.expire >>> 0, minimum: d.minimum >>> 0 }
}

export const errText = (e: DnsError): string =>
  e._tag === "DnsTimeout" ? "timeout" : e._tag === "DnsRcode" ? e.rcode : e._tag === "DnsMalformed" ? `malformed answer: ${e.reason}` : e.reason

/** A and AAAA data and the first CNAME hop for `name` from an answer section. */
export const addressesIn = (answers: ReadonlyArray<packet.Answer>, name: string) => {
  const cname = answers.find((a) => a.type === "CNAME" && norm(a.name) === name)
  const ips = answers.filter((a) => a.type === "A" || a.type === "AAAA").map((a) => String((a as any).data))
  return { ips, cname: cname ? norm(String((cname as any).data)) : null }
}

export const randomLabel = () => `di-wc-${randomBytes(5).toString("hex")}`

