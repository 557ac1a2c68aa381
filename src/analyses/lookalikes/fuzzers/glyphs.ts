/**
 * The look-alike-character fuzzers of dnstwist 20221213 (docs/operations/lookalikes.md):
 * `cyrillic` (the whole label in Cyrillic twins) and `homoglyph` (one or two rounds of glyph
 * swaps). Labels come in as arrays of code points.
 */
import { GLYPHS, LATIN_TO_CYRILLIC } from "./homoglyphs"

type Label = ReadonlyArray<string>

/** The label with every Latin letter replaced by its Cyrillic twin; nothing when one has none. */
export function* cyrillic(label: Label): Iterable<string> {
  const out = label.map((c) => LATIN_TO_CYRILLIC[c])
  if (label.length > 0 && out.every((c) => c !== undefined)) yield out.join("")
}

/**
 * One round of glyph swaps: every occurrence of a character `c` inside a window of the label is
 * replaced by one of its glyphs. dnstwist slides windows of every width from 1 to the label's
 * length − 1; what a window changes is only which occurrences of `c` it covers, so each
 * distinct result is a run of consecutive occurrences of `c` (the k-th to the l-th), except the
 * run that stretches from the first character to the last (no window that narrow covers it).
 * Enumerating runs instead of windows gives the same set without the repeats.
 */
function* mix(label: Label): Iterable<string> {
  const positions = new Map<string, Array<number>>()
  label.forEach((c, i) => {
    if (GLYPHS[c] === undefined) return
    const at = positions.get(c)
    if (at) at.push(i)
    else positions.set(c, [i])
  })
  const last = label.length - 1
  for (const [c, at] of positions) {
    for (let k = 0; k < at.length; k++) {
      for (let l = k; l < at.length; l++) {
        if (at[k] === 0 && at[l] === last) continue
        const run = new Set(at.slice(k, l + 1))
        for (const g of GLYPHS[c]) yield label.map((ch, i) => (run.has(i) ? g : ch)).join("")
      }
    }
  }
}

/** Glyph swaps, one round and two rounds (a swap applied to a swapped label), as dnstwist makes them. */
export function* homoglyph(label: Label): Iterable<string> {
  const first = new Set(mix(label))
  yield* first
  for (const once of first) yield* mix(Array.from(once))
}
