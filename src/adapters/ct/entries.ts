/**
 * CT logs, pure: crt.sh JSON rows in, deduplicated entries out (a precertificate and its final
 * certificate share issuer and serial number: one entry), newest first; pagination and the
 * `since` filter; SCT counting and the compliance rule of docs/operations/ct-logs.md ("embedded_sct").
 */

/** One row of crt.sh's `output=json`. Fields are loosely typed: the aggregator is an upstream. */
export interface CrtShRow {
  readonly id?: unknown
  readonly issuer_ca_id?: unknown
  readonly issuer_name?: unknown
  readonly common_name?: unknown
  readonly name_value?: unknown
  readonly entry_timestamp?: unknown
  readonly not_before?: unknown
  readonly not_after?: unknown
  readonly serial_number?: unknown
}

export interface CtEntry {
  /** The aggregator's certificate ID (of the first-logged member: usually the precertificate). */
  readonly id: number
  /** Every aggregator ID merged into this entry (precertificate and certificate). */
  readonly ids: ReadonlyArray<number>
  readonly issuer: string
  readonly issuer_ca_id: number | null
  readonly common_name: string | null
  readonly names: ReadonlyArray<string>
  readonly serial_number: string | null
  readonly not_before: string | null
  readonly not_after: string | null
  /** When the certificate was first logged (ISO 8601, UTC). */
  readonly timestamp: string
}

/** crt.sh prints UTC without a zone ("2024-01-02T03:04:05.678"); ISO 8601 out, or null. */
export const parseCrtTime = (v: unknown): string | null => {
  if (typeof v !== "string" || v.length === 0) return null
  const s = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(" ", "T")}Z`
  const t = Date.parse(s)
  return Number.isNaN(t) ? null : new Date(t).toISOString()
}

const toInt = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : NaN
  return Number.isSafeInteger(n) ? n : null
}

/** Rows that are not objects with an ID and a logged time are dropped (counted in `dropped`). */
export const dedupe = (rows: ReadonlyArray<unknown>): { entries: Array<CtEntry>; duplicates: number; dropped: number } => {
  const groups = new Map<string, Array<{ row: CrtShRow; id: number; ts: string }>>()
  let dropped = 0
  for (const raw of rows) {
    if (typeof raw !== "object" || raw === null) {
      dropped++
      continue
    }
    const row = raw as CrtShRow
    const id = toInt(row.id)
    const ts = parseCrtTime(row.entry_timestamp)
    if (id === null || ts === null) {
      dropped++
      continue
    }
    const serial = typeof row.serial_number === "string" && row.serial_number.length > 0 ? row.serial_number.toLowerCase() : null
    const issuer = typeof row.issuer_name === "string" ? row.issuer_name : ""
    const key = serial !== null ? `${toInt(row.issuer_ca_id) ?? issuer}|${serial}` : `id|${id}`
    const g = groups.get(key)
    if (g) {
      if (!g.some((m) => m.id === id)) g.push({ row, id, ts })
    } else groups.set(key, [{ row, id, ts }])
  }
  let duplicates = 0
  const entries: Array<CtEntry> = []
  for (const members of groups.values()) {
    duplicates += members.length - 1
    members.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.id - b.id))
    const first = members[0]
    const names = new Set<string>()
    for (const m of members) {
      if (typeof m.row.name_value === "string") {
        for (const n of m.row.name_value.split(/\s+/)) if (n.length > 0) names.add(n.toLowerCase())
      }
    }
    entries.push({
      id: first.id,
      ids: members.map((m) => m.id).sort((a, b) => a - b),
      issuer: typeof first.row.issuer_name === "string" ? first.row.issuer_name : "",
      issuer_ca_id: toInt(first.row.issuer_ca_id),
      common_name: typeof first.row.common_name === "string" ? first.row.common_name : null,
      names: [...names].sort(),
      serial_number: typeof first.row.serial_number === "string" ? first.row.serial_number.toLowerCase() : null,
      not_before: parseCrtTime(first.row.not_before),
      not_after: parseCrtTime(first.row.not_after),
      timestamp: first.ts
    })
  }
  // Newest first; ties by ID, higher first.
  entries.sort((a, b) => (a.timestamp > b.timestamp ? -1 : a.timestamp < b.timestamp ? 1 : b.id - a.id))
  return { entries, duplicates, dropped }
}

export const page = (entries: ReadonlyArray<CtEntry>, opts: { offset: number; limit: number; since: string | null }) => {
  const filtered = opts.since === null ? entries : entries.filter((e) => e.timestamp >= opts.since!)
  const slice = filtered.slice(opts.offset, opts.offset + opts.limit)
  const truncated = opts.offset + slice.length < filtered.length
  return {
    certificates: slice,
    total: filtered.length,
    truncated,
    pagination: { offset: opts.offset, limit: opts.limit, next_offset: truncated ? opts.offset + slice.length : null }
  }
}

/** Issuer organisation (O=) of an issuer DN, else its CN, else the whole DN. */
export const issuerOrganization = (dn: string): string => {
  const o = /(?:^|,\s*)O=("?)([^,"]+)\1/.exec(dn)
  if (o) return o[2].trim()
  const cn = /(?:^|,\s*)CN=("?)([^,"]+)\1/.exec(dn)
  return cn ? cn[2].trim() : dn
}

/**
 * Counts the SCTs of a TLS-encoded SignedCertificateTimestampList (RFC 6962 3.3): a 16-bit
 * total length, then 16-bit-length-prefixed SCTs. Undefined when the lengths do not add up.
 */
export const countSctList = (tls: Uint8Array): number | undefined => {
  if (tls.length < 2) return undefined
  const total = (tls[0] << 8) | tls[1]
  if (total !== tls.length - 2) return undefined
  let off = 2
  let n = 0
  while (off < tls.length) {
    if (off + 2 > tls.length) return undefined
    const len = (tls[off] << 8) | tls[off + 1]
    off += 2 + len
    if (len === 0 || off > tls.length) return undefined
    n++
  }
  return n
}

/**
 * docs/operations/ct-logs.md, "embedded_sct": at least 2 SCTs from distinct operators, and at least 3 for certificates valid 180
 * days or more issued after 2022-04-15; distinct operators approximated by raw count.
 */
export const sctCompliance = (count: number, notBefore: Date, notAfter: Date) => {
  const validDays = (notAfter.getTime() - notBefore.getTime()) / 86_400_000
  const long = validDays >= 180 && notBefore.getTime() > Date.parse("2022-04-15T00:00:00Z")
  const required = long ? 3 : 2
  const compliant = count >= required
  const note = `${count} embedded SCT${count === 1 ? "" : "s"}; ${required} required for a certificate valid ${Math.round(validDays)} days issued ${notBefore.toISOString().slice(0, 10)}` +
    (compliant ? " (compliant)" : " (not compliant)") + "; distinct log operators approximated by raw count"
  return { required, chrome_compliant: compliant, note }
}
