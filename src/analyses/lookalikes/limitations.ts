/**
 * What a lookalikes report could not establish, in words (pure; docs/operations/lookalikes.md,
 * "Limitations"). Nothing a sweep failed to learn is reported as a verdict: a permutation whose
 * lookups failed or were not made in time is counted here, never listed as registered or free.
 */
import { LOOKUP_TYPES, type Resolution } from "./resolve"
import type { HomePage } from "./pages"

/** How many names a limitation lists before "and N more". */
const LISTED = 20

const names = (list: ReadonlyArray<string>) =>
  list.slice(0, LISTED).join(", ") + (list.length > LISTED ? ` and ${list.length - LISTED} more` : "")

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

export interface SweepOutcome {
  readonly domain: string
  /** False when the domain's own name does not exist (NXDOMAIN). */
  readonly ownExists: boolean
  /** The domain's home page; null when it was not fetched in time; "absent" when not asked (the domain does not exist). */
  readonly ownHome: HomePage | null | "absent"
  /** Generation stopped at its bound. */
  readonly truncated: boolean
  /** The permutations, ASCII, in the order of `results`. */
  readonly permutations: ReadonlyArray<string>
  /** Each permutation's resolution; undefined when it was not resolved in time. */
  readonly results: ReadonlyArray<Resolution | undefined>
  /** Registered lookalikes whose home page was still being fetched at the deadline. */
  readonly pagesUnfinished: ReadonlyArray<string>
  readonly deadlineMs: number
  /** The unresolved ones were asked a second time. */
  readonly retried: boolean
}

export const sweepLimitations = (o: SweepOutcome): Array<string> => {
  const out: Array<string> = []
  if (!o.ownExists) {
    out.push(`${o.domain} does not exist (NXDOMAIN): its lookalikes are listed all the same (who registered them before you?), but it has no home page to compare theirs with`)
  } else if (o.ownHome === null) {
    out.push(`the home page of ${o.domain} was not fetched within the deadline: web_similarity is null for every lookalike`)
  } else if (o.ownHome !== "absent" && !o.ownHome.served) {
    out.push(`the home page of ${o.domain} could not be fetched (${o.ownHome.problem}): web_similarity is null for every lookalike`)
  }
  if (o.truncated) out.push(`permutation generation stopped at its bound (${o.permutations.length} kept): the label is long or repetitive enough to make more than can be resolved`)

  const late = o.permutations.filter((_, i) => o.results[i] === undefined)
  if (late.length > 0) {
    out.push(`${plural(late.length, "permutation was", "permutations were")} not resolved within the operation's deadline (${o.deadlineMs} ms; the service's resolvers answered too slowly): neither registered nor free: ${names(late)}`)
  }
  const failed: Array<string> = []
  const reasons = new Map<string, number>()
  const partial: Array<string> = []
  o.results.forEach((r, i) => {
    if (r?._tag === "Unresolved") {
      failed.push(o.permutations[i])
      reasons.set(r.reason, (reasons.get(r.reason) ?? 0) + 1)
    } else if (r?._tag === "Registered" && r.failed.length > 0) {
      partial.push(`${LOOKUP_TYPES.filter((t) => r.failed.includes(t)).join(", ")} of ${o.permutations[i]}`)
    }
  })
  if (failed.length > 0) {
    const why = [...reasons.entries()].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${reason} ${n}`).join(", ")
    out.push(`${plural(failed.length, "permutation", "permutations")} could not be resolved (${why}${o.retried ? "; asked twice" : ""}): neither registered nor free: ${names(failed)}`)
  }
  if (partial.length > 0) {
    out.push(`some records of ${plural(partial.length, "registered lookalike", "registered lookalikes")} could not be looked up, so they may be incomplete: ${names(partial)}`)
  }
  if (o.pagesUnfinished.length > 0) {
    out.push(`the home ${o.pagesUnfinished.length === 1 ? "page" : "pages"} of ${plural(o.pagesUnfinished.length, "lookalike was", "lookalikes were")} not fetched within the deadline (web_similarity null): ${names(o.pagesUnfinished)}`)
  }
  return out
}
