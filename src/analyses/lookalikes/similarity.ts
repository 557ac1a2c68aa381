/**
 * How alike two home pages are, 0-100 (pure): the ssdeep score (ssdeep.ts) of the two HTML
 * sources once normalised as dnstwist normalises them. The measure is dnstwist's own (`--ssdeep`)
 * so that a figure here reads like the figure users know from it (docs/operations/lookalikes.md).
 *
 * Why fuzzy hashing of the source and not of the visible text: a phishing copy is made by saving
 * the page and changing where its forms and links lead; the markup, scripts and styles stay. The
 * normalisation blanks exactly what such a copy changes (the values of `href`, `src` and
 * `action`, and `url(…)` in styles) and the whitespace a re-save reflows, so a copy scores near
 * 100 while two unrelated pages, even on the same site builder, rarely share the 7-character run
 * of digest that ssdeep asks before it scores at all (Kornblum 2006, §5).
 */
import { fuzzyCompare, fuzzyHash } from "./ssdeep"

const utf8 = new TextEncoder()

/**
 * A page's source as dnstwist compares it: runs of ASCII whitespace made one space, the values of
 * `href`, `src` and `action` attributes emptied, and CSS `url(…)` emptied.
 */
export const normalizePage = (html: string): string =>
  html
    .split(/[ \t\n\r\v\f]+/)
    .filter((w) => w !== "")
    .join(" ")
    .replace(/(action|src|href)="[^"]+"/gi, (_, name: string) => `${name}=""`)
    .replace(/url\([^)]+\)/gi, "url()")

/** The ssdeep digest of a normalised page. */
export const pageDigest = (html: string): string => fuzzyHash(utf8.encode(normalizePage(html)))

/**
 * How alike page `b` is to page `a`, 0-100; null when either is missing or has nothing but
 * whitespace (nothing to compare).
 */
export const webSimilarity = (a: string | null, b: string | null): number | null => {
  if (a === null || b === null || a.trim() === "" || b.trim() === "") return null
  return fuzzyCompare(pageDigest(a), pageDigest(b))
}

const META_REFRESH = /<meta[^>]*?url=(https?:\/\/[\w.,?!:;/*#@$&+=[\]()%~-]*?)"/i

/**
 * Where a tiny page sends the browser by `<meta http-equiv="refresh" content="0; url=…">`, which
 * dnstwist follows before it hashes: only pages of 65-1023 bytes (a redirect stub, not a page
 * with a refresh in it), and only absolute http(s) URLs. Null when there is nothing to follow.
 */
export const metaRefreshTarget = (html: string): string | null => {
  const size = utf8.encode(html).length
  if (size <= 64 || size >= 1024) return null
  return META_REFRESH.exec(html)?.[1] ?? null
}
