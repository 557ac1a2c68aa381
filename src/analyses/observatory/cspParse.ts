/**
 * Content Security Policy parsing as the Observatory grades it (pure). Several policies (headers
 * and `<meta>` tags) combine so that a source counts only when every policy allows it
 * (CSP3 §8.1: each policy is enforced); a directive repeated inside one policy makes it invalid,
 * except report-uri and report-to, which are reported as duplicates.
 */
export type Csp = Map<string, Set<string>>

/** The shortest policy accepted is one character under "img-src". */
const SHORTEST_POLICY = "img-src".length - 1
/** HTML: a `<meta>` policy ignores these directives. */
const HEADER_ONLY = ["frame-ancestors", "report-uri", "sandbox"]
const MAY_REPEAT = new Set(["report-uri", "report-to"])
export const DUPLICATES = "_duplicates"

const collator = new Intl.Collator("en")

interface Source { source: string; index: number; keep: boolean }

/** Path prefix match used when a later policy narrows a source of an earlier one. */
const pathMatch = (a: string, b: string): boolean => {
  if (a.length === 0) return true
  if (a === "/" && b.length === 0) return true
  const exact = !a.endsWith("/")
  const pa = a.split("/")
  const pb = b.split("/")
  if (pa.length > pb.length) return false
  if (exact && pa.length !== pb.length) return false
  if (!exact) pa.pop()
  for (let i = 0; i < pa.length; i++) {
    if (decodeURIComponent(pa[i]) !== decodeURIComponent(pb[i])) return false
  }
  return true
}

export class CspInvalid extends Error {}

export const parseCsp = (policies: ReadonlyArray<string>): Csp => {
  const clean = policies.map((p) => p.replace(/[\r\n]/g, "").trim())
  if (clean.length === 0) return new Map()
  for (const p of clean) if (!p || p.length < SHORTEST_POLICY) throw new CspInvalid(`policy too short: ${p}`)
  const csp = new Map<string, Array<Source>>()
  const duplicates = new Set<string>()
  clean.forEach((policy, index) => {
    const seen = new Set<string>()
    for (const [name, ...values] of policy.split(";").map((e) => e.trim().split(/\s+/))) {
      if (!name) continue
      const directive = name.toLowerCase()
      if (seen.has(directive)) {
        if (MAY_REPEAT.has(directive)) duplicates.add(directive)
        else throw new CspInvalid(`directive ${directive} repeated in policy ${index}`)
      } else seen.add(directive)
      const keep = index === 0
      const own: Array<Source> = values.length > 0
        ? values.map((v) => ({ source: v.trim().toLocaleLowerCase(), index, keep }))
        : directive.endsWith("-src") ? [{ source: "'none'", index, keep }] : []
      const combined = index === 0 ? [...own] : [...(csp.get(directive) ?? []), ...own]
      combined.sort((a, b) => collator.compare(a.source, b.source))
      for (let i = 1; i < combined.length; i++) {
        const cur = combined[i]
        const prev = combined[i - 1]
        // Within one policy a longer source that starts like a shorter one adds nothing.
        if (cur.index === prev.index && cur.source.startsWith(prev.source)) cur.keep = false
        // Across policies a source survives only when both allow it.
        if (cur.index !== prev.index && pathMatch(prev.source, cur.source)) cur.keep = true
      }
      csp.set(directive, combined.filter((s) => s.keep))
      // With more policies to come, survivors of the first must be confirmed by a later one.
      if (index === 0 && policies.length > 1) for (const s of csp.get(directive) ?? []) s.keep = false
    }
  })
  const out: Csp = new Map(
    [...csp.entries()].map(([d, sources]) => [d, sources.length > 0 ? new Set(sources.map((s) => s.source)) : new Set(["'none'"])])
  )
  if (duplicates.size > 0) out.set(DUPLICATES, duplicates)
  return out
}

export const parseMetaCsp = (policies: ReadonlyArray<string>): Csp => {
  const csp = parseCsp(policies)
  for (const d of HEADER_ONLY) csp.delete(d)
  return csp
}
