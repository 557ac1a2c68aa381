/**
 * The public suffix list (tldts), loaded at its first use: its suffix trie is ~125 kB of data the
 * start-up does not need (docs/operating.md, "The binary"). `require` in a function keeps the
 * callers synchronous; the bundle evaluates the module at the first call and caches it.
 */
type Tldts = typeof import("tldts")

const lib = (): Tldts => require("tldts")

export const getDomain: Tldts["getDomain"] = (url, options) => lib().getDomain(url, options)
export const parse: Tldts["parse"] = (url, options) => lib().parse(url, options)
