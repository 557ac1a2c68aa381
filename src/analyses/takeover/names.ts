/**
 * The names one takeover check resolves (pure; docs/operations/takeover.md): the domain, the
 * names the caller gave, names from a zone transfer, names seen in certificate transparency logs
 * and names made from the built-in word list, in that order of trust, each once, bounded. Only
 * names at or below the domain are kept; a CT wildcard (`*.shop.example.com`) stands for the name
 * under it (`shop.example.com`). When more names come than the bound, the later sources lose
 * theirs and a limitation says how many were left out and from where.
 */
import type { NameSourceCounts } from "./schema"
import { WORDLIST } from "./wordlist"

/** At most this many names are resolved in one check. */
export const MAX_NAMES = 2_000

export interface NameInputs {
  readonly domain: string
  readonly given?: Iterable<string>
  readonly zone_transfer?: Iterable<string>
  readonly ct?: Iterable<string>
  /** Labels to put in front of the domain; the built-in list when absent. */
  readonly wordlist?: Iterable<string>
}

export interface NameSet {
  /** The names to resolve, the domain first. */
  readonly names: ReadonlyArray<string>
  /** How many of `names` each source brought (a name several sources bring counts for each). */
  readonly sources: NameSourceCounts
  /** How many distinct names the sources brought before the bound. */
  readonly found: number
  /** Whether the bound left names out. */
  readonly cut: boolean
  readonly limitations: ReadonlyArray<string>
}

const LABEL = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)$/

/** `raw` as a host name at or below `domain` (lower case, no trailing dot, a leading `*.` dropped), or null. */
export const nameUnder = (raw: string, domain: string): string | null => {
  const name = raw.trim().toLowerCase().replace(/\.$/, "").replace(/^\*\./, "")
  if (name.length === 0 || name.length > 253) return null
  if (name !== domain && !name.endsWith(`.${domain}`)) return null
  return name.split(".").every((l) => LABEL.test(l)) ? name : null
}

type SourceName = keyof NameSourceCounts

export const mergeNames = (input: NameInputs, max = MAX_NAMES): NameSet => {
  const domain = input.domain.toLowerCase().replace(/\.$/, "")
  const words = input.wordlist ?? WORDLIST
  const lists: ReadonlyArray<readonly [SourceName, Iterable<string>]> = [
    ["given", input.given ?? []],
    ["zone_transfer", input.zone_transfer ?? []],
    ["ct", input.ct ?? []],
    ["wordlist", Array.from(words, (w) => `${w}.${domain}`)]
  ]
  // Every distinct name, the sources that brought it, in order of first appearance.
  const from = new Map<string, Set<SourceName>>([[domain, new Set()]])
  for (const [source, raw] of lists) {
    for (const r of raw) {
      const name = nameUnder(r, domain)
      if (name === null) continue
      const s = from.get(name)
      if (s) s.add(source)
      else from.set(name, new Set([source]))
    }
  }
  const all = [...from.keys()]
  const names = all.slice(0, max)
  const sources: Record<SourceName, number> = { ct: 0, zone_transfer: 0, wordlist: 0, given: 0 }
  for (const name of names) for (const s of from.get(name)!) sources[s]++
  const cut = all.length > names.length
  const limitations: Array<string> = []
  if (cut) {
    const left: Record<SourceName, number> = { ct: 0, zone_transfer: 0, wordlist: 0, given: 0 }
    for (const name of all.slice(max)) for (const s of from.get(name)!) left[s]++
    const detail = (Object.keys(left) as Array<SourceName>).filter((s) => left[s] > 0).map((s) => `${left[s]} from ${s.replace("_", " ")}`)
    limitations.push(`${all.length} names found, ${names.length} checked (the bound is ${max}); left out: ${detail.join(", ")}`)
  }
  return { names, sources, found: all.length, cut, limitations }
}
