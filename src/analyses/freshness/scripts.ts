/**
 * Dates in a page's scripts and raw source: JSON-LD (objects, arrays, @graph, broken JSON) and,
 * as a last resort, JSON date keys and compact dates anywhere in the source. Pure.
 */
import { type DateType, type DayDate, parseStructured } from "./parse/dates"

const jsonDateKey = /["'](published_?(?:at|date|time|on)?|publishedDate|publishDate|publicationDate|datePublished|pubDate|createdAt|created_at|dateCreated|date|article_publication_date|firstPublished|first_published_at|releaseDate|uploadDate)["']\s*:\s*["']([^"']{8,40})["']/gi
const sourceDate = /(?<![\d])((?:19|20)\d{2})([-/.]?)(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])(?![\d])/g

/** Scans the raw source (scripts, attributes, asset paths) for JSON date keys and compact dates. */
export const scanSource = (html: string, emit: (d: DayDate, source: string, type: DateType) => void) => {
  const src = html.length > 3_000_000 ? html.slice(0, 3_000_000) : html
  let g: RegExpExecArray | null
  jsonDateKey.lastIndex = 0
  let n = 0
  while ((g = jsonDateKey.exec(src)) !== null && n < 50) {
    const d = parseStructured(g[2])
    if (d) {
      emit(d, "source:json-key", /creat/i.test(g[1]) ? "created" : "published")
      n++
    }
  }
  sourceDate.lastIndex = 0
  n = 0
  while ((g = sourceDate.exec(src)) !== null && n < 400) {
    const y = Number(g[1]), m = Number(g[3]), d = Number(g[4])
    if (g[2] === "" && !/[^\d]/.test(src[g.index - 1] ?? "x")) continue
    emit({ y, m, d }, "source:pattern", "published")
    n++
  }
}

const ldKeys: Record<string, DateType> = { datepublished: "published", datemodified: "modified", datecreated: "created", uploaddate: "published" }
const ldSource: Record<string, string> = { datepublished: "json-ld:datePublished", datemodified: "json-ld:dateModified", datecreated: "json-ld:dateCreated", uploaddate: "json-ld:uploadDate" }
const articleTypes = /article|posting|report|webpage|page|newsarticle|blog|creativework|video|event|product|recipe|review|movie|book|scholarly|mediaobject|itempage|qapage|liveblog|analysis|opinion/i
const foreignTypes = /comment|answer|question|organization|person|imageobject|website|listitem|breadcrumb/i

/** Walks JSON-LD (objects, arrays, @graph); tolerant of broken JSON (falls back to key scanning). */
export const extractJsonLd = (text: string, emit: (source: string, type: DateType, date: DayDate, inArticle: boolean) => void) => {
  const cleaned = text.replace(/^\s*<!--/, "").replace(/-->\s*$/, "").trim()
  let data: unknown
  try {
    data = JSON.parse(cleaned)
  } catch {
    try {
      // Common breakage: raw newlines/tabs inside strings, trailing commas.
      data = JSON.parse(cleaned.replace(/[\n\r\t]+/g, " ").replace(/,\s*([}\]])/g, "$1"))
    } catch {
      const re = /"(datePublished|dateModified|dateCreated|uploadDate)"\s*:\s*"([^"]{6,40})"/gi
      let g: RegExpExecArray | null
      while ((g = re.exec(cleaned)) !== null) {
        const d = parseStructured(g[2])
        const k = g[1].toLowerCase()
        if (d) emit(ldSource[k], ldKeys[k], d, true)
      }
      return
    }
  }
  const walk = (x: unknown, depth: number, inForeign: boolean): void => {
    if (depth > 12 || x === null || typeof x !== "object") return
    if (Array.isArray(x)) {
      for (const y of x.slice(0, 200)) walk(y, depth + 1, inForeign)
      return
    }
    const o = x as Record<string, unknown>
    const t = o["@type"]
    const types = (Array.isArray(t) ? t : [t]).filter((v): v is string => typeof v === "string").join(" ")
    const foreign = inForeign || (types.length > 0 && foreignTypes.test(types) && !articleTypes.test(types))
    for (const [k, v] of Object.entries(o)) {
      const key = k.toLowerCase()
      if (key in ldKeys && (typeof v === "string" || typeof v === "number")) {
        const d = parseStructured(String(v))
        if (d) emit(ldSource[key], ldKeys[key], d, !foreign && depth <= 4)
      } else if (typeof v === "object" && v !== null) {
        const sub = key === "@graph" || key === "mainentity" || key === "mainentityofpage" ? foreign : foreign || key === "comment" || key === "review" || key === "itemlistelement" || key === "hasPart".toLowerCase() || key === "subjectof" || key === "citation" || key === "isPartOf".toLowerCase()
        walk(v, depth + 1, sub)
      }
    }
  }
  walk(data, 0, false)
}
