/**
 * DMARC (RFC 7489): record selection at `_dmarc.<domain>`, tag validation (§6.3), policy
 * discovery with the organizational-domain fallback (§6.6.3, public suffix list via tldts), and
 * external report destinations (§7.1). Pure.
 */
import { getDomain } from "../../kernel/publicSuffix"
import type { Lookup } from "./lookup"
import type { DmarcReport } from "./schema"
import { lowerHost, parseTags, tagValue, versioned } from "./tags"

type Policy = "none" | "quarantine" | "reject"
const POLICIES: ReadonlySet<string> = new Set(["none", "quarantine", "reject"])

/** The organizational domain (RFC 7489 §3.2): the registrable domain under the public suffix list. */
export const organizationalDomain = (domain: string): string => getDomain(domain, { allowPrivateDomains: false }) ?? domain

export interface ParsedDmarc {
  readonly policy: Policy | null
  readonly subdomain_policy: Policy | null
  readonly pct: number | null
  readonly rua: ReadonlyArray<string>
  readonly ruf: ReadonlyArray<string>
  readonly adkim: "r" | "s" | null
  readonly aspf: "r" | "s" | null
  readonly errors: ReadonlyArray<string>
}

/** `mailto:` URIs (with an optional `!size` suffix, §6.2); anything else is reported. */
const uriList = (tag: string, value: string | undefined, errors: Array<string>): Array<string> => {
  if (value === undefined) return []
  const out: Array<string> = []
  for (const raw of value.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    const uri = raw.replace(/!\d+[kmgt]?$/i, "")
    if (!/^mailto:[^@\s]+@[a-z0-9.-]+\.?$/i.test(uri) && !/^https?:\/\/\S+$/i.test(uri)) errors.push(`${tag}: "${raw}" is not a mailto: URI`)
    else out.push(uri)
  }
  return out
}

export const parseDmarc = (record: string): ParsedDmarc => {
  const t = parseTags(record)
  const errors = [...t.errors]
  if (t.tags[0]?.[0] !== "v" || t.tags[0][1] !== "DMARC1") errors.push("the record must start with v=DMARC1")
  const policyOf = (tag: string): Policy | null => {
    const v = tagValue(t, tag)?.toLowerCase()
    if (v === undefined) return null
    if (!POLICIES.has(v)) {
      errors.push(`${tag}=${v} is not none, quarantine or reject`)
      return null
    }
    return v as Policy
  }
  const policy = policyOf("p")
  if (tagValue(t, "p") === undefined) errors.push("the required p= tag is missing")
  const sp = policyOf("sp")
  let pct: number | null = null
  const pctRaw = tagValue(t, "pct")
  if (pctRaw !== undefined) {
    if (/^\d{1,3}$/.test(pctRaw) && Number(pctRaw) <= 100) pct = Number(pctRaw)
    else errors.push(`pct=${pctRaw} is not an integer from 0 to 100`)
  }
  const align = (tag: string): "r" | "s" | null => {
    const v = tagValue(t, tag)?.toLowerCase()
    if (v === undefined) return null
    if (v !== "r" && v !== "s") {
      errors.push(`${tag}=${v} is not r or s`)
      return null
    }
    return v
  }
  const adkim = align("adkim")
  const aspf = align("aspf")
  const rua = uriList("rua", tagValue(t, "rua"), errors)
  const ruf = uriList("ruf", tagValue(t, "ruf"), errors)
  return { policy, subdomain_policy: sp, pct, rua, ruf, adkim, aspf, errors }
}

/** The domain part of a mailto: report URI, or null for other schemes. */
export const destinationDomain = (uri: string): string | null => {
  const m = /^mailto:[^@]+@([^?]+)$/i.exec(uri)
  return m ? lowerHost(m[1]) : null
}

