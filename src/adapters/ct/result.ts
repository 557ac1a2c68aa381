/**
 * One CT result from the sources' answers, pure: merged entries (merge.ts), each source's status
 * and how many certificates it listed, and the caveats a reader needs (docs/operations/ct-logs.md,
 * "Sources"). A source that fails now but listed certificates in the previous
 * result (up to the stale limit old) keeps them in this one, marked by its status and dates:
 * a crt.sh outage then costs no history while Cert Spotter answers.
 */
import type { CtSourceName } from "../../platform/Config"
import type { SourceState } from "./ctCache"
import type { CtEntry } from "./entries"
import { mergeSources, portionOf, type SourceEntries } from "./merge"
import { SOURCE_LABEL, type SourceAnswer } from "./sources"

export interface Result {
  readonly entries: ReadonlyArray<CtEntry>
  /** Epoch ms when this result was made (its freshness). */
  readonly fetchedAt: number
  /** crt.sh rows merged as precertificate/certificate duplicates. */
  readonly duplicates: number
  /** Rows or issuances dropped as unusable. */
  readonly dropped: number
  /** Certificates listed by more than one source, merged into one entry each. */
  readonly overlap: number
  readonly sources: ReadonlyArray<SourceState>
  readonly limitations: ReadonlyArray<string>
  /** Cert Spotter ID → SCTs embedded in its certificate, where the certificate itself came. */
  readonly scts: Readonly<Record<string, number>>
}

const only = (others: ReadonlyArray<CtSourceName>): string =>
  others.length === 0
    ? "no certificates are listed"
    : `the list holds ${others.map((o) => SOURCE_LABEL[o]).join(" and ")}'s certificates only` +
      (others.length === 1 && others[0] === "certspotter" ? " (unexpired ones, with no log times)" : "")

export const resultOf = (
  answers: ReadonlyArray<SourceAnswer>,
  previous: Result | undefined,
  now: number,
  order: ReadonlyArray<CtSourceName>,
  staleMaxMs: number
): Result => {
  const lists: Array<SourceEntries> = []
  const states: Array<SourceState> = []
  const limitations: Array<string> = []
  const scts: Record<string, number> = {}
  let duplicates = 0
  let dropped = 0
  const answered = answers.filter((a) => a._tag === "ok").map((a) => a.name)
  for (const a of answers) {
    const label = SOURCE_LABEL[a.name]
    if (a._tag === "ok") {
      lists.push({ name: a.name, entries: a.entries })
      duplicates += a.duplicates
      dropped += a.dropped
      limitations.push(...a.limitations)
      Object.assign(scts, a.scts)
      states.push({ name: a.name, status: "ok", certificates: a.entries.length, detail: null, fetched_at: now })
      continue
    }
    const verb = a._tag === "skipped" ? "was not asked" : "failed"
    const before = previous?.sources.find((s) => s.name === a.name && s.certificates > 0 && now - s.fetched_at < staleMaxMs)
    const kept = before === undefined ? [] : previous!.entries.flatMap((e) => portionOf(e, a.name) ?? [])
    if (kept.length > 0) {
      lists.push({ name: a.name, entries: kept })
      for (const e of kept) if (e.certspotter_id !== null && previous!.scts[e.certspotter_id] !== undefined) scts[e.certspotter_id] = previous!.scts[e.certspotter_id]
      states.push({ name: a.name, status: a._tag, certificates: kept.length, detail: a.detail, fetched_at: before!.fetched_at })
      const which = kept.length === 1 ? "certificate is the one" : `${kept.length} certificates are those`
      limitations.push(`${label} ${verb} (${a.detail}); its ${which} it listed at ${new Date(before!.fetched_at).toISOString()}`)
    } else {
      states.push({ name: a.name, status: a._tag, certificates: 0, detail: a.detail, fetched_at: now })
      limitations.push(`${label} ${verb} (${a.detail}); ${only(answered)}`)
    }
  }
  const merged = mergeSources(lists, order)
  const logless = merged.entries.filter((e) => !e.sources.includes("crtsh")).length
  if (logless > 0) {
    limitations.push(`${logless} certificate${logless === 1 ? " is" : "s are"} listed by Cert Spotter alone: ${logless === 1 ? "its" : "their"} timestamp is ${logless === 1 ? "its" : "their"} not_before, as Cert Spotter gives no log time`)
  }
  return { entries: merged.entries, fetchedAt: now, duplicates, dropped, overlap: merged.overlap, sources: states, limitations, scts }
}

/**
 * The stored result served stale because no source answered now: each source's status is this
 * attempt's failure, its certificates and `fetched_at` those of the stored result.
 */
export const staleSources = (stored: Result, answers: ReadonlyArray<SourceAnswer>): ReadonlyArray<SourceState> =>
  answers.map((a): SourceState => {
    const before = stored.sources.find((s) => s.name === a.name)
    const certificates = before?.certificates ?? 0
    const fetched_at = before?.fetched_at ?? stored.fetchedAt
    return a._tag === "ok"
      ? { name: a.name, status: "ok", certificates, detail: null, fetched_at }
      : { name: a.name, status: a._tag, certificates, detail: a.detail, fetched_at }
  })
