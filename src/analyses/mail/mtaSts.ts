/**
 * MTA-STS (RFC 8461): the `_mta-sts.<domain>` TXT record (§3.1), the policy file served at
 * `https://mta-sts.<domain>/.well-known/mta-sts.txt` (§3.2, §3.3) and whether every MX host
 * matches one of the policy's `mx` patterns (§4.1: `*.` matches exactly one left-most label).
 * Pure: the fetch outcome is an input.
 */
import type { Lookup } from "./lookup"
import type { MtaStsPolicy, MtaStsReport } from "./schema"
import { lowerHost, parseTags, tagValue, versioned } from "./tags"

/** RFC 8461 §3.2: max_age is at most 31557600 seconds (about a year). */
export const MAX_AGE_LIMIT = 31_557_600

export interface ParsedTxt {
  readonly id: string | null
  readonly errors: ReadonlyArray<string>
}

export const parseStsTxt = (record: string): ParsedTxt => {
  const t = parseTags(record)
  const errors = [...t.errors]
  if (t.tags[0]?.[0] !== "v" || t.tags[0][1] !== "STSv1") errors.push("the record must start with v=STSv1")
  const id = tagValue(t, "id") ?? null
  if (id === null) errors.push("the required id= tag is missing")
  else if (!/^[A-Za-z0-9]{1,32}$/.test(id)) errors.push(`id=${id} is not 1-32 letters and digits`)
  return { id, errors }
}

export interface ParsedPolicy {
  readonly policy: MtaStsPolicy | null
  readonly errors: ReadonlyArray<string>
}

/** §3.2: `key: value` lines (CRLF or LF); version, mode and max_age required, mx required unless mode none. */
export const parsePolicy = (text: string): ParsedPolicy => {
  const errors: Array<string> = []
  const fields = new Map<string, Array<string>>()
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === "") continue
    const colon = line.indexOf(":")
    if (colon <= 0) {
      errors.push(`malformed policy line "${line.slice(0, 80)}"`)
      continue
    }
    const k = line.slice(0, colon).trim().toLowerCase()
    fields.set(k, [...(fields.get(k) ?? []), line.slice(colon + 1).trim()])
  }
  const one = (k: string) => fields.get(k)?.[0]
  if (one("version") !== "STSv1") errors.push(one("version") === undefined ? "policy has no version field" : `policy version ${one("version")} is not STSv1`)
  const modeRaw = one("mode")
  const mode = modeRaw === "enforce" || modeRaw === "testing" || modeRaw === "none" ? modeRaw : null
  if (mode === null) errors.push(modeRaw === undefined ? "policy has no mode field" : `policy mode ${modeRaw} is not enforce, testing or none`)
  const ageRaw = one("max_age")
  const maxAge = ageRaw !== undefined && /^\d{1,10}$/.test(ageRaw) ? Number(ageRaw) : null
  if (maxAge === null) errors.push(ageRaw === undefined ? "policy has no max_age field" : `policy max_age ${ageRaw} is not a number of seconds`)
  else if (maxAge > MAX_AGE_LIMIT) errors.push(`policy max_age ${maxAge} exceeds ${MAX_AGE_LIMIT}`)
  const mx = (fields.get("mx") ?? []).map(lowerHost)
  for (const p of mx) if (!/^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)+$/.test(p)) errors.push(`policy mx pattern "${p}" is not a host name or *.suffix`)
  if (mx.length === 0 && mode !== "none") errors.push("policy lists no mx patterns")
  if (mode === null || maxAge === null) return { policy: null, errors }
  return { policy: { mode, mx, max_age: maxAge }, errors }
}

/** §4.1: a pattern matches the host exactly, or `*.suffix` matches one label before the suffix. */
export const mxMatches = (pattern: string, host: string): boolean => {
  const p = lowerHost(pattern)
  const h = lowerHost(host)
  if (!p.startsWith("*.")) return p === h
  const suffix = p.slice(1)
  return h.endsWith(suffix) && !h.slice(0, -suffix.length).includes(".") && h.length > suffix.length
}

/** How the policy fetch went (the service fills it from HttpProbe). */
export type PolicyFetch =
  | { readonly _tag: "Body"; readonly text: string }
  | { readonly _tag: "Error"; readonly reason: string }

export interface MtaStsObservation {
  readonly txt: Lookup<string>
  readonly fetch: PolicyFetch
  readonly mxHosts: ReadonlyArray<string>
}

export const mtaStsReport = (o: MtaStsObservation): MtaStsReport => {
  const empty: MtaStsReport = { record: null, id: null, policy: null, valid: false, errors: [] }
  if (o.txt._tag === "Failed") return { ...empty, errors: [`TXT lookup of _mta-sts failed: ${o.txt.reason}`] }
  const recs = o.txt._tag === "Found" ? versioned(o.txt.records, "STSv1") : []
  // No record: the domain has no MTA-STS, whatever a web server may serve (§3.1, §5).
  if (recs.length === 0) return empty
  // §3.1: several records mean no policy.
  if (recs.length > 1) return { ...empty, errors: [`${recs.length} STSv1 TXT records: senders treat the domain as having no policy`] }
  const txt = parseStsTxt(recs[0])
  const errors = [...txt.errors]
  let policy: MtaStsPolicy | null = null
  if (o.fetch._tag === "Error") errors.push(`policy fetch failed: ${o.fetch.reason}`)
  else {
    const p = parsePolicy(o.fetch.text)
    policy = p.policy
    errors.push(...p.errors)
  }
  if (policy !== null && policy.mode !== "none") {
    for (const host of o.mxHosts) {
      if (!policy.mx.some((pat) => mxMatches(pat, host))) errors.push(`MX host ${host} matches no mx pattern of the policy`)
    }
  }
  return { record: recs[0], id: txt.id, policy, valid: errors.length === 0 && policy !== null, errors }
}