/** Report destinations outside the policy domain's organizational domain, which need authorization (§7.1). */
export const externalDestinations = (policyDomain: string, rua: ReadonlyArray<string>, ruf: ReadonlyArray<string>) => {
  const org = organizationalDomain(policyDomain)
  const out: Array<{ uri: string; kind: "rua" | "ruf"; domain: string }> = []
  for (const [kind, list] of [["rua", rua], ["ruf", ruf]] as const) {
    for (const uri of list) {
      const d = destinationDomain(uri)
      if (d !== null && organizationalDomain(d) !== org) out.push({ uri, kind, domain: d })
    }
  }
  return out
}

/** The authorization record's name for a destination (§7.1). */
export const authorizationName = (policyDomain: string, destination: string) => `${policyDomain}._report._dmarc.${destination}`

/** A TXT set authorizes reports when one record starts with v=DMARC1. */
export const authorizes = (l: Lookup<string>): boolean => l._tag === "Found" && versioned(l.records, "DMARC1").length > 0

export type DmarcSelection =
  | { readonly kind: "record"; readonly record: string }
  | { readonly kind: "none" }
  | { readonly kind: "several"; readonly count: number }
  | { readonly kind: "failed"; readonly reason: string }

/** §6.6.3: only records starting with v=DMARC1 count; more than one means no policy. */
export const selectDmarc = (l: Lookup<string>): DmarcSelection => {
  if (l._tag === "Failed") return { kind: "failed", reason: l.reason }
  const recs = l._tag === "Found" ? versioned(l.records, "DMARC1") : []
  if (recs.length === 0) return { kind: "none" }
  if (recs.length > 1) return { kind: "several", count: recs.length }
  return { kind: "record", record: recs[0] }
}

export interface DmarcObservation {
  readonly domain: string
  readonly own: Lookup<string>
  /** `_dmarc.<organizational domain>`, when that differs from the domain. */
  readonly org: Lookup<string> | null
  /** Authorization answers by destination domain. */
  readonly authorization: Readonly<Record<string, boolean>>
}

/** Where the applicable record lives: the domain's own, else the organizational domain's (§6.6.3). */
export const applicableDmarc = (o: Pick<DmarcObservation, "domain" | "own" | "org">) => {
  const own = selectDmarc(o.own)
  const orgDomain = organizationalDomain(o.domain)
  if (own.kind !== "none" || o.org === null || orgDomain === o.domain) return { selection: own, policyDomain: o.domain, inherited: null }
  return { selection: selectDmarc(o.org), policyDomain: orgDomain, inherited: orgDomain }
}

export const dmarcReport = (o: DmarcObservation): DmarcReport => {
  const { selection, policyDomain, inherited } = applicableDmarc(o)
  const empty: DmarcReport = {
    record: null, valid: false, policy: null, subdomain_policy: null, pct: null, rua: [], ruf: [], adkim: null, aspf: null,
    inherited_from: null, external_reporting: [], errors: []
  }
  if (selection.kind === "none") return empty
  if (selection.kind === "failed") return { ...empty, errors: [`DMARC lookup at _dmarc.${policyDomain} failed: ${selection.reason}`] }
  if (selection.kind === "several") return { ...empty, errors: [`${selection.count} DMARC records at _dmarc.${policyDomain}: receivers apply none of them`] }
  const p = parseDmarc(selection.record)
  // A subdomain that inherits gets the organizational record's sp= (or p= when sp is absent).
  const policy = inherited !== null ? p.subdomain_policy ?? p.policy : p.policy
  return {
    record: selection.record,
    valid: p.errors.length === 0,
    policy,
    subdomain_policy: p.subdomain_policy,
    pct: p.pct,
    rua: p.rua,
    ruf: p.ruf,
    adkim: p.adkim,
    aspf: p.aspf,
    inherited_from: inherited,
    external_reporting: externalDestinations(policyDomain, p.rua, p.ruf).map((d) => ({ ...d, authorized: o.authorization[d.domain] ?? false })),
    errors: p.errors
  }
}
