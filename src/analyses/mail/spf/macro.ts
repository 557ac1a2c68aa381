/**
 * SPF macros (RFC 7208 §7), pure: parsing a macro-string into tokens, checking the `domain-end`
 * rule of domain-spec (§7.1 ABNF), and expanding with the values of one evaluation.
 */
export type MacroToken =
  | { readonly _tag: "Literal"; readonly text: string }
  /** "%%", "%_", "%-": macro-expands in the ABNF, so they may end a domain-spec. */
  | { readonly _tag: "Escape"; readonly text: string }
  | {
    readonly _tag: "Macro"
    readonly letter: string
    /** An uppercase letter asks for the URL-escaped value (§7.3). */
    readonly upper: boolean
    readonly digits: number | null
    readonly reverse: boolean
    readonly delimiters: string
  }
export type MacroString = ReadonlyArray<MacroToken>

export type Parsed<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: string }
const fail = (error: string): Parsed<never> => ({ ok: false, error })

/** Where a macro-string appears decides its letters: c, r, t only in explanation text (§7.3). */
export type MacroMode = "domain" | "explain" | "modifier"
const LETTERS: Record<MacroMode, string> = { domain: "slodiphv", explain: "slodiphvcrt", modifier: "slodiphvcrt" }

// macro-expand = "%{" macro-letter transformers *delimiter "}"; transformers = *DIGIT ["r"]
const MACRO_BODY = /^([A-Za-z])(\d*)([rR]?)([.\-+,/_=]*)$/

export const parseMacroString = (s: string, mode: MacroMode): Parsed<MacroString> => {
  const tokens: Array<MacroToken> = []
  let lit = ""
  const flush = () => {
    if (lit !== "") tokens.push({ _tag: "Literal", text: lit })
    lit = ""
  }
  for (let k = 0; k < s.length; ) {
    const code = s.charCodeAt(k)
    const ch = s[k]
    if (ch !== "%") {
      // macro-literal = %x21-24 / %x26-7E; explain-string also allows SP.
      const ok = (code >= 0x21 && code <= 0x7e) || (code === 0x20 && mode === "explain")
      if (!ok) return fail(`invalid character ${JSON.stringify(ch)} in ${JSON.stringify(s)}`)
      lit += ch
      k++
      continue
    }
    const next = s[k + 1]
    if (next === "%" || next === "_" || next === "-") {
      flush()
      tokens.push({ _tag: "Escape", text: next === "%" ? "%" : next === "_" ? " " : "%20" })
      k += 2
      continue
    }
    if (next !== "{") return fail(`'%' must be followed by '{', '%', '_' or '-' in ${JSON.stringify(s)}`)
    const close = s.indexOf("}", k + 2)
    if (close < 0) return fail(`unterminated macro in ${JSON.stringify(s)}`)
    const body = MACRO_BODY.exec(s.slice(k + 2, close))
    if (body === null) return fail(`invalid macro %{${s.slice(k + 2, close)}}`)
    const [, letter, digits, r, delimiters] = body
    if (!LETTERS[mode].includes(letter.toLowerCase())) {
      return fail(`macro letter '${letter}' is not allowed ${mode === "domain" ? "outside exp text" : "here"}`)
    }
    // "If a DIGIT is specified, the value MUST be nonzero" (§7.3).
    if (digits !== "" && Number(digits) === 0) return fail(`macro %{${s.slice(k + 2, close)}} keeps zero parts`)
    flush()
    tokens.push({
      _tag: "Macro",
      letter: letter.toLowerCase(),
      upper: letter !== letter.toLowerCase(),
      digits: digits === "" ? null : Math.min(Number(digits), 1000),
      reverse: r !== "",
      delimiters: delimiters === "" ? "." : delimiters
    })
    k = close + 1
  }
  flush()
  return { ok: true, value: tokens }
}

// toplabel = ( *alphanum ALPHA *alphanum ) / ( 1*alphanum "-" *( alphanum / "-" ) alphanum )
const TOPLABEL = /^(?:[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*|[A-Za-z0-9]+-[A-Za-z0-9-]*[A-Za-z0-9])$/

/** domain-spec = macro-string domain-end; domain-end = ( "." toplabel [ "." ] ) / macro-expand */
export const parseDomainSpec = (s: string): Parsed<MacroString> => {
  if (s === "") return fail("empty domain-spec")
  const parsed = parseMacroString(s, "domain")
  if (!parsed.ok) return parsed
  const last = parsed.value[parsed.value.length - 1]
  if (last._tag === "Literal") {
    const text = last.text.endsWith(".") ? last.text.slice(0, -1) : last.text
    const dot = text.lastIndexOf(".")
    if (dot < 0 || !TOPLABEL.test(text.slice(dot + 1))) {
      return fail(`${JSON.stringify(s)} does not end in a valid top-level label`)
    }
  }
  return parsed
}

export const usesLetter = (ms: MacroString, letter: string): boolean =>
  ms.some((t) => t._tag === "Macro" && t.letter === letter)

export const hasMacros = (ms: MacroString): boolean => ms.some((t) => t._tag === "Macro")

// unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" (RFC 3986); the rest is %-escaped per octet.
const urlEscape = (s: string): string =>
  Array.from(new TextEncoder().encode(s), (b) => {
    const c = String.fromCharCode(b)
    return /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`
  }).join("")

const transform = (value: string, t: Extract<MacroToken, { _tag: "Macro" }>): string => {
  let parts = value.split(new RegExp(`[${t.delimiters.replace(/[-\\\]^/]/g, "\\$&")}]`))
  if (t.reverse) parts = parts.reverse()
  if (t.digits !== null && t.digits < parts.length) parts = parts.slice(parts.length - t.digits)
  const joined = parts.join(".")
  return t.upper ? urlEscape(joined) : joined
}

/** Expands with `values[letter]` (the caller resolves the costly `p` first, see usesLetter). */
export const expand = (ms: MacroString, values: Readonly<Record<string, string>>): string =>
  ms.map((t) => (t._tag === "Macro" ? transform(values[t.letter] ?? "", t) : t.text)).join("")

/**
 * A name ready to query, or null when no DNS query can be formed from it (then the mechanism
 * does not match: RFC 7208 §4.3 and §4.8 leave this to the implementation). A trailing dot is
 * dropped and a name over 253 octets loses labels on the left (§7.3).
 */
export const queryName = (expanded: string): string | null => {
  let name = expanded.endsWith(".") ? expanded.slice(0, -1) : expanded
  while (name.length > 253 && name.includes(".")) name = name.slice(name.indexOf(".") + 1)
  if (name.length === 0 || name.length > 253) return null
  return name.split(".").every((l) => l.length > 0 && l.length <= 63) ? name : null
}
