/** Dates that elements carry: schema.org microdata (itemprop), <time>, <abbr> and hAtom-style classes. */
import type { DefaultTreeAdapterMap } from "parse5"
import { type DateType, type DayDate, findTextDates, parseStructured } from "../parse/dates"
import { attr, modifiedClass } from "./regions"
import type { Push, RawSignal } from "./types"

type Node = DefaultTreeAdapterMap["node"]
type Element = DefaultTreeAdapterMap["element"]

/** itemprop="datePublished|dateModified|dateCreated|uploadDate" with a content or datetime attribute. */
export const microdataSignal = (el: Element, itemprop: string, comment: boolean, push: Push) => {
  if (itemprop === "datepublished" || itemprop === "datemodified" || itemprop === "datecreated" || itemprop === "uploaddate") {
    const v = attr(el, "content") ?? attr(el, "datetime")
    const d = v ? parseStructured(v) : undefined
    if (d) {
      const type: DateType = itemprop === "datemodified" ? "modified" : itemprop === "datecreated" ? "created" : "published"
      push({ source: `microdata:${itemprop === "datepublished" ? "datePublished" : itemprop === "datemodified" ? "dateModified" : itemprop === "uploaddate" ? "uploadDate" : "dateCreated"}`, type, date: d, region: comment ? "comment" : "structured" })
    }
  }
}

/** RDFa date properties (Drupal 7 writes `<span property="dc:date dc:created" content="…">` around its byline). */
const rdfaDates: ReadonlyArray<readonly [RegExp, DateType, string]> = [
  [/(?:^|\s)(?:dc|dcterms):(?:date|created|issued)(?:\s|$)|(?:^|\s)(?:schema:)?datePublished(?:\s|$)/i, "published", "rdfa:datePublished"],
  [/(?:^|\s)(?:dc|dcterms):modified(?:\s|$)|(?:^|\s)(?:schema:)?dateModified(?:\s|$)/i, "modified", "rdfa:dateModified"]
]

/** An element (not <meta>, read in meta.ts) with an RDFa date property and its content attribute. */
export const rdfaSignal = (el: Element, comment: boolean, push: Push) => {
  const property = attr(el, "property")
  const content = attr(el, "content")
  if (!property || !content) return
  for (const [re, type, source] of rdfaDates) {
    if (!re.test(property)) continue
    const d = parseStructured(content)
    if (d) push({ source, type, date: d, region: comment ? "comment" : "structured" })
    return
  }
}

/**
 * Custom elements that render a <time> (GitHub's relative-time and local-time, time-ago widgets):
 * their datetime attribute is the stamp, their text a rendering of it.
 */
const timeTags = new Set(["time", "relative-time", "local-time", "time-ago"])

/** <time datetime>, <abbr title>, or an hAtom-classed element with a title or datetime. */
export const timeSignal = (el: Element, rawTag: string, cls: string, region: RawSignal["region"], hinted: boolean, push: Push) => {
  const tag = timeTags.has(rawTag) ? "time" : rawTag
  const hatom = /(?:^|\s)(?:published|updated|entry-date|dtstart|post-date|tweet-timestamp|timestamp)(?:\s|$)/i.test(cls)
  if (tag === "time" || tag === "abbr" || (hatom && (attr(el, "title") !== undefined || attr(el, "datetime") !== undefined))) {
    const v = attr(el, "datetime") ?? (tag !== "time" ? attr(el, "title") : undefined)
    const stamp = v ? parseStructured(v) : undefined
    const d = stamp && tag === "time" ? shownDay(stamp, textOf(el)) : stamp
    if (d && v && /\d{4}/.test(v)) {
      const clsl = cls.toLowerCase()
      // A change log's dates (`published-dates__change-date`) are changes, whatever the component is called.
      const type: DateType = modifiedClass(cls) ? "modified" : "published"
      const pub = attr(el, "pubdate") !== undefined || /published|entry-date|pubdate|post-date/.test(clsl)
      push({ source: tag === "time" ? (pub ? "time-element:pubdate" : "time-element") : tag === "abbr" ? "abbr-element" : "title-attribute", type, date: d, region, hinted: hinted || pub })
    }
  }
}

/** The text content of an element (capped). */
const textOf = (el: Element): string => {
  let out = ""
  const walk = (n: Node) => {
    if (out.length > 200) return
    if (n.nodeName === "#text") out += (n as DefaultTreeAdapterMap["textNode"]).value
    else if ("childNodes" in n) for (const k of (n as Element).childNodes) walk(k)
  }
  walk(el)
  return out
}

/**
 * A <time> whose own text states another complete day than its datetime attribute: the text is
 * what the page tells readers (the attribute is often a system or modification stamp, or the
 * same instant in UTC).
 */
export const shownDay = (stamp: DayDate, text: string): DayDate => {
  const found = findTextDates(text, 2)
  if (found.length !== 1) return stamp
  const t = found[0].date
  return t.y === stamp.y && t.m === stamp.m && t.d === stamp.d ? stamp : t
}
