/**
 * Choosing the publication and modification dates among the extracted signals: trap filtering
 * (pre-web, future beyond clock skew, copyright lines, comment and related-link regions), then
 * source reliability tiers and agreement. Pure.
 */
import { type DayDate, dayKey, fromEpoch, toEpoch } from "./parse/dates"
import type { DateType, RawSignal } from "./extract"

/** The web's first public page went up in August 1991; anything before cannot date a web page. */
export const MIN_DATE_MS = Date.UTC(1991, 7, 6)
/** Dates ahead of the clock by more than this are discarded (clock skew, time zones). */
export const FUTURE_SKEW_MS = 36 * 3600 * 1000

/** Regions that carry someone else's date: related content, footers, comments, copyright lines. */
export const offPage = (s: { readonly region: RawSignal["region"] }) =>
  s.region === "boilerplate" || s.region === "comment" || s.region === "copyright"

export interface Signal {
  readonly source: string
  readonly type: DateType
  readonly date: DayDate
  readonly order: number
  readonly region: RawSignal["region"]
  readonly hinted: boolean
  readonly tier: number
  /** Introduced as the page's own last change ("Last updated on …"). */
  readonly pageUpdate?: boolean
}

export interface Selection {
  readonly signals: ReadonlyArray<Signal>
  readonly publish: Signal | null
  readonly modified: Signal | null
  readonly discarded: ReadonlyArray<{ readonly source: string; readonly reason: string }>
}

const structuredPublished = (s: RawSignal) =>
  (s.source.startsWith("meta:") || s.source.startsWith("json-ld:") || s.source.startsWith("microdata:") || s.source.startsWith("rdfa:")) && s.type === "published"

/**
 * Reliability tier for a publication date (lower is better; docs/page-intelligence.md, "Choosing
 * publishDate and modifiedDate", has the table):
 * 0 complete URL date; 1 structured published (meta, JSON-LD, microdata, RDFa); 2 <time pubdate> or a
 * <time> in a date element; 3 other <time>; 4 text or a date link in a date element (a date link
 * not part of a list); 4.5 generic date metas; 5 created dates and uploadDate; 5.5 dated elements in
 * related/sidebar regions and dated list items; 6 main-text dates; 7 modification dates; 8 other
 * link text, event and deadline dates; 9 other boilerplate; 10 JSON keys in the source; 11 compact
 * dates in the source; 12 copyright-line dates; 99 never (Last-Modified, comments). Text introduced
 * as the publication ranks 0.1 ahead within tiers 4 to 6.
 */
/** Generic date metas: often stamped on every edit, so weaker than a visible dateline. */
const weakMeta = new Set(["meta:date", "meta:dc.date", "meta:dcterms.date", "meta:dc:date"])

export const publishTier = (s: RawSignal): number => {
  const base = baseTier(s)
  // A dated item of a list (posts, events, related stories) ranks with related content.
  if (s.listItem && base >= 2 && base < 5.5) return 5.5
  // Within its tier, a date the text introduces as the publication ("Veröffentlicht am", "Posted
  // on") comes before dates that say nothing of what they are (an event's date, a list item's).
  return s.published && base >= 4 && base <= 6 && s.source.startsWith("text") ? base - 0.1 : base
}

const baseTier = (s: RawSignal): number => {
  if (s.source === "last-modified-header") return 99 // a server stamp, never a publication date
  if (s.region === "comment") return 99 // a reader's comment is never the page's date
  if (s.region === "copyright") return 12 // a full date in a copyright line: the very last resort (years alone are never dates)
  if (s.region === "boilerplate") {
    if ((s.source.startsWith("time-element") || s.source === "text:date-element" || s.source === "abbr-element") && s.type !== "modified") return 5.5
    return 9
  }
  if (s.source === "url") return 0
  if (s.source === "json-ld:uploadDate") return 5
  if (weakMeta.has(s.source)) return 4.5
  if (structuredPublished(s)) return 1
  if (s.type === "created" && (s.source.startsWith("json-ld") || s.source.startsWith("meta") || s.source.startsWith("microdata"))) return 5
  if (s.source.startsWith("time-element") || s.source === "abbr-element") {
    if (s.type === "modified") return 7
    return s.hinted ? 2 : 3
  }
  if (s.source === "text:date-element") return s.type === "modified" ? 7 : 4
  // An event or a deadline named in the text ("due 27.10.2009", "Anmeldeschluss: …") is no page date.
  if (s.event && (s.source === "text" || s.source === "text:date-element")) return 8
  if (s.source === "text") return s.type === "modified" ? 7 : 6
  // A date link in the article's own date element ("Posted on <a>5 March 2024</a>", linking to the
  // day's archive) reads as a dateline, as a date element's text does; other link dates are teasers.
  if (s.source === "text:link") return s.hinted && s.type !== "modified" ? 4 : 8
  if (s.source === "source:json-key") return 10
  if (s.source === "source:pattern") return 11
  if (s.type === "modified") return 7
  return 8
}

