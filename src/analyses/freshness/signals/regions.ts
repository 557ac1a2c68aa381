/**
 * Where on the page an element sits: main content, article, boilerplate (footers, sidebars,
 * related links), reader comments, a date-ish element, a link. A date's region decides how much
 * it says about the page.
 */
import type { DefaultTreeAdapterMap } from "parse5"
import type { Ctx, RawSignal } from "./types"

type Element = DefaultTreeAdapterMap["element"]

export const attr = (el: Element, name: string): string | undefined => {
  for (const a of el.attrs) if (a.name === name) return a.value
  return undefined
}

export const skipTags = new Set(["script", "style", "noscript", "template", "svg", "iframe", "select", "option", "textarea", "canvas", "button"])
export const blockTags = new Set(["p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "aside", "nav", "main", "ul", "ol", "dl", "dt", "dd", "table", "br", "blockquote", "figure", "figcaption", "form", "address", "body", "pre", "hr"])

export const hintRe = /(?:^|[\s_-])(?:date|datum|time|zeit|fecha|data|publish|published|publication|publicado|pubdate|posted|post-?meta|entry-?meta|byline|dateline|meta|info|timestamp|submitted|created|updated|article-?header|author|stand(?![a-z])|veroeffentlicht|erschienen|calendar)|date|datum|publish|posted|byline|timestamp/i
/** Class tokens that contain a hint word but name no date: a post's status (WordPress `status-publish`). */
export const notHintRe = /(?:^|\s)(?:status-publish(?:ed)?|post-status-\S*)(?=\s|$)/gi
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

export const sameCtx = (a: Ctx, b: Ctx) => a.boiler === b.boiler && a.comment === b.comment && a.hinted === b.hinted && a.link === b.link && a.main === b.main && a.article === b.article

/** The context an element gives its descendants (the same object when nothing changes), and its own region. */
export const enter = (tag: string, cls: string, itemprop: string, ctx: Ctx): { next: Ctx; region: RawSignal["region"]; hinted: boolean; comment: boolean } => {
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
  return { next, region: comment ? "comment" : boiler ? "boilerplate" : "main", hinted, comment }
}
