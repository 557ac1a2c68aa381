/**
 * BIMI (draft-brand-indicators-for-message-identification): the default selector's record at
 * `default._bimi.<domain>`: `v=BIMI1; l=<https URL of an SVG>; a=<https URL of the VMC>`.
 * An empty l= with no a= is a declination to publish. Pure.
 */
import type { Lookup } from "./lookup"
import type { BimiReport } from "./schema"
import { parseTags, tagValue, versioned } from "./tags"

const httpsUrl = (u: string) => {
  try {
    return new URL(u).protocol === "https:"
  } catch {
    return false
  }
}

export const bimiReport = (l: Lookup<string>): BimiReport => {
  const empty: BimiReport = { record: null, location: null, authority: null, valid: false, errors: [] }
  if (l._tag === "Failed") return { ...empty, errors: [`TXT lookup of default._bimi failed: ${l.reason}`] }
  const recs = l._tag === "Found" ? versioned(l.records, "BIMI1") : []
  if (recs.length === 0) return empty
  if (recs.length > 1) return { ...empty, errors: [`${recs.length} BIMI1 records at default._bimi: receivers use none of them`] }
  const t = parseTags(recs[0])
  const errors = [...t.errors]
  if (t.tags[0]?.[0] !== "v" || t.tags[0][1] !== "BIMI1") errors.push("the record must start with v=BIMI1")
  const location = tagValue(t, "l") ?? null
  const authority = tagValue(t, "a") ?? null
  if (location === null) errors.push("the l= tag (logo location) is missing")
  else if (location !== "" && !httpsUrl(location)) errors.push(`l=${location} is not an https URL`)
  else if (location !== "" && !/\.svg([?#].*)?$/i.test(location)) errors.push(`l=${location} does not name an SVG file`)
  if (authority !== null && authority !== "" && !httpsUrl(authority)) errors.push(`a=${authority} is not an https URL`)
  return { record: recs[0], location: location || null, authority: authority || null, valid: errors.length === 0 && !!location, errors }
}
