/**
 * Content Freshness, pure core: a fetched page (headers, HTML text, URL) and the current time in,
 * the report out. Thresholds and weights are documented in
 * docs/operations/content-freshness.md ("contentAge", "confidence", "Score and grade").
 */
import { FreshnessReport as FreshnessReportSchema } from "./schema"
import { analyzeCache, type CacheAnalysis } from "./cache"
import { type DayDate, dayKey, parseHttpDate, toEpoch, toIso } from "./parse/dates"
import { extractSignals, type RawSignal } from "./extract"
import { offPage, selectDates, type Signal } from "./select"

export type AgeCategory = "fresh" | "recent" | "aging" | "stale" | "unknown"
export type Confidence = "high" | "medium" | "low" | "none"

/** contentAge boundaries in days (inclusive upper bounds). */
export const AGE_THRESHOLDS = { fresh: 30, recent: 180, aging: 365 } as const

export interface DateFound {
  readonly source: string
  readonly date: string
  readonly type: "published" | "modified" | "created"
}

export interface DatedField {
  readonly source: string
  readonly date: string
  readonly ageInDays: number
}

export type FreshnessReport = typeof FreshnessReportSchema.Type

export interface PageInput {
  readonly domain: string
  readonly url: string
  readonly finalUrl: string
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** Decoded HTML (already capped); empty for non-HTML responses. */
  readonly html: string
  readonly isHtml: boolean
  readonly bodyTruncated: boolean
  readonly nowMs: number
}

const DAY = 86_400_000
/** Whole calendar days between the stated day and today (UTC). */
const ageDays = (d: DayDate, nowMs: number) => {
  const now = new Date(nowMs)
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Math.max(0, Math.round((today - Date.UTC(d.y, d.m - 1, d.d)) / DAY))
}

export const ageCategory = (days: number | null): AgeCategory =>
  days === null ? "unknown"
    : days <= AGE_THRESHOLDS.fresh ? "fresh"
    : days <= AGE_THRESHOLDS.recent ? "recent"
    : days <= AGE_THRESHOLDS.aging ? "aging"
    : "stale"

/** Grade boundaries on the 0-100 score. */
export type Grade = "A+" | "A" | "B" | "C" | "D" | "F"
export const GRADES: ReadonlyArray<readonly [number, Grade]> = [[95, "A+"], [85, "A"], [70, "B"], [55, "C"], [40, "D"], [0, "F"]]
export const gradeOf = (score: number) => GRADES.find(([min]) => score >= min)![1]

const structured = (s: Signal) => s.source.startsWith("meta:") || s.source.startsWith("json-ld:") || s.source.startsWith("microdata:") || s.source === "url"

/** Signals listed in allDatesFound: not the raw source scan and not boilerplate regions, unless chosen. */
const listed = (s: Signal, chosen: ReadonlyArray<Signal | null>) =>
  chosen.includes(s) || (!offPage(s) && s.source !== "source:pattern")

