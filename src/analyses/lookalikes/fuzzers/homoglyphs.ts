/**
 * Characters that look like others, for the `homoglyph` and `cyrillic` fuzzers: the tables of
 * dnstwist 20221213 (docs/operations/lookalikes.md), so our permutations include every one it
 * makes. A glyph may be longer than one character (`m` → `rn`): the eye reads `rn` as `m`.
 * Every non-ASCII glyph is a lower-case letter that IDNA 2008 (RFC 5892) permits, so a name made
 * of them can be registered as an internationalized domain name.
 */
export const GLYPHS: Readonly<Record<string, ReadonlyArray<string>>> = {
  "0": ["o"],
  "1": ["l", "i"],
  "2": ["ƻ"],
  "3": ["8"],
  "5": ["ƽ"],
  "6": ["9"],
  "8": ["3"],
  "9": ["6"],
  a: ["à", "á", "à", "â", "ã", "ä", "å", "ɑ", "ạ", "ǎ", "ă", "ȧ", "ą", "ə"],
  b: ["d", "lb", "ʙ", "ɓ", "ḃ", "ḅ", "ḇ", "ƅ"],
  c: ["e", "ƈ", "ċ", "ć", "ç", "č", "ĉ", "ᴄ"],
  d: ["b", "cl", "dl", "ɗ", "đ", "ď", "ɖ", "ḑ", "ḋ", "ḍ", "ḏ", "ḓ"],
  e: ["c", "é", "è", "ê", "ë", "ē", "ĕ", "ě", "ė", "ẹ", "ę", "ȩ", "ɇ", "ḛ"],
  f: ["ƒ", "ḟ"],
  g: ["q", "ɢ", "ɡ", "ġ", "ğ", "ǵ", "ģ", "ĝ", "ǧ", "ǥ"],
  h: ["lh", "ĥ", "ȟ", "ħ", "ɦ", "ḧ", "ḩ", "ⱨ", "ḣ", "ḥ", "ḫ", "ẖ"],
  i: ["1", "l", "í", "ì", "ï", "ı", "ɩ", "ǐ", "ĭ", "ỉ", "ị", "ɨ", "ȋ", "ī", "ɪ"],
  j: ["ʝ", "ǰ", "ɉ", "ĵ"],
  k: ["lk", "ik", "lc", "ḳ", "ḵ", "ⱪ", "ķ", "ᴋ"],
  l: ["1", "i", "ɫ", "ł"],
  m: ["n", "nn", "rn", "rr", "ṁ", "ṃ", "ᴍ", "ɱ", "ḿ"],
  n: ["m", "r", "ń", "ṅ", "ṇ", "ṉ", "ñ", "ņ", "ǹ", "ň", "ꞑ"],
  o: ["0", "ȯ", "ọ", "ỏ", "ơ", "ó", "ö", "ᴏ"],
  p: ["ƿ", "ƥ", "ṕ", "ṗ"],
  q: ["g", "ʠ"],
  r: ["ʀ", "ɼ", "ɽ", "ŕ", "ŗ", "ř", "ɍ", "ɾ", "ȓ", "ȑ", "ṙ", "ṛ", "ṟ"],
  s: ["ʂ", "ś", "ṣ", "ṡ", "ș", "ŝ", "š", "ꜱ"],
  t: ["ţ", "ŧ", "ṫ", "ṭ", "ț", "ƫ"],
  u: ["ᴜ", "ǔ", "ŭ", "ü", "ʉ", "ù", "ú", "û", "ũ", "ū", "ų", "ư", "ů", "ű", "ȕ", "ȗ", "ụ"],
  v: ["ṿ", "ⱱ", "ᶌ", "ṽ", "ⱴ", "ᴠ"],
  w: ["vv", "ŵ", "ẁ", "ẃ", "ẅ", "ⱳ", "ẇ", "ẉ", "ẘ", "ᴡ"],
  x: ["ẋ", "ẍ"],
  y: ["ʏ", "ý", "ÿ", "ŷ", "ƴ", "ȳ", "ɏ", "ỿ", "ẏ", "ỵ"],
  z: ["ʐ", "ż", "ź", "ᴢ", "ƶ", "ẓ", "ẕ", "ⱬ"]
}

/**
 * Latin letters and the Cyrillic letters drawn the same (U+0430 а for a, …). The `cyrillic`
 * fuzzer writes a whole label in Cyrillic, which only works when every character has a twin.
 */
export const LATIN_TO_CYRILLIC: Readonly<Record<string, string>> = {
  a: "а", b: "ь", c: "с", d: "ԁ", e: "е", g: "ԍ", h: "һ", i: "і", j: "ј", k: "к", l: "ӏ", m: "м", o: "о", p: "р", q: "ԛ", s: "ѕ", t: "т", v: "ѵ", w: "ԝ", x: "х", y: "у"
}
