/**
 * The page as the Observatory reads it (pure): the text its HTTP client hands over, the
 * `<meta>` tags that stand for headers, and the scripts with their resolved `src`.
 * Parsing is HTML's own algorithm (parse5) with scripting off, as a DOM without a script engine
 * parses (`<noscript>` content is markup then).
 */

/**
 * parse5, evaluated at the first page graded rather than at start (~10 ms with its entity
 * tables; docs/operating.md, "The binary"). `require` keeps these functions synchronous.
 */
const parse5 = (): typeof import("parse5") => require("parse5")

type Node = { nodeName: string; tagName?: string; namespaceURI?: string; attrs?: Array<{ name: string; value: string }>; childNodes?: Array<Node> }

/**
 * The body as the Observatory's HTTP client (axios) returns it: a body that parses as JSON is
 * handed over as the parsed value, which then reaches the HTML parser as its string form.
 */
export const clientText = (body: string | null): string | null => {
  if (body === null || body === "") return body
  try {
    const v: unknown = JSON.parse(body)
    if (v === null) return null
    return typeof v === "object" ? (Array.isArray(v) ? String(v) : "[object Object]") : String(v)
  } catch {
    return body
  }
}

/** Elements in tree order (template contents are a separate fragment and not walked). */
const walk = (root: Node, visit: (n: Node) => void) => {
  const stack: Array<Node> = [root]
  while (stack.length > 0) {
    const n = stack.pop()!
    if (n.tagName !== undefined) visit(n)
    const kids = n.childNodes
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i])
  }
}

const attr = (n: Node, name: string): string | null => n.attrs?.find((a) => a.name === name)?.value ?? null

const HTML_NS = "http://www.w3.org/1999/xhtml"

export interface MetaHeaders {
  /** `<meta http-equiv="content-security-policy">` contents in order. */
  readonly csp: ReadonlyArray<string>
  /** The last `<meta name="referrer">` content, as a one-element list when present. */
  readonly referrer: ReadonlyArray<string>
}

/** The `<meta>` tags the Observatory treats as headers, from the page parsed as a fragment. */
export const metaHeaders = (html: string): MetaHeaders => {
  const csp: Array<string> = []
  let referrer: ReadonlyArray<string> = []
  walk(parse5().parseFragment(html, { scriptingEnabled: false }) as unknown as Node, (n) => {
    if (n.tagName !== "meta" || n.namespaceURI !== HTML_NS) return
    const equiv = attr(n, "http-equiv")
    const content = attr(n, "content")
    if (equiv !== null && content !== null) {
      if (content && equiv.toLowerCase().trim() === "content-security-policy") csp.push(content)
    } else if (attr(n, "name")?.toLowerCase().trim() === "referrer") {
      if (content) referrer = [content]
    }
  })
  return { csp, referrer }
}

export interface PageScripts {
  /** Every element named script (SVG ones included), as a selector for "script" counts them. */
  readonly count: number
  /** The `src` of each HTML script that has one, resolved as the DOM reflects it, with its integrity. */
  readonly external: ReadonlyArray<{ readonly src: string; readonly integrity: string | null }>
}

/** The DOM's reflection of a URL attribute: resolved against the base, else the raw value. */
const reflectUrl = (value: string, base: string | null): string => {
  try {
    return new URL(value, base ?? "about:blank").href
  } catch {
    return value
  }
}

/** Scripts of a page parsed as a whole document whose own address is about:blank. */
export const pageScripts = (html: string): PageScripts => {
  const doc = parse5().parse(html, { scriptingEnabled: false }) as unknown as Node
  let base: string | null = null
  let count = 0
  const found: Array<{ src: string | null; integrity: string | null }> = []
  walk(doc, (n) => {
    if (n.tagName === "base" && n.namespaceURI === HTML_NS && base === null) {
      const href = attr(n, "href")
      if (href !== null) {
        try {
          base = new URL(href, "about:blank").href
        } catch {
          base = null
        }
      }
    }
    if (n.tagName !== "script") return
    count++
    if (n.namespaceURI === HTML_NS) found.push({ src: attr(n, "src"), integrity: attr(n, "integrity") })
  })
  const external = found
    .filter((s): s is { src: string; integrity: string | null } => s.src !== null && s.src !== "")
    .map((s) => ({ src: reflectUrl(s.src, base), integrity: s.integrity }))
    .filter((s) => s.src !== "")
  return { count, external }
}
