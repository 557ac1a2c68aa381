/** What the extraction steps produce and share. */
import type { DateType, DayDate } from "../parse/dates"

export interface RawSignal {
  readonly source: string
  readonly type: DateType
  readonly date: DayDate
  /** Document order of the finding (text position for text signals). */
  readonly order: number
  /** Where it was found: "head", "structured", "main", "boilerplate", "comment" (reader comments: never the page's date). */
  readonly region: "head" | "structured" | "main" | "boilerplate" | "comment" | "copyright"
  /** For text and time signals: the element carries a date-ish class, id or itemprop. */
  readonly hinted?: boolean
  /** Text introduced as the page's own last change ("Last updated on", "last edited on", "letzte Änderung"). */
  readonly pageUpdate?: boolean
  /** The list (<ul>/<ol>) the date sits in, when it sits in one. */
  readonly list?: number
  /** Set after extraction: one of the dated items of a list (two or more published days in one list). */
  readonly listItem?: boolean
  /** Text introduced as the publication ("Published", "Veröffentlicht am", "Publié le", "投稿日"). */
  readonly published?: boolean
  /** Text introduced as an event or a deadline ("due", "until", "bis", "Anmeldeschluss"): not the page's date. */
  readonly event?: boolean
  /** Relative expression: days before "now" (resolved by the analysis, which owns the clock). */
  readonly relativeDays?: number
  readonly raw?: string
}

export interface Extraction {
  readonly signals: ReadonlyArray<RawSignal>
  /** Highest year of a copyright line, when present (a trap, and a hint of maintenance). */
  readonly copyrightYear: number | null
  readonly title: string | null
}

/** The region an element sits in, inherited by its descendants. */
export interface Ctx {
  boiler: boolean
  comment: boolean
  hinted: boolean
  link: boolean
  /** Inside <article> or <main> or a main-like container. */
  main: boolean
  /** Inside <article>, <main> or an article/post/entry/story container (narrower than main). */
  article: boolean
  /** Inside an element whose class names a modification (`updated`, `date-modified`, `change-date`). */
  modified?: boolean
  /** The nearest enclosing <ul>/<ol> (a number per list on the page), 0 outside lists. */
  list?: number
}

/** Adds a signal; without `order`, the next document position is given. */
export type Push = (s: Omit<RawSignal, "order"> & { order?: number }) => void