export const selectDates = (raw: ReadonlyArray<RawSignal>, nowMs: number): Selection => {
  const discarded: Array<{ source: string; reason: string }> = []
  const signals: Array<Signal> = []
  for (const r of raw) {
    let date = r.date
    if (r.relativeDays !== undefined) date = fromEpoch(nowMs - r.relativeDays * 86400000)
    const t = toEpoch(date)
    if (t < MIN_DATE_MS) {
      discarded.push({ source: r.source, reason: "before the web (1991)" })
      continue
    }
    if (t > nowMs + FUTURE_SKEW_MS) {
      discarded.push({ source: r.source, reason: "in the future" })
      continue
    }
    if (r.source === "url:year-month") continue
    signals.push({ source: r.source, type: r.type, date, order: r.order, region: r.region, hinted: r.hinted ?? false, tier: publishTier(r), ...(r.pageUpdate ? { pageUpdate: true } : {}) })
  }
  const yearMonth = raw.find((r) => r.source === "url:year-month")

  // Publication date.
  let publish: Signal | null = null
  const byTier = signals.filter((s) => s.tier < 99).sort((a, b) => a.tier - b.tier || a.order - b.order)
  const best = byTier[0]
  if (best) {
    if (best.tier === 1) {
      // Several structured dates: prefer the earliest (updates re-stamp some of them).
      const same = byTier.filter((s) => s.tier === 1)
      publish = shownStructured(same, signals)
      publish = localStatement(publish, same)
      {
        // A visible dateline one day off the structured stamp: the stamp was converted to another
        // time zone (usually UTC); the page states its own calendar day.
        const p = publish
        const hour = p.date.time ? Number(p.date.time.slice(0, 2)) : -1
        const utc = p.date.offset === "Z" || p.date.offset === "+00:00"
        const updates = signals.filter((s) => s.type === "modified" && s.tier < 99 && !offPage(s) && s.source !== "text:relative")
        // A visible dateline that states the stamp's own day confirms it: a neighbouring day shown
        // elsewhere is another item's (a related story's), not the stamp in local time.
        const confirmed = signals.some((s) => s.tier >= 2 && s.tier <= 4 && s.type !== "modified" && dayKey(s.date) === dayKey(p.date))
        const near = !utc || hour < 0 || confirmed ? undefined : signals.find((s) => {
          if (s.tier < 2 || s.tier > 4) return false
          // With a time of its own, the dateline must state the same moment (same minutes; time
          // zones shift whole hours, a few by half an hour): another time is another event, often the update.
          if (s.date.time && p.date.time && !sameMinute(s.date.time, p.date.time)) return false
          // The day of a later update is not the stamp's local day.
          if (updates.some((m) => dayKey(m.date) === dayKey(s.date) && toEpoch(m.date) - toEpoch(p.date) > 6 * 3600_000)) return false
          const diff = toEpochDay(s.date) - toEpochDay(p.date)
          return (diff === 1 && hour >= 18) || (diff === -1 && hour < 8)
        })
        if (near) publish = near
      }
      publish = visibleOverride(publish, signals)
      publish = shownUpdate(publish, signals)
    } else if (best.tier === 0) {
      // The URL day is set when the story is filed; a structured date one day later is the day it went out.
      const stamp = byTier.find((s) => s.tier === 1)
      const local = stamp !== undefined && stamp.date.time !== undefined && stamp.date.offset !== undefined && stamp.date.offset !== "Z" && stamp.date.offset !== "+00:00"
      const nextDay = stamp !== undefined && toEpochDay(stamp.date) - toEpochDay(best.date) === 1
      const shownStamp = nextDay && signals.some((s) => isVisible(s) && dayKey(s.date) === dayKey(stamp!.date)) &&
        !signals.some((s) => isVisible(s) && dayKey(s.date) === dayKey(best.date))
      publish = stamp && nextDay && (local || shownStamp) ? stamp : best
    } else if (best.tier >= 4 && best.tier <= 6) {
      publish = pickByAgreement(byTier.filter((s) => s.tier >= 4 && s.tier <= 6), yearMonth?.date)
    } else if (best.tier === 11) {
      // Raw source dates: the most frequent day (ties to the earliest).
      const counts = new Map<string, { s: Signal; n: number }>()
      for (const c of byTier) if (c.tier === 11) {
        const k = dayKey(c.date)
        const e = counts.get(k)
        if (e) e.n++
        else counts.set(k, { s: c, n: 1 })
      }
      publish = [...counts.values()].sort((a, b) => b.n - a.n || toEpoch(a.s.date) - toEpoch(b.s.date))[0].s
    } else {
      publish = best
    }
  }

  if (publish) publish = updateDateline(publish, signals)
  if (publish) publish = pageUpdateLine(publish, signals)
  if (publish) publish = indexPage(publish, signals)

  // Modification date: structured modified, then Last-Modified, then text "updated".
  const mods = signals.filter((s) => s.type === "modified" && !offPage(s))
  const modRank = (s: Signal) =>
    s.source.startsWith("json-ld") || s.source.startsWith("microdata") || s.source.startsWith("rdfa:") ? 0
      : s.source.startsWith("meta:") ? 1
      : s.source.startsWith("time") ? 2
      : s.source === "text:relative" ? 3
      : s.source.startsWith("text") ? 4
      : s.source === "last-modified-header" ? 5
      : 6
  const modified = mods.sort((a, b) => modRank(a) - modRank(b) || a.order - b.order)[0] ?? null
  return { signals, publish, modified, discarded }
}

