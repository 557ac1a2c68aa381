/** SMTP TLS Reporting (RFC 8460 §3): `_smtp._tls.<domain>` TXT `v=TLSRPTv1; rua=<mailto:|https:>[,…]`. Pure. */
import type { Lookup } from "./lookup"
import type { TlsRptReport } from "./schema"
import { parseTags, tagValue, versioned } from "./tags"

export const tlsRptReport = (l: Lookup<string>): TlsRptReport => {
  const empty: TlsRptReport = { record: null, rua: [], valid: false, errors: [] }
  if (l._tag === "Failed") return { ...empty, errors: [`TXT lookup of _smtp._tls failed: ${l.reason}`] }
  const recs = l._tag === "Found" ? versioned(l.records, "TLSRPTv1") : []
  if (recs.length === 0) return empty
  // §3: several records mean no reporting policy.
  if (recs.length > 1) return { ...empty, errors: [`${recs.length} TLSRPTv1 records: senders use none of them`] }
  const t = parseTags(recs[0])
  const errors = [...t.errors]
  if (t.tags[0]?.[0] !== "v" || t.tags[0][1] !== "TLSRPTv1") errors.push("the record must start with v=TLSRPTv1")
  const raw = tagValue(t, "rua")
  const rua: Array<string> = []
  if (raw === undefined || raw.trim() === "") errors.push("the required rua= tag is missing")
  else {
    for (const u of raw.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
      if (/^mailto:[^@\s]+@[a-z0-9.-]+$/i.test(u) || /^https:\/\/[^\s/]+\S*$/i.test(u)) rua.push(u)
      else errors.push(`rua: "${u}" is not a mailto: or https: URI`)
    }
  }
  return { record: recs[0], rua, valid: errors.length === 0 && rua.length > 0, errors }
}
