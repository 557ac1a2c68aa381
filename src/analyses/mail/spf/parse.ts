/**
 * SPF record syntax (RFC 7208 §4.5, §4.6.1, §5, §6 and the ABNF of §12), pure. The whole record
 * is checked before evaluation starts, because "any syntax errors anywhere in the record MUST be
 * detected" (§4.6) and are a permerror even after a mechanism would have matched.
 */
import { type Ip, parseIp4, parseIp6 } from "./ip"
import { type MacroString, type Parsed, parseDomainSpec, parseMacroString } from "./macro"

export type Qualifier = "+" | "-" | "~" | "?"
export type Mechanism =
  | { readonly kind: "all" }
  | { readonly kind: "include" | "exists"; readonly domain: MacroString; readonly spec: string }
  | {
    readonly kind: "a" | "mx"
    readonly domain: MacroString | null
    readonly spec: string | null
    readonly cidr4: number
    readonly cidr6: number
  }
  | { readonly kind: "ptr"; readonly domain: MacroString | null; readonly spec: string | null }
  | { readonly kind: "ip4" | "ip6"; readonly network: Ip; readonly prefix: number }

export interface Directive {
  readonly qualifier: Qualifier
  readonly mechanism: Mechanism
  /** The term as written, for reports ("-all", "include:_spf.example.com"). */
  readonly text: string
}
export interface Target {
  readonly domain: MacroString
  readonly spec: string
}
export interface SpfRecord {
  readonly directives: ReadonlyArray<Directive>
  readonly redirect: Target | null
  readonly exp: Target | null
}

/** §4.5: "v=spf1" exactly, then a space or the end; the version is case-insensitive. */
export const isSpfRecord = (txt: string): boolean => /^v=spf1(?: |$)/i.test(txt)

export const QUALIFIER_RESULT = { "+": "pass", "-": "fail", "~": "softfail", "?": "neutral" } as const

/** DNS-querying terms (§4.6.4): include, a, mx, ptr, exists and redirect. */
export const queriesDns = (m: Mechanism): boolean =>
  m.kind === "include" || m.kind === "a" || m.kind === "mx" || m.kind === "ptr" || m.kind === "exists"

const fail = (error: string): Parsed<never> => ({ ok: false, error })

// ip4-cidr-length = "/" ("0" / %x31-39 0*1DIGIT), at most 32; ip6: 0*2DIGIT, at most 128
const cidr = (digits: string | undefined, max: number, term: string): Parsed<number> => {
  if (digits === undefined) return { ok: true, value: max }
  if (!/^(?:0|[1-9]\d*)$/.test(digits) || Number(digits) > max) {
    return fail(`invalid CIDR length /${digits} in '${term}'`)
  }
  return { ok: true, value: Number(digits) }
}

const DUAL_CIDR = /^(?:\/(\d+))?(?:\/\/(\d+))?$/

/**
 * Splits a trailing dual-cidr-length off a domain-spec, scanning from the end (linear, whatever
 * the record holds): "foo:bar/baz.example.com" keeps its slash, "foo.example.com/24//64" gives both.
 */
const splitCidr = (s: string): [string, string | undefined, string | undefined] => {
  const digitsBefore = (end: number) => {
    let k = end
    while (k > 0 && s.charCodeAt(k - 1) >= 48 && s.charCodeAt(k - 1) <= 57) k--
    return k
  }
  let end = s.length
  let c4: string | undefined
  let c6: string | undefined
  let k = digitsBefore(end)
  if (k < end && k >= 2 && s[k - 1] === "/" && s[k - 2] === "/") {
    c6 = s.slice(k, end)
    end = k - 2
    k = digitsBefore(end)
  }
  if (k < end && k >= 1 && s[k - 1] === "/") {
    c4 = s.slice(k, end)
    end = k - 1
  }
  return [s.slice(0, end), c4, c6]
}

const addressMechanism = (kind: "a" | "mx", rest: string, term: string): Parsed<Mechanism> => {
  let spec: string | null = null
  let c4: string | undefined
  let c6: string | undefined
  if (rest.startsWith(":")) {
    ;[spec, c4, c6] = splitCidr(rest.slice(1))
  } else {
    const m = DUAL_CIDR.exec(rest)
    if (m === null) return fail(`invalid term '${term}'`)
    ;[c4, c6] = [m[1], m[2]]
  }
  let domain: MacroString | null = null
  if (spec !== null) {
    const d = parseDomainSpec(spec)
    if (!d.ok) return fail(`${d.error} in '${term}'`)
    domain = d.value
  }
  const cidr4 = cidr(c4, 32, term)
  if (!cidr4.ok) return cidr4
  const cidr6 = cidr(c6, 128, term)
  if (!cidr6.ok) return cidr6
  return { ok: true, value: { kind, domain, spec, cidr4: cidr4.value, cidr6: cidr6.value } }
}