/** Among text dates: the year-month from the URL wins, else the earliest date of the best-hinted group. */
const pickByAgreement = (cands: ReadonlyArray<Signal>, ym: DayDate | undefined): Signal | null => {
  if (cands.length === 0) return null
  if (ym) {
    const match = cands.find((c) => c.date.y === ym.y && c.date.m === ym.m)
    if (match) return match
  }
  const top = cands[0].tier
  const group = cands.filter((c) => c.tier === top)
  return group[0]
}

/**
 * The dateline a reader sees beats a structured stamp it contradicts when the visible date is
 * corroborated (by a second visible signal or by a structured modification date) and nothing
 * visible supports the stamp.
 */
const visibleOverride = (p: Signal, signals: ReadonlyArray<Signal>): Signal => {
  const pk = dayKey(p.date)
  const visible = signals.filter((s) => s.tier >= 2 && s.tier <= 4 && s.type !== "modified")
  if (visible.some((v) => dayKey(v.date) === pk)) return p
  if (visible.length === 0) return p
  const first = visible.sort((a, b) => a.order - b.order)[0]
  const k = dayKey(first.date)
  // Only a later visible date: earlier ones are usually a teaser or a related item above the article.
  if (toEpochDay(first.date) <= toEpochDay(p.date)) return p
  const corroborated =
    (visible.filter((v) => dayKey(v.date) === k).length >= 2) ||
    (signals.some((s) => s.type === "modified" && !offPage(s) && s.source !== "text:relative" && dayKey(s.date) === k))
  return corroborated ? first : p
}

const isVisible = (s: Signal) =>
  s.region !== "comment" && s.region !== "copyright" &&
  (s.source.startsWith("text:date-element") || s.source.startsWith("time-element") || s.source === "abbr-element" || s.source === "title-attribute" || s.source === "text")

/**
 * A page that shows only its update date: the structured modification date is later than the
 * structured publication date, a visible date on the page states the modification day, and
 * nothing visible states the publication day. Readers (and annotators) date such a page by the
 * day it shows.
 */
const shownUpdate = (p: Signal, signals: ReadonlyArray<Signal>): Signal => {
  const pk = dayKey(p.date)
  const visible = signals.filter(isVisible)
  if (visible.some((v) => dayKey(v.date) === pk)) return p
  const mod = signals.find((s) => s.type === "modified" && (s.source.startsWith("json-ld") || s.source.startsWith("meta:") || s.source.startsWith("microdata")) && toEpochDay(s.date) > toEpochDay(p.date))
  if (!mod) return p
  const mk = dayKey(mod.date)
  const shown = visible.find((v) => dayKey(v.date) === mk)
  return shown ?? p
}

