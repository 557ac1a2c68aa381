/**
 * Date signal extraction from an HTML page (parse5 tree) and its URL. Pure.
 * Every signal carries its source, its type (published, modified, created), where it was found
 * and whether it sits in a region that usually carries someone else's date (comments, related
 * links, footers).
 */
import { parse } from "parse5"
import type { DefaultTreeAdapterMap } from "parse5"
import { type DateType, type DayDate, findRelative, findTextDates, parseStructured, urlDate } from "./dates"
import { extractJsonLd, scanSource } from "./scripts"

type Node = DefaultTreeAdapterMap["node"]
type Element = DefaultTreeAdapterMap["element"]

export type { DateType } from "./dates"

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

/** Meta names/properties (lower case) → (canonical source, type). Order = reliability within the head. */
const metaPublished = [
  "article:published_time", "og:published_time", "og:article:published_time", "article:published", "datepublished",
  "date", "pubdate", "publishdate", "publish-date", "publish_date", "published_time", "published-date", "publication_date",
  "dc.date", "dc.date.issued", "dc.date.created", "dcterms.date", "dcterms.issued", "dcterms.created", "dc.created",
  "citation_publication_date", "citation_date", "citation_online_date", "sailthru.date", "parsely-pub-date",
  "article.published", "article_date_original", "originalpublicationdate", "original-publish-date", "rnews:datepublished",
  "prism.publicationdate", "og:pubdate", "bt:pubdate", "pub_date", "datecreated", "date.created", "created", "release_date",
  "dc.date.published", "article.created", "cxenseparse:recs:publishtime", "displaydate", "date_published", "published",
  "article:post_date", "news_keywords_date", "dateposted", "og:regdate", "sp.publicationdate", "ptime", "publish_time",
  "dc:date", "dcterms:created", "dcterms:issued", "article_published_time", "pub-date", "publication-date", "mediator_published_time"
]
const metaModified = [
  "article:modified_time", "og:updated_time", "og:modified_time", "article:modified", "datemodified", "revised",
  "last-modified", "lastmod", "lastmodified", "last_modified", "dc.date.modified", "dcterms.modified", "modified",
  "updated_time", "article:updated_time", "dateupdated", "date_modified", "og:article:modified_time", "dcterms:modified",
  "utime", "article.updated", "sailthru.lastmodified", "modified_time", "update_time", "parsely-updated-date"
]
const metaCanonical: Record<string, string> = {
  "article:published_time": "meta:article:published_time",
  "article:modified_time": "meta:article:modified_time",
  "og:updated_time": "meta:og:updated_time",
  "og:published_time": "meta:og:published_time",
  "date": "meta:date",
  "revised": "meta:revised"
}
const metaRank = new Map<string, { type: DateType; rank: number }>()
metaPublished.forEach((n, i) => metaRank.set(n, { type: /creat/.test(n) && !/dc\.date\.created|dcterms/.test(n) ? "created" : "published", rank: i }))
metaModified.forEach((n, i) => metaRank.set(n, { type: "modified", rank: i }))

const attr = (el: Element, name: string): string | undefined => {
  for (const a of el.attrs) if (a.name === name) return a.value
  return undefined
}