const ipMechanism = (kind: "ip4" | "ip6", rest: string, term: string): Parsed<Mechanism> => {
  const m = /^:([^/]*)(?:\/(\d+))?$/.exec(rest)
  const bytes = m === null ? null : kind === "ip4" ? parseIp4(m[1]) : parseIp6(m[1])
  if (m === null || bytes === null) return fail(`invalid ${kind} network in '${term}'`)
  const prefix = cidr(m[2], kind === "ip4" ? 32 : 128, term)
  if (!prefix.ok) return prefix
  return { ok: true, value: { kind, network: { v: kind === "ip4" ? 4 : 6, bytes }, prefix: prefix.value } }
}

const specMechanism = (rest: string, term: string): Parsed<{ domain: MacroString | null; spec: string | null }> => {
  if (rest === "") return { ok: true, value: { domain: null, spec: null } }
  if (!rest.startsWith(":")) return fail(`invalid term '${term}'`)
  const d = parseDomainSpec(rest.slice(1))
  return d.ok ? { ok: true, value: { domain: d.value, spec: rest.slice(1) } } : fail(`${d.error} in '${term}'`)
}

const parseMechanism = (name: string, rest: string, term: string): Parsed<Mechanism> => {
  switch (name) {
    case "all":
      return rest === "" ? { ok: true, value: { kind: "all" } } : fail(`'all' takes no argument: '${term}'`)
    case "a":
    case "mx":
      return addressMechanism(name, rest, term)
    case "ip4":
    case "ip6":
      return ipMechanism(name, rest, term)
    case "ptr": {
      const s = specMechanism(rest, term)
      return s.ok ? { ok: true, value: { kind: "ptr", ...s.value } } : s
    }
    case "include":
    case "exists": {
      if (rest === "") return fail(`'${name}' needs a domain: '${term}'`)
      const s = specMechanism(rest, term)
      if (!s.ok) return s
      return { ok: true, value: { kind: name, domain: s.value.domain!, spec: s.value.spec! } }
    }
    default:
      return fail(`unknown mechanism '${name}' in '${term}'`)
  }
}

// name = ALPHA *( ALPHA / DIGIT / "-" / "_" / "." ), then "=" (§4.6.1, §12)
const MODIFIER = /^([A-Za-z][A-Za-z0-9\-_.]*)=(.*)$/s

export const parseRecord = (txt: string): Parsed<SpfRecord> => {
  if (!isSpfRecord(txt)) return fail("not an SPF record")
  // §3: records are 7-bit ASCII; terms are separated by SP only (§4.6.1), so a control
  // character or a non-ASCII octet anywhere is a syntax error.
  const bad = /[^\x20-\x7e]/.exec(txt)
  if (bad) return fail(`invalid character U+${bad[0].charCodeAt(0).toString(16).padStart(4, "0")} in record`)
  const directives: Array<Directive> = []
  let redirect: Target | null = null
  let exp: Target | null = null
  for (const term of txt.slice(6).split(" ").filter((t) => t !== "")) {
    const mod = MODIFIER.exec(term)
    if (mod) {
      const name = mod[1].toLowerCase()
      if (name === "redirect" || name === "exp") {
        // §6: each at most once; a known modifier's value must be a domain-spec (not "unknown").
        if ((name === "redirect" ? redirect : exp) !== null) return fail(`${name}= appears more than once`)
        const d = parseDomainSpec(mod[2])
        if (!d.ok) return fail(`${d.error} in '${term}'`)
        if (name === "redirect") redirect = { domain: d.value, spec: mod[2] }
        else exp = { domain: d.value, spec: mod[2] }
      } else {
        // Unknown modifiers are ignored (§6) but must still be valid macro-strings (§12).
        const v = parseMacroString(mod[2], "modifier")
        if (!v.ok) return fail(`${v.error} in '${term}'`)
      }
      continue
    }
    const q = "+-~?".includes(term[0]) ? (term[0] as Qualifier) : "+"
    const body = q === term[0] ? term.slice(1) : term
    const name = /^[A-Za-z][A-Za-z0-9]*/.exec(body)?.[0] ?? ""
    if (name === "") return fail(`invalid term '${term}'`)
    const mech = parseMechanism(name.toLowerCase(), body.slice(name.length), term)
    if (!mech.ok) return mech
    directives.push({ qualifier: q, mechanism: mech.value, text: term })
  }
  return { ok: true, value: { directives, redirect, exp } }
}
