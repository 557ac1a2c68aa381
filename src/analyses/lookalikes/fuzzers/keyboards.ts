/**
 * Keyboard neighbours for the typo fuzzers (`insertion`, `replacement`): for each key, the keys
 * around it on the QWERTY, QWERTZ and AZERTY layouts, as dnstwist (20221213) lists them
 * (docs/operations/lookalikes.md). Only letters and digits: a host name label has nothing else
 * but the hyphen. The order of the layouts and of the neighbours is dnstwist's, so the
 * permutations come out in the same order.
 */
type Layout = Readonly<Record<string, string>>

const QWERTY: Layout = {
  "1": "2q", "2": "3wq1", "3": "4ew2", "4": "5re3", "5": "6tr4", "6": "7yt5", "7": "8uy6", "8": "9iu7", "9": "0oi8", "0": "po9",
  q: "12wa", w: "3esaq2", e: "4rdsw3", r: "5tfde4", t: "6ygfr5", y: "7uhgt6", u: "8ijhy7", i: "9okju8", o: "0plki9", p: "lo0",
  a: "qwsz", s: "edxzaw", d: "rfcxse", f: "tgvcdr", g: "yhbvft", h: "ujnbgy", j: "ikmnhu", k: "olmji", l: "kop",
  z: "asx", x: "zsdc", c: "xdfv", v: "cfgb", b: "vghn", n: "bhjm", m: "njk"
}

const QWERTZ: Layout = {
  "1": "2q", "2": "3wq1", "3": "4ew2", "4": "5re3", "5": "6tr4", "6": "7zt5", "7": "8uz6", "8": "9iu7", "9": "0oi8", "0": "po9",
  q: "12wa", w: "3esaq2", e: "4rdsw3", r: "5tfde4", t: "6zgfr5", z: "7uhgt6", u: "8ijhz7", i: "9okju8", o: "0plki9", p: "lo0",
  a: "qwsy", s: "edxyaw", d: "rfcxse", f: "tgvcdr", g: "zhbvft", h: "ujnbgz", j: "ikmnhu", k: "olmji", l: "kop",
  y: "asx", x: "ysdc", c: "xdfv", v: "cfgb", b: "vghn", n: "bhjm", m: "njk"
}

const AZERTY: Layout = {
  "1": "2a", "2": "3za1", "3": "4ez2", "4": "5re3", "5": "6tr4", "6": "7yt5", "7": "8uy6", "8": "9iu7", "9": "0oi8", "0": "po9",
  a: "2zq1", z: "3esqa2", e: "4rdsz3", r: "5tfde4", t: "6ygfr5", y: "7uhgt6", u: "8ijhy7", i: "9okju8", o: "0plki9", p: "lo0m",
  q: "zswa", s: "edxwqz", d: "rfcxse", f: "tgvcdr", g: "yhbvft", h: "ujnbgy", j: "iknhu", k: "olji", l: "kopm", m: "lp",
  w: "sxq", x: "wsdc", c: "xdfv", v: "cfgb", b: "vghn", n: "bhj"
}

export const KEYBOARDS: ReadonlyArray<Layout> = [QWERTY, QWERTZ, AZERTY]

/** The neighbours of `key` on every layout, in layout order (repeats kept: the caller dedups). */
export const neighbours = (key: string): ReadonlyArray<string> => KEYBOARDS.flatMap((layout) => [...(layout[key] ?? "")])
