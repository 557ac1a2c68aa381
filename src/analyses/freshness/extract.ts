/**
 * Date signal extraction from an HTML page (parse5 tree) and its URL. Pure.
 * Every signal carries its source, its type (published, modified, created), where it was found
 * and whether it sits in a region that usually carries someone else's date (comments, related
 * links, footers).
 *
 * Steps, in document order: the URL, the tree walk (meta tags: signals/meta.ts; microdata and
 * time elements: signals/elements.ts; regions: signals/regions.ts; text collected in runs), then
 * JSON-LD (scripts.ts), the text runs (signals/text.ts), and a scan of the source (scripts.ts).
 */
import { defaultTreeAdapter, parse } from "parse5"
import type { DefaultTreeAdapterMap } from "parse5"
import { type NumericOrder, urlDate } from "./parse/dates"
import { extractJsonLd, scanSource } from "./scripts"
import { microdataSignal, rdfaSignal, timeSignal } from "./signals/elements"
import { metaSignal } from "./signals/meta"
import { attr, blockTags, enter, sameCtx, skipTags } from "./signals/regions"
import { type TextPart, textSignals } from "./signals/text"
import type { Ctx, Extraction, Push, RawSignal } from "./signals/types"

type Node = DefaultTreeAdapterMap["node"]
type Element = DefaultTreeAdapterMap["element"]
type ChildNode = DefaultTreeAdapterMap["childNode"]

/** The text of an element's own text children (a <title>, a <script>). */
const ownText = (nodes: ReadonlyArray<ChildNode>) => nodes.map((c) => (defaultTreeAdapter.isTextNode(c) ? c.value : "")).join("")

export type { DateType } from "./parse/dates"
export { shownDay } from "./signals/elements"
export { DATELINE_SLACK, isDateline, MAX_DATELINES } from "./signals/text"
export type { Extraction, RawSignal } from "./signals/types"

/**
 * How the page writes all-numeric dates: month first when some date on it can only be read month
 * first (04/15/2019, 03-15-2011) and none only day first, or, with no such evidence, when the page
 * declares US English. Dotted dates (12.03.2024) are always day first.
 */
export const numericOrder = (html: string, lang: string): NumericOrder => {
  let monthFirst = 0, dayFirst = 0
  const re = /(?<![\d/.-])(\d{1,2})([/-])(\d{1,2})\2(?:19|20)\d{2}(?!\d)/g
  let g: RegExpExecArray | null
  let n = 0
  while ((g = re.exec(html)) !== null && n++ < 200) {
    const a = Number(g[1]), b = Number(g[3])
    if (a <= 12 && b > 12 && b <= 31) monthFirst++
    else if (a > 12 && a <= 31 && b <= 12) dayFirst++
  }
  return { monthFirst: monthFirst > dayFirst || (monthFirst === 0 && dayFirst === 0 && /^en-us$/i.test(lang.trim())) }
}

/**
 * A list (<ul>/<ol>) whose items carry two or more different publication days is a list of
 * things (posts, events, related stories), not the page's byline: its dates are list items. A
 * byline written as a list (`<ul class="meta"><li>Published …</li><li>Updated …</li></ul>`) has
 * one publication day and stays a dateline.
 */
export const markListItems = (signals: ReadonlyArray<RawSignal>): Array<RawSignal> => {
  const days = new Map<number, Set<string>>()
  for (const s of signals) {
    if (s.list === undefined || s.type !== "published") continue
    const set = days.get(s.list) ?? new Set<string>()
    set.add(`${s.date.y}-${s.date.m}-${s.date.d}`)
    days.set(s.list, set)
  }
  return signals.map((s) => (s.list !== undefined && (days.get(s.list)?.size ?? 0) >= 2 ? { ...s, listItem: true } : s))
}

/** Extracts every date signal of a page. `html` should already be capped by the caller. */
export const extractSignals = (html: string, url: string): Extraction => {
  const doc = parse(html, { scriptingEnabled: false })
  const signals: Array<RawSignal> = []
  let order = 0
  let title: string | null = null
  const push: Push = (s) => signals.push({ ...s, order: s.order ?? order++ })

  const u = urlDate(url)
  if (u) push({ source: u.complete ? "url" : "url:year-month", type: "published", date: u.date, region: "structured" })

  const ldBlocks: Array<string> = []
  // Each text part keeps its place in the document, so its dates sort among the elements' dates.
  const textParts: Array<TextPart> = []
  let buf = ""
  let bufCtx: Ctx | null = null
  const flush = () => {
    if (bufCtx && buf.trim().length > 0) textParts.push({ text: buf, ctx: bufCtx, pos: order++ })
    buf = ""
    bufCtx = null
  }

  let lang = ""
  let lists = 0
  const visit = (node: Node, ctx: Ctx, depth: number): void => {
    if (depth > 400) return
    if (defaultTreeAdapter.isTextNode(node)) {
      const v = node.value
      if (bufCtx && !sameCtx(bufCtx, ctx)) flush()
      bufCtx = ctx
      buf += v
      if (buf.length > 4000) flush()
      return
    }
    if (node.nodeName === "#comment") return
    if (!defaultTreeAdapter.isElementNode(node)) {
      // The document and its fragments: walk their children.
      if ("childNodes" in node) for (const k of node.childNodes) visit(k, ctx, depth + 1)
      return
    }
    const el = node
    const tag = el.tagName
    if (tag === "html") lang = attr(el, "lang") ?? ""
    if (tag === "meta") {
      metaSignal(el, push)
      return
    }
    if (tag === "title" && title === null) {
      title = ownText(el.childNodes).trim().slice(0, 300)
      return
    }
    if (tag === "script") {
      const type = (attr(el, "type") ?? "").toLowerCase()
      if (type.includes("ld+json")) ldBlocks.push(ownText(el.childNodes))
      return
    }
    if (skipTags.has(tag)) return
    const cls = `${attr(el, "class") ?? ""} ${attr(el, "id") ?? ""}`
    const itemprop = (attr(el, "itemprop") ?? "").toLowerCase()
    const entered = enter(tag, cls, itemprop, ctx)
    const { region, hinted, comment } = entered
    const next = tag === "ul" || tag === "ol" ? { ...entered.next, list: ++lists } : entered.next
    microdataSignal(el, itemprop, comment, push)
    rdfaSignal(el, comment, push)
    timeSignal(el, tag, cls, region, hinted, ctx.list ? (s) => push({ ...s, list: ctx.list }) : push)
    const isBlock = blockTags.has(tag)
    if (isBlock) flush()
    // Inline elements side by side (`<span>Jan Nowak</span><span>23 listopada 2020</span>`) are
    // set apart on screen by styling: a space keeps their words from running together.
    else if (buf.length > 0 && !/\s$/.test(buf)) buf += " "
    for (const k of el.childNodes) visit(k, next, depth + 1)
    if (el.tagName === "template") return
    if (isBlock) flush()
    else if (buf.length > 0 && !/\s$/.test(buf)) buf += " "
  }

  visit(doc, { boiler: false, comment: false, hinted: false, link: false, main: false, article: false }, 0)
  flush()

  // JSON-LD
  for (const block of ldBlocks) extractJsonLd(block, (source, type, date, inArticle) =>
    push({ source, type, date, region: inArticle ? "structured" : "boilerplate" }))
  const copyrightYear = textSignals(textParts, push, numericOrder(html, lang))
  // Last resort, like a reader searching the source: dates in scripts, attributes and file names.
  scanSource(html, (date, source, type) => push({ source, type, date, region: "main" }))
  return { signals: markListItems(signals), copyrightYear, title }
}
