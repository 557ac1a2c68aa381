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

export const hintRe = /(?:^|[\s_-])(?:date|datum|time(?!line)|zeit|fecha|data|publish|published|publication|publicado|pubdate|posted|post-?meta|entry-?meta|byline|dateline|meta|info|timestamp|submitted|created|updated|article-?header|author|stand(?![a-z])|veroeffentlicht|erschienen|calendar)|date|datum|publish|posted|byline|timestamp/i
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

/**
 * Whether an element's classes (and id) name a boilerplate region. Token by token, with these
 * kinds of tokens that name no region of their own:
 *  - a post's taxonomy as WordPress writes it on the post's container (`category-kommentar`,
 *    `tag-share-economy`, `format-aside`);
 *  - page-builder wrappers (Elementor wraps every block, the article's too, in `elementor-widget-*`);
 *  - on an <article> or <main>, a container named after something it holds
 *    (`docked-sharebar-content-container`);
 *  - layout modifiers: a sidebar named on a wrapper that also names the page or its content
 *    (`vw-page-wrapper vw-blog-sidebar`, `mainwrap sidebar`, `with-sidebar-right`) says the page
 *    has a sidebar, not that this is it;
 *  - inside an article, its own footer (`entry-footer`, `post-footer`): WordPress themes print
 *    the post's date there.
 */
export const boilerClass = (cls: string, inArticle = false, tag = ""): boolean => {
  const tokens = cls.split(/\s+/)
    .filter((t) => t.length > 1 && !taxonomyRe.test(t) && !((tag === "article" || tag === "main") && /[-_](?:container|content|wrap|wrapper)$/i.test(t)))
    .map((t) => t.replace(/^elementor-(?:widget|element)(?=[-_]|$)/i, ""))
  const named = tokens.filter((t) => boilerRe.test(t) && !(inArticle && /footer/i.test(t) && !siteFooterRe.test(t) && !boilerRe.test(t.replace(/footer/gi, ""))))
  if (named.length === 0) return false
  if (named.every((t) => /sidebar/i.test(t) && !boilerRe.test(t.replace(/sidebar/gi, "")))) {
    const modifier = named.some((t) => /^(?:has|with|no|without|show|hide)[-_]?(?:\w+[-_])?sidebar/i.test(t))
    const wrapper = tokens.some((t) => !/sidebar/i.test(t) && layoutRe.test(t))
    if (modifier || wrapper) return false
  }
  return true
}
/** A footer of the whole site or page, as opposed to a piece of content's own (`entry-footer`, `rez_footer`). */
const siteFooterRe = /^(?:footer|(?:site|page|main|global|layout|body|wrapper|l|g|ym|bottom)[-_]+footer)(?:$|[-_])/i
const taxonomyRe = /^(?:category|tag|format|type|status|post-format|author)-/i
const layoutRe = /(?:^|[-_])(?:wrap|wrapper|page|container|layout|inner|site|template)(?:$|[-_])|^(?:main|content)|wrap(?:per)?$/i

export const sameCtx = (a: Ctx, b: Ctx) => a.boiler === b.boiler && a.comment === b.comment && a.hinted === b.hinted && a.link === b.link && a.main === b.main && a.article === b.article && a.list === b.list && a.modified === b.modified

/** Classes that name a modification date (`updated`, `entry-modified-time`, a change log's `change-date`), not a publication. */
export const modifiedClass = (cls: string) => {
  const c = cls.toLowerCase()
  return /change-?date|changed/.test(c) || (/updated|modified|aktualisiert/.test(c) && !/published/.test(c))
}

/** The context an element gives its descendants (the same object when nothing changes), and its own region. */
export const enter = (tag: string, cls: string, itemprop: string, ctx: Ctx): { next: Ctx; region: RawSignal["region"]; hinted: boolean; comment: boolean } => {
  let next = ctx
  // Classes on <html> and <body> describe the whole page's layout ("no-sidebars", "has-comments"):
  // they mark no region.
  const layout = tag === "body" || tag === "html"
  // An article's own <footer>, and an <aside> holding its byline and date (`aside.meta`), are the
  // article's: HTML puts a footer's author and date with its nearest article.
  const ownPart = ctx.article && (tag === "footer" || (tag === "aside" && cls.length > 1 && hintRe.test(cls.replace(notHintRe, " "))))
  const boiler = ctx.boiler || (boilerTags.has(tag) && !ownPart) || (!layout && cls.length > 1 && boilerClass(cls, ctx.article || ctx.main, tag)) || siteHeader(tag, cls, ctx)
  const hinted = ctx.hinted || (cls.length > 1 && hintRe.test(cls.replace(notHintRe, " "))) || itemprop.startsWith("date")
  const link = ctx.link || tag === "a"
  const main = ctx.main || tag === "article" || tag === "main" || (cls.length > 1 && mainRe.test(cls) && !boiler)
  const article = ctx.article || tag === "article" || tag === "main" || (cls.length > 1 && articleRe.test(cls))
  const comment = ctx.comment || (!layout && cls.length > 1 && commentRe.test(cls))
  // Text is typed by its class only on the unambiguous names: themes put hAtom's bare `updated` on
  // the publication date too (`entry-date updated`), so that one does not count here.
  const modified = ctx.modified || (cls.length > 1 && /change-?date|changed|modified|last-?updated|updated-?(?:on|at|date|time)/i.test(cls))
  if (boiler !== ctx.boiler || hinted !== ctx.hinted || link !== ctx.link || main !== ctx.main || comment !== ctx.comment || article !== ctx.article || modified !== (ctx.modified ?? false)) next = { boiler, comment, hinted, link, main, article, list: ctx.list, modified }
  return { next, region: comment ? "comment" : boiler ? "boilerplate" : "main", hinted, comment }
}