const skipTags = new Set(["script", "style", "noscript", "template", "svg", "iframe", "select", "option", "textarea", "canvas", "button"])
const blockTags = new Set(["p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "aside", "nav", "main", "ul", "ol", "dl", "dt", "dd", "table", "br", "blockquote", "figure", "figcaption", "form", "address", "body", "pre", "hr"])

const hintRe = /(?:^|[\s_-])(?:date|datum|time|zeit|fecha|data|publish|published|publication|publicado|pubdate|posted|post-?meta|entry-?meta|byline|dateline|meta|info|timestamp|submitted|created|updated|article-?header|author|stand(?![a-z])|veroeffentlicht|erschienen|calendar)|date|datum|publish|posted|byline|timestamp/i
/** Class tokens that contain a hint word but name no date: a post's status (WordPress `status-publish`). */
const notHintRe = /(?:^|\s)(?:status-publish(?:ed)?|post-status-\S*)(?=\s|$)/gi
/** Characters besides the date that a block may hold and still be a dateline ("Posted on", "Stand:"). */
export const DATELINE_SLACK = 24
/** More standalone dates than this in the main content form a list, not a dateline. */
export const MAX_DATELINES = 3
/** The block's text is one written date and at most a short label. */
export const isDateline = (text: string, found: ReadonlyArray<{ readonly text: string }>) =>
  found.length === 1 && text.trim().length - found[0].text.length <= DATELINE_SLACK
const boilerTags = new Set(["footer", "aside", "nav"])
const boilerRe = /comment|(?:^|[\s_-])aside(?:$|[\s_-])|kommentar|reply|respon|disqus|related|teaser|sidebar|widget|recommend|footer|copyright|newsletter|popular|most-?read|archive|breadcrumb|share|social|promo|trending|navigation|menu|calendar|event|weitere|more-?stories|latest|also|rail|carousel|slider|instagram-media|twitter-tweet|tiktok-embed|fb-post|social-embed/i
const commentRe = /(?:^|\s)(?:comments|commentlist|comment-list|comment-body|comment-content|comment-meta|comment-metadata|commentmetadata|comment-author|comments-area|comment-respond|comment-thread|comment-item|comment|disqus_thread|dsq-comment|kommentare|user-comments)(?:$|\s)/i
const articleRe = /(?:^|[\s_-])(?:article|post|entry|story)/i
const mainRe = /(?:^|[\s_-])(?:article|post|entry|story|content|main|body|text|blog)/i

/**
 * The site's masthead: a <header> outside the article and main content that is not itself an
 * article header. Its date is the day of the visit ("Tuesday, 14 January 2020"), not the page's.
 */
const siteHeader = (tag: string, cls: string, ctx: Ctx) =>
  (tag === "header" || mastheadRe.test(cls)) && !ctx.article && !(cls.length > 1 && (mainRe.test(cls) || hintRe.test(cls)))
const mastheadRe = /(?:^|\s)(?:header|masthead|site-?header|page-?header|header-?container|header-?wrapper|top-?bar)(?:\s|$)/i

interface Ctx {
  boiler: boolean
  comment: boolean
  hinted: boolean
  link: boolean
  /** Inside <article> or <main> or a main-like container. */
  main: boolean
  /** Inside <article>, <main> or an article/post/entry/story container (narrower than main). */
  article: boolean
}

/** Extracts every date signal of a page. `html` should already be capped by the caller. */
export const extractSignals = (html: string, url: string): Extraction => {
  const doc = parse(html, { scriptingEnabled: false })
  const signals: Array<RawSignal> = []
  let order = 0
  let copyrightYear: number | null = null
  let title: string | null = null
  const push = (s: Omit<RawSignal, "order"> & { order?: number }) => signals.push({ ...s, order: s.order ?? order++ })

  const u = urlDate(url)
  if (u) push({ source: u.complete ? "url" : "url:year-month", type: "published", date: u.date, region: "structured" })

  const ldBlocks: Array<string> = []
  // Each text part keeps its place in the document, so its dates sort among the elements' dates.
  const textParts: Array<{ text: string; ctx: Ctx; pos: number }> = []
  let buf = ""
  let bufCtx: Ctx | null = null
  const flush = () => {
    if (bufCtx && buf.trim().length > 0) textParts.push({ text: buf, ctx: bufCtx, pos: order++ })
    buf = ""
    bufCtx = null
  }
  const sameCtx = (a: Ctx, b: Ctx) => a.boiler === b.boiler && a.comment === b.comment && a.hinted === b.hinted && a.link === b.link && a.main === b.main && a.article === b.article

  const visit = (node: Node, ctx: Ctx, depth: number): void => {
    if (depth > 400) return
    if (node.nodeName === "#text") {
      const v = (node as DefaultTreeAdapterMap["textNode"]).value
      if (bufCtx && !sameCtx(bufCtx, ctx)) flush()
      bufCtx = ctx
      buf += v
      if (buf.length > 4000) flush()
      return
    }
    if (node.nodeName === "#comment") return
    if (!("tagName" in node)) {
      const kids = (node as any).childNodes as Array<Node> | undefined
      if (kids) for (const k of kids) visit(k, ctx, depth + 1)
      return
    }
    const el = node as Element
    const tag = el.tagName
    if (tag === "meta") {
      handleMeta(el)
      return
    }
    if (tag === "title" && title === null) {
      title = el.childNodes.map((c) => (c as any).value ?? "").join("").trim().slice(0, 300)
      return
    }
    if (tag === "script") {
      const type = (attr(el, "type") ?? "").toLowerCase()
      if (type.includes("ld+json") || type.includes("json")) {
        const text = el.childNodes.map((c) => (c as any).value ?? "").join("")
        if (type.includes("ld+json")) ldBlocks.push(text)
      }
      return
    }
    if (skipTags.has(tag)) return
    const cls = `${attr(el, "class") ?? ""} ${attr(el, "id") ?? ""}`
    const itemprop = (attr(el, "itemprop") ?? "").toLowerCase()
    let next = ctx
    // Classes on <html> and <body> describe the whole page's layout ("no-sidebars", "has-comments"):
    // they mark no region.
    const layout = tag === "body" || tag === "html"
    const boiler = ctx.boiler || boilerTags.has(tag) || (!layout && cls.length > 1 && boilerRe.test(cls)) || siteHeader(tag, cls, ctx)
    const hinted = ctx.hinted || (cls.length > 1 && hintRe.test(cls.replace(notHintRe, " "))) || itemprop.startsWith("date")
    const link = ctx.link || tag === "a"
    const main = ctx.main || tag === "article" || tag === "main" || (cls.length > 1 && mainRe.test(cls) && !boiler)
    const article = ctx.article || tag === "article" || tag === "main" || (cls.length > 1 && articleRe.test(cls))
    const comment = ctx.comment || (!layout && cls.length > 1 && commentRe.test(cls))
    if (boiler !== ctx.boiler || hinted !== ctx.hinted || link !== ctx.link || main !== ctx.main || comment !== ctx.comment || article !== ctx.article) next = { boiler, comment, hinted, link, main, article }
    const region: RawSignal["region"] = comment ? "comment" : boiler ? "boilerplate" : "main"

    if (itemprop === "datepublished" || itemprop === "datemodified" || itemprop === "datecreated" || itemprop === "uploaddate") {
      const v = attr(el, "content") ?? attr(el, "datetime")
      const d = v ? parseStructured(v) : undefined
      if (d) {
        const type: DateType = itemprop === "datemodified" ? "modified" : itemprop === "datecreated" ? "created" : "published"
        push({ source: `microdata:${itemprop === "datepublished" ? "datePublished" : itemprop === "datemodified" ? "dateModified" : itemprop === "uploaddate" ? "uploadDate" : "dateCreated"}`, type, date: d, region: comment ? "comment" : "structured" })
      }
    }
    const hatom = /(?:^|\s)(?:published|updated|entry-date|dtstart|post-date|tweet-timestamp|timestamp)(?:\s|$)/i.test(cls)
    if (tag === "time" || tag === "abbr" || (hatom && (attr(el, "title") !== undefined || attr(el, "datetime") !== undefined))) {
      const v = attr(el, "datetime") ?? (tag !== "time" ? attr(el, "title") : undefined)
      const stamp = v ? parseStructured(v) : undefined
      const d = stamp && tag === "time" ? shownDay(stamp, textOf(el)) : stamp
      if (d && v && /\d{4}/.test(v)) {
        const clsl = cls.toLowerCase()
        const type: DateType = /updated|modified|aktualisiert/.test(clsl) && !/published/.test(clsl) ? "modified" : "published"
        const pub = attr(el, "pubdate") !== undefined || /published|entry-date|pubdate|post-date/.test(clsl)
        push({ source: tag === "time" ? (pub ? "time-element:pubdate" : "time-element") : tag === "abbr" ? "abbr-element" : "title-attribute", type, date: d, region, hinted: hinted || pub })
      }
    }
    const isBlock = blockTags.has(tag)
    if (isBlock) flush()
    for (const k of el.childNodes) visit(k, next, depth + 1)
    if (el.tagName === "template") return
    if (isBlock) flush()
  }

  const handleMeta = (el: Element) => {
    const content = attr(el, "content") ?? attr(el, "value")
    if (!content) return
    const keys = [attr(el, "property"), attr(el, "name"), attr(el, "itemprop"), attr(el, "http-equiv")]
    const httpEquiv = (attr(el, "http-equiv") ?? "").toLowerCase()
    for (const k of keys) {
      if (!k) continue
      const key = k.toLowerCase().trim()
      const info = metaRank.get(key)
      if (!info) continue
      const d = parseStructured(content)
      if (!d) return
      const source = httpEquiv === key && key === "last-modified"
        ? "meta:http-equiv:last-modified"
        : metaCanonical[key] ?? `meta:${key}`
      push({ source, type: info.type, date: d, region: "head", raw: content })
      return
    }
  }

  visit(doc, { boiler: false, comment: false, hinted: false, link: false, main: false, article: false }, 0)
  flush()

  // JSON-LD
  for (const block of ldBlocks) extractJsonLd(block, (source, type, date, inArticle) =>
    push({ source, type, date, region: inArticle ? "structured" : "boilerplate" }))

  // Text: copyright lines, relative expressions, written dates.
  const parts = textParts.map((part) => {
    const text = part.text.replace(/\s+/g, " ")
    const found = findTextDates(text, 40)
    return { part, text, found, dateline: isDateline(text, found) && !part.ctx.link && !part.ctx.hinted && !part.ctx.boiler && !part.ctx.comment }
  })
  // A block whose whole text is one date is a dateline, as telling as an element whose class says
  // "date"; many of them are a list (an archive, results, events), which tells nothing.
  const datelines = parts.filter((p) => p.dateline).length <= MAX_DATELINES
  // Date links in date elements of the main content: a dateline linking to its archive, unless
  // there are many (a list of publications or posts).
  const linkLines = parts.filter((p) => p.part.ctx.link && p.part.ctx.hinted && !p.part.ctx.boiler && !p.part.ctx.comment && p.found.length > 0).length <= MAX_DATELINES
  for (const { part, text, found, dateline: alone } of parts) {
    const dateline = alone && datelines
    let sub = 0
    const at = () => part.pos + (sub++) / 100
    const copy = /©|\(c\)|opyright/i.test(text) ? /(?:©|\(c\)|copyright)\s*(?:\d{4}\s*[-–]\s*)?((?:19|20)\d{2})/i.exec(text) : null
    if (copy) {
      const y = Number(copy[1])
      if (copyrightYear === null || y > copyrightYear) copyrightYear = y
    }
    const region: RawSignal["region"] = part.ctx.comment ? "comment" : part.ctx.boiler ? "boilerplate" : "main"
    for (const r of findRelative(text)) {
      push({ source: "text:relative", type: r.kind, date: { y: 1970, m: 1, d: 1 }, region, relativeDays: r.days, raw: r.text, order: at() })
    }
    for (const f of found) {
      // Copyright lines are traps: flagged so selection uses them only as the very last resort.
      const before = text.slice(Math.max(0, f.index - 40), f.index)
      const isCopyright = /©|copyright|\(c\)/i.test(before)
      const lower = before.toLowerCase()
      const type: DateType = /(updated|aktualisiert|modified|geändert|actualizado|mis à jour|mise à jour|last edited|stand)\s*:?\s*(am|on|le|el)?\s*$/.test(lower) ? "modified" : "published"
      push({
        source: part.ctx.link ? "text:link" : part.ctx.hinted || dateline ? "text:date-element" : "text",
        type,
        date: f.date,
        region: isCopyright ? "copyright" : region,
        hinted: part.ctx.link ? part.ctx.hinted && linkLines && region === "main" : part.ctx.hinted || dateline,
        raw: f.text,
        order: at()
      })
    }
  }
  // Last resort, like a reader searching the source: dates in scripts, attributes and file names.
  scanSource(html, (date, source, type) => push({ source, type, date, region: "main" }))
  return { signals, copyrightYear, title }
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
