/**
 * Several CT sources' entries as one list, pure (docs/operations/ct-logs.md, "Merging").
 *
 * One entry per certificate. Two entries are the same certificate when they share the SHA-256
 * of the certificate, or the issuer and the serial number (RFC 5280 §4.1.2.2: a serial is unique
 * per issuer). crt.sh's JSON carries no SHA-256, so between crt.sh and Cert Spotter the key is
 * issuer + serial, Cert Spotter's serial read from its `cert_der`. An issuance that comes without
 * its certificate (so without a serial) matches an entry with the same issuer, validity period
 * to the second and set of names.
 *
 * Precedence: a field comes from crt.sh when crt.sh listed the certificate and has a value
 * for it (its IDs, CA id, logged time, issuer, serial, validity, common name), else from Cert
 * Spotter; `names` is the union; `sha256` and `certspotter_id` come from Cert Spotter.
 */
import type { CtSourceName } from "../../platform/Config"
import { newestFirst, type CtEntry } from "./entries"

/** Long attribute names as their short forms, so DNs printed by different tools compare equal. */
const SHORT: Record<string, string> = {
  commonname: "cn", organizationname: "o", organizationalunitname: "ou", countryname: "c",
  localityname: "l", stateorprovincename: "st", "2.5.4.3": "cn", "2.5.4.10": "o", "2.5.4.11": "ou", "2.5.4.6": "c"
}

/**
 * A distinguished name as a comparable key: its attributes (`type=value`, lower-cased, spaces
 * collapsed, quotes and backslash escapes undone) sorted, so "C=US, O=Let's Encrypt, CN=R11"
 * (crt.sh, X.509 order) and "CN=R11,O=Let's Encrypt,C=US" (RFC 4514 order) are one issuer.
 */
export const dnKey = (dn: string): string => {
  // A domain's certificates come from a handful of issuers: each DN is parsed once.
  let key = dnKeys.get(dn)
  if (key === undefined) {
    if (dnKeys.size >= 1000) dnKeys.clear()
    dnKeys.set(dn, key = parseDnKey(dn))
  }
  return key
}
const dnKeys = new Map<string, string>()

const parseDnKey = (dn: string): string => {
  const parts: Array<string> = []
  let cur = ""
  let quoted = false
  for (let i = 0; i < dn.length; i++) {
    const c = dn[i]
    if (c === "\\" && i + 1 < dn.length) cur += dn[++i]
    else if (c === "\"") quoted = !quoted
    else if ((c === "," || c === "+" || c === ";") && !quoted) {
      parts.push(cur)
      cur = ""
    } else cur += c
  }
  parts.push(cur)
  return parts
    .map((p) => {
      const eq = p.indexOf("=")
      const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ")
      if (eq < 0) return norm(p)
      const type = norm(p.slice(0, eq))
      return `${SHORT[type] ?? type}=${norm(p.slice(eq + 1))}`
    })
    .filter((p) => p.length > 0)
    .sort()
    .join(",")
}

/** A serial number as hex without separators or leading zeros (crt.sh keeps a DER sign octet). */
export const serialKey = (serial: string): string => serial.toLowerCase().replace(/[^0-9a-f]/g, "").replace(/^0+(?=.)/, "")

const keysOf = (e: CtEntry): { strong: Array<string>; weak: string } => {
  const strong: Array<string> = []
  if (e.sha256 !== null) strong.push(`sha256:${e.sha256}`)
  if (e.serial_number !== null) strong.push(`serial:${dnKey(e.issuer)}|${serialKey(e.serial_number)}`)
  return { strong, weak: `validity:${dnKey(e.issuer)}|${e.not_before}|${e.not_after}|${e.names.join(" ")}` }
}

/** `base` with the fields it lacks filled from `other`, the names joined and both sources named. */
const combine = (base: CtEntry, other: CtEntry, order: ReadonlyArray<CtSourceName>): CtEntry => ({
  id: base.id,
  ids: [...new Set([...base.ids, ...other.ids])].sort((a, b) => a - b),
  issuer: base.issuer || other.issuer,
  issuer_ca_id: base.issuer_ca_id ?? other.issuer_ca_id,
  common_name: base.common_name ?? other.common_name,
  names: [...new Set([...base.names, ...other.names])].sort(),
  serial_number: base.serial_number ?? other.serial_number,
  not_before: base.not_before ?? other.not_before,
  not_after: base.not_after ?? other.not_after,
  timestamp: base.timestamp,
  sha256: base.sha256 ?? other.sha256,
  certspotter_id: base.certspotter_id ?? other.certspotter_id,
  sources: order.filter((s) => base.sources.includes(s) || other.sources.includes(s))
})

export interface SourceEntries {
  readonly name: CtSourceName
  readonly entries: ReadonlyArray<CtEntry>
}