const toEpochDay = (d: DayDate) => Math.round(Date.UTC(d.y, d.m - 1, d.d) / 86400000)

/**
 * Several structured publication dates on different days (a CMS's created stamp beside the
 * article's datePublished): the one whose day the page's first visible dateline states is the
 * page's; otherwise the first in document order.
 */
export const shownStructured = (structured: ReadonlyArray<Signal>, signals: ReadonlyArray<Signal>): Signal => {
  const first = structured[0]
  if (structured.every((s) => dayKey(s.date) === dayKey(first.date))) return first
  const line = signals.filter((v) => v.tier >= 2 && v.tier <= 4 && v.type !== "modified").sort((a, b) => a.order - b.order)[0]
  return line === undefined ? first : structured.find((s) => dayKey(s.date) === dayKey(line.date)) ?? first
}

const isUtc = (d: DayDate) => d.offset === "Z" || d.offset === "+00:00"
/**
 * The same instant stated twice, once in UTC and once with the publisher's own offset, on two
 * different calendar days: the page's day is the local one.
 */
export const localStatement = (p: Signal, structured: ReadonlyArray<Signal>): Signal => {
  if (!p.date.time || !p.date.offset || !isUtc(p.date)) return p
  const t = toEpoch(p.date)
  const local = structured.find((s) => s.date.time !== undefined && s.date.offset !== undefined && !isUtc(s.date) &&
    Math.abs(toEpoch(s.date) - t) <= 60_000 && dayKey(s.date) !== dayKey(p.date))
  return local ?? p
}


/**
 * A page whose only dateline says when it was updated ("Stand: 30.12.2016", "Updated June 13,
 * 2019"), chosen over a weak publication candidate (a generic or created meta date that nothing
 * visible states, a related-content date, a date in running text): the dateline is the date
 * readers see for the page.
 */
export const updateDateline = (p: Signal, signals: ReadonlyArray<Signal>): Signal => {
  if (p.tier < 4.5 || p.tier > 6) return p
  const line = signals.find((s) => s.type === "modified" && s.region === "main" && s.hinted &&
    (s.source === "text:date-element" || s.source.startsWith("time-element")) && toEpochDay(s.date) > toEpochDay(p.date))
  if (!line) return p
  if (p.tier < 5.5 && signals.some((s) => isVisible(s) && s.region === "main" && dayKey(s.date) === dayKey(p.date))) return p
  return line
}

/**
 * A page whose strongest publication candidate is weak (a date in running text, a related item's,
 * a modification or link date, the source) but which states its own last change ("Last updated on
 * Mar 03, 2022" under a documentation page, "This page was last edited on 3 March 2023", "last
 * change: 06.10.2009"): that statement dates the page; the other dates are what the text is about.
 */
export const pageUpdateLine = (p: Signal, signals: ReadonlyArray<Signal>): Signal => {
  if (p.tier < 5.5) return p
  return signals.find((s) => s.pageUpdate && s.region !== "comment" && s.tier < 99) ?? p
}

/**
 * An index page (a blog's home, a category page): no dateline of its own, the main content a run
 * of posts whose dates are links to them (four or more, on three or more days). Its best text date
 * is some post's excerpt; the page is dated by the post on top, the first date link. When the text
 * date is itself one of the listed days, the page is that post (a ticker above it lists it too).
 */
export const indexPage = (p: Signal, signals: ReadonlyArray<Signal>): Signal => {
  if (p.tier < 6 || p.pageUpdate) return p
  const links = signals.filter((s) => s.source === "text:link" && s.region === "main" && s.type === "published").sort((a, b) => a.order - b.order)
  const days = new Set(links.map((s) => dayKey(s.date)))
  if (links.length < 4 || days.size < 3 || days.has(dayKey(p.date))) return p
  return links[0]
}

const sameMinute = (a: string, b: string) => {
  const ma = Number(a.slice(3, 5)), mb = Number(b.slice(3, 5))
  return ma === mb || Math.abs(ma - mb) === 30 || Math.abs(ma - mb) === 15 || Math.abs(ma - mb) === 45
}
