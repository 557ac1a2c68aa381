/** Dates in <meta> tags (Open Graph, article:*, Dublin Core, citation_*, and the many vendor names). */
import type { DefaultTreeAdapterMap } from "parse5"
import { type DateType, parseStructured } from "../parse/dates"
import { attr } from "./regions"
import type { Push } from "./types"

type Element = DefaultTreeAdapterMap["element"]

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
  "dc:date", "dcterms:created", "dcterms:issued", "article_published_time", "pub-date", "publication-date", "mediator_published_time",
  "govuk:first-published-at", "first_published_at", "first-published"
]
const metaModified = [
  "article:modified_time", "og:updated_time", "og:modified_time", "article:modified", "datemodified", "revised",
  "last-modified", "lastmod", "lastmodified", "last_modified", "dc.date.modified", "dcterms.modified", "modified",
  "updated_time", "article:updated_time", "dateupdated", "date_modified", "og:article:modified_time", "dcterms:modified",
  "utime", "article.updated", "sailthru.lastmodified", "modified_time", "update_time", "parsely-updated-date",
  "govuk:public-updated-at", "govuk:updated-at"
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

/** The first name of the meta tag that is a known date name decides; an unparsable date adds nothing. */
export const metaSignal = (el: Element, push: Push) => {
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