/** Which list wins a field: crt.sh's, as it reads the logs' own entries (logged time, IDs). */
const PRECEDENCE: ReadonlyArray<CtSourceName> = ["crtsh", "certspotter"]

/**
 * The sources' entries as one list, newest first, and how many certificates each source
 * listed. `order` is CT_SOURCES: the order of every `sources` array.
 */
export const mergeSources = (lists: ReadonlyArray<SourceEntries>, order: ReadonlyArray<CtSourceName>) => {
  const merged: Array<CtEntry> = []
  let overlap = 0
  const byKey = new Map<string, number>()
  const counts = new Map<CtSourceName, number>()
  const sorted = [...lists].sort((a, b) => PRECEDENCE.indexOf(a.name) - PRECEDENCE.indexOf(b.name))
  for (const list of sorted) {
    counts.set(list.name, (counts.get(list.name) ?? 0) + list.entries.length)
    for (const e of list.entries) {
      const { strong, weak } = keysOf(e)
      let at = strong.map((k) => byKey.get(k)).find((i) => i !== undefined)
      // Without a serial or SHA-256 match, a certificate-less issuance matches on its validity.
      if (at === undefined && e.serial_number === null) at = byKey.get(weak)
      if (at === undefined) {
        at = merged.length
        merged.push(e)
      } else {
        merged[at] = combine(merged[at], e, order)
        overlap++
      }
      const keys = merged[at] === e ? strong : [...strong, ...keysOf(merged[at]).strong]
      for (const k of keys) if (!byKey.has(k)) byKey.set(k, at)
      if (!byKey.has(weak)) byKey.set(weak, at)
    }
  }
  merged.sort(newestFirst)
  return { entries: merged, counts, overlap }
}

/**
 * What one source gave of a merged entry, so a source's entries from an earlier result can be
 * merged again with the others' fresh ones (when it fails now); undefined when it did not list it.
 */
export const portionOf = (e: CtEntry, source: CtSourceName): CtEntry | undefined => {
  if (!e.sources.includes(source)) return undefined
  if (source === "crtsh") return { ...e, sha256: null, certspotter_id: null, sources: ["crtsh"] }
  return { ...e, id: certspotterId(e) ?? e.id, ids: [], issuer_ca_id: null, timestamp: e.not_before ?? e.timestamp, sources: ["certspotter"] }
}

/** What the `ct_new_certificate` monitor remembers: the highest ID it has seen at each source. */
export interface CtWatermarks {
  /** crt.sh: the highest entry `id` (an entry's first-logged member). */
  readonly max_ct_id?: number | undefined
  /** Cert Spotter: the highest issuance ID (its IDs grow in discovery order, which its `after` paging follows). */
  readonly max_certspotter_id?: number | undefined
}

const crtshId = (e: CtEntry): number | undefined => (e.ids.length > 0 ? e.ids[0] : undefined)
const certspotterId = (e: CtEntry): number | undefined =>
  e.certspotter_id !== null && /^\d{1,15}$/.test(e.certspotter_id) ? Number(e.certspotter_id) : undefined

/**
 * The watermarks after a run: the previous ones raised by what this run saw. A source that
 * answered gets one even when it listed nothing (0), so its first certificate is new; a source
 * that did not answer keeps its previous one.
 */
export const watermarks = (entries: ReadonlyArray<CtEntry>, answered: ReadonlyArray<CtSourceName>, previous: CtWatermarks | null): CtWatermarks => {
  let ct = previous?.max_ct_id ?? (answered.includes("crtsh") ? 0 : undefined)
  let cs = previous?.max_certspotter_id ?? (answered.includes("certspotter") ? 0 : undefined)
  for (const e of entries) {
    const a = crtshId(e)
    const b = certspotterId(e)
    if (a !== undefined) ct = Math.max(ct ?? 0, a)
    if (b !== undefined) cs = Math.max(cs ?? 0, b)
  }
  return { max_ct_id: ct, max_certspotter_id: cs }
}

/**
 * The entries new since the previous run: listed by at least one source that has a watermark,
 * and above the watermark at every such source. A source without one yet (the first run, or a
 * source that has never answered) sets its baseline and marks nothing new.
 */
export const newEntries = (entries: ReadonlyArray<CtEntry>, previous: CtWatermarks | null): ReadonlyArray<CtEntry> => {
  if (previous === null) return []
  return entries.filter((e) => {
    const marks: Array<[number | undefined, number | undefined]> = [[crtshId(e), previous.max_ct_id], [certspotterId(e), previous.max_certspotter_id]]
    const judged = marks.filter(([id, mark]) => id !== undefined && mark !== undefined)
    return judged.length > 0 && judged.every(([id, mark]) => id! > mark!)
  })
}