export const analyzePage = (input: PageInput): FreshnessReport => {
  const { nowMs } = input
  // Non-HTML responses still carry a URL (and headers) to date them by.
  const raw: Array<RawSignal> = [...extractSignals(input.isHtml ? input.html : "", input.finalUrl).signals]
  const lm = parseHttpDate(input.headers["last-modified"])
  if (lm) raw.push({ source: "last-modified-header", type: "modified", date: lm, order: -1, region: "head" })
  const sel = selectDates(raw, nowMs)

  const field = (s: Signal | null): DatedField | null =>
    s === null ? null : { source: s.source, date: toIso(s.date), ageInDays: ageDays(s.date, nowMs) }
  const publishDate = field(sel.publish)
  const modifiedDate = field(sel.modified)

  // allDatesFound: distinct (source, day, type).
  const seen = new Set<string>()
  const allDatesFound: Array<DateFound> = []
  for (const s of sel.signals) {
    if (!listed(s, [sel.publish, sel.modified])) continue
    const k = `${s.source}|${dayKey(s.date)}|${s.type}`
    if (seen.has(k)) continue
    seen.add(k)
    allDatesFound.push({ source: s.source, date: toIso(s.date), type: s.type })
    if (allDatesFound.length >= 100) break
  }
  const ignored = [
    ...sel.discarded.filter((d) => !d.source.startsWith("source:")),
    ...sel.signals.filter((s) => offPage(s) && s !== sel.publish && s.source !== "source:pattern").slice(0, 20)
      .map((s) => ({ source: s.source, reason: `${toIso(s.date)} in ${s.region === "comment" ? "a comment" : s.region === "copyright" ? "a copyright line" : "a related-content, navigation or footer"} region` }))
  ]

  // Content age: from the latest of modified and published.
  const pubMs = sel.publish ? toEpoch(sel.publish.date) : null
  const modMs = sel.modified ? toEpoch(sel.modified.date) : null
  const basisMs = modMs !== null && (pubMs === null || modMs >= pubMs) ? modMs : pubMs
  const basis = basisMs === null ? null : basisMs === modMs ? sel.modified! : sel.publish!
  const days = basis === null ? null : ageDays(basis.date, nowMs)
  const contentAge = { days, category: ageCategory(days), basis: basisMs === null ? null : basisMs === modMs ? "modified" as const : "published" as const }

  // Consistency.
  const issues: Array<string> = []
  const reliable = sel.signals.filter((s) => !offPage(s) && s.source !== "source:pattern" && s.source !== "source:json-key" && s.source !== "text:link")
  const pubStructured = reliable.filter((s) => s.type === "published" && structured(s))
  const pubDays = new Set(pubStructured.map((s) => dayKey(s.date)))
  if (pubDays.size > 1) {
    const ms = pubStructured.map((s) => toEpoch(s.date))
    const spread = Math.round((Math.max(...ms) - Math.min(...ms)) / DAY)
    issues.push(`structured publication dates disagree: ${[...pubDays].sort().join(", ")} (${spread} days apart)`)
  }
  let modifiedAfterPublished: boolean | null = null
  if (pubMs !== null && modMs !== null) {
    modifiedAfterPublished = modMs >= pubMs - DAY / 2 || dayKey(sel.modified!.date) === dayKey(sel.publish!.date)
    if (!modifiedAfterPublished) issues.push(`modified date ${toIso(sel.modified!.date)} is earlier than the publication date ${toIso(sel.publish!.date)}`)
  }
  const structuredMods = reliable.filter((s) => s.type === "modified" && s.source !== "last-modified-header" && s.source !== "text:relative")
  if (lm && structuredMods.length > 0) {
    const lmMs = toEpoch(lm)
    const latest = Math.max(...structuredMods.map((s) => toEpoch(s.date)))
    if (lmMs - latest > 2 * DAY) issues.push("Last-Modified header is newer than the page's own modification date: the server stamps every response")
  }
  const spreadSet = reliable.filter((s) => s.tier <= 4 || s.type === "modified").map((s) => toEpoch(s.date))
  const dateSpreadDays = spreadSet.length >= 2 ? Math.round((Math.max(...spreadSet) - Math.min(...spreadSet)) / DAY) : spreadSet.length === 1 ? 0 : null
  if (dateSpreadDays !== null && dateSpreadDays > 365 * 2 && pubDays.size <= 1) {
    issues.push(`dates on the page span ${dateSpreadDays} days`)
  }

  // Confidence.
  let confidence: Confidence = "none"
  if (sel.publish || sel.modified) {
    const chosen = sel.publish ?? sel.modified!
    const k = dayKey(chosen.date)
    const agreeing = new Set(reliable.filter((s) => dayKey(s.date) === k).map((s) => s.source.split(":")[0] + (s.source.includes("json-ld") ? "ld" : "")))
    const strong = chosen.tier <= 1 || chosen.source === "last-modified-header" && !sel.publish
    if (strong && agreeing.size >= 2 && pubDays.size <= 1) confidence = "high"
    else if (strong || (chosen.tier <= 5.5 && agreeing.size >= 2)) confidence = "medium"
    else confidence = "low"
  }

  const cache = analyzeCache({ headers: input.headers, status: input.status, isHtml: input.isHtml, nowMs })

  // Score: content age 45, signal quality 35, cache hygiene 20.
  const agePts = { fresh: 45, recent: 35, aging: 22, stale: days !== null && days <= 730 ? 10 : 5, unknown: 0 }[contentAge.category]
  let sigPts = 0
  if (sel.publish) sigPts += 10
  if (sel.publish && structured(sel.publish)) sigPts += 8
  else if (pubStructured.length > 0) sigPts += 8
  if (sel.modified && sel.modified.source !== "last-modified-header") sigPts += 7
  if ((sel.publish || sel.modified) && issues.length === 0) sigPts += 5
  sigPts += { high: 5, medium: 3, low: 1, none: 0 }[confidence]
  let cachePts = 0
  if (cache.cacheControl !== null) cachePts += 5
  if (cache.etag.present || cache.lastModified !== null) cachePts += 5
  if (cache.ttlSource !== "none") cachePts += 5
  cachePts += Math.max(0, 5 - 2 * cache.issues.length)
  const score = Math.max(0, Math.min(100, agePts + sigPts + cachePts))

  // Recommendations.
  const rec: Array<string> = []
  if (!sel.publish) rec.push("Add a machine-readable publication date: <meta property=\"article:published_time\" content=\"2024-03-12T09:00:00+01:00\"> and JSON-LD datePublished")
  else if (!pubStructured.length) rec.push("The publication date is only visible in the text; add article:published_time or JSON-LD datePublished so crawlers read it reliably")
  if (!sel.modified || sel.modified.source === "last-modified-header") rec.push("Declare the last substantive update with article:modified_time or JSON-LD dateModified")
  if (pubDays.size > 1) rec.push("Make every publication-date source (meta tags, JSON-LD, URL) state the same day")
  if (modifiedAfterPublished === false) rec.push("Fix dateModified: it must not be earlier than datePublished")
  if (contentAge.category === "stale") rec.push(`Content was last updated ${days} days ago: review it, update facts and set dateModified when you do`)
  else if (contentAge.category === "aging") rec.push("Content is approaching a year old: schedule a review")
  if (!lm && input.isHtml) rec.push("Send a Last-Modified header (or an ETag) so clients and crawlers can revalidate cheaply")
  if (cache.cacheControl === null) rec.push("Send an explicit Cache-Control header, e.g. \"public, max-age=300, stale-while-revalidate=60\" for articles")
  for (const i of cache.issues.slice(0, 5)) rec.push(`Cache configuration: ${i}`)
  if (cache.ttlSource === "no-store" && input.isHtml) rec.push("Replace no-store with no-cache (plus an ETag) unless the page is personalised: revalidation is cheap, re-downloading is not")
  if (input.bodyTruncated) rec.push("The page exceeds the analysis limit; dates after the cut were not examined")

  return {
    domain: input.domain,
    url: input.url,
    finalUrl: input.finalUrl,
    statusCode: input.status,
    lastModifiedHeader: input.headers["last-modified"] ?? null,
    publishDate,
    modifiedDate,
    allDatesFound,
    contentAge,
    cacheHeaders: cache,
    dateConsistency: { consistent: issues.length === 0, issues, dateSpreadDays, modifiedAfterPublished, ignored },
    confidence,
    score,
    scoreBreakdown: { contentAge: agePts, signalQuality: sigPts, cacheHygiene: cachePts },
    grade: gradeOf(score),
    recommendations: rec,
    bodyTruncated: input.bodyTruncated
  }
}
