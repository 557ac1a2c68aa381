/**
 * Which generated names can be registered: host names (RFC 1123 §2.1: letters, digits and
 * hyphens, no hyphen at either end of a label, labels of 1-63 octets, 253 in all) whose
 * internationalized labels are valid IDNA 2008 U-labels (RFC 5891 §5.4, RFC 5892), written in
 * their ASCII form (punycode, RFC 3492) beside their Unicode form. This is the test dnstwist
 * applies (it encodes with the `idna` package, IDNA 2008, and keeps names matching its host
 * name pattern: at least two labels, a top label of 2-63 characters, 4-253 characters in all),
 * so a name it keeps we keep and a name it drops we drop.
 *
 * IDNA 2008's code point table is approximated without a table of our own: a U-label must be in
 * NFC (RFC 5891 §5.4), must not start with a combining mark (§5.4), may hold only letters,
 * combining marks, decimal digits and the hyphen (the general categories PVALID is drawn from,
 * RFC 5892 §2), and must survive UTS 46 processing (node:url's `domainToASCII`) unchanged,
 * which refuses capitals, compatibility forms, and labels that break the Bidi rule (RFC 5893).
 */
import { domainToASCII, domainToUnicode } from "node:url"

/** A registrable name in both forms. */
export interface HostName {
  /** ASCII form: punycode (`xn--…`) for an internationalized label. */
  readonly ascii: string
  /** Unicode form, as a reader sees it. */
  readonly unicode: string
}

const ASCII_LABEL = /^[a-z0-9-]+$/
const U_LABEL_CHARS = /^[\p{Ll}\p{Lm}\p{Lo}\p{Mn}\p{Mc}\p{Nd}-]+$/u
const INITIAL_MARK = /^\p{M}/u
const HOST_PATTERN = /^(?=.{4,253}$)((?!-)[a-z0-9-]{1,63}(?<!-)\.)+[a-z0-9-]{2,63}$/

/** RFC 5891 §4.2.3.1: no hyphen first or last, none in the third and fourth positions. */
const hyphensOk = (label: string) => !label.startsWith("-") && !label.endsWith("-") && label.slice(2, 4) !== "--"

/**
 * The fewest octets an A-label for `label` can have (RFC 3492: "xn--", the ASCII characters and
 * their delimiter, at least one octet per other character): a cheap way to refuse a label that
 * cannot fit in 63 octets before encoding it.
 */
const shortestALabel = (label: string): number => {
  let ascii = 0
  let other = 0
  for (const c of label) c.charCodeAt(0) < 0x80 ? ascii++ : other++
  return 4 + ascii + (ascii > 0 ? 1 : 0) + other
}

/**
 * A Unicode label's A-label, or null when IDNA 2008 refuses it (see the module comment for the
 * approximation). UTS 46 maps its input to NFC, so the round trip also refuses a label not in NFC.
 */
const aLabel = (label: string): string | null => {
  if (!hyphensOk(label) || INITIAL_MARK.test(label) || !U_LABEL_CHARS.test(label) || shortestALabel(label) > 63) return null
  const a = domainToASCII(label)
  return a.startsWith("xn--") && !a.includes(".") && domainToUnicode(a) === label ? a : null
}

/**
 * The name `raw` (labels in ASCII or Unicode, joined by dots) as a registrable host name, or
 * null when it is not one. An ASCII label that already is an A-label (`xn--…`, such as a
 * country's internationalized suffix) is checked through its Unicode form.
 */
export const hostName = (raw: string): HostName | null => {
  const ascii: Array<string> = []
  const unicode: Array<string> = []
  for (const label of raw.split(".")) {
    if (label.length === 0) return null
    if (ASCII_LABEL.test(label)) {
      const u = label.startsWith("xn--") ? domainToUnicode(label) : label
      if (u === label ? !hyphensOk(label) : aLabel(u) !== label) return null
      ascii.push(label)
      unicode.push(u)
    } else {
      const a = aLabel(label)
      if (a === null) return null
      ascii.push(a)
      unicode.push(label)
    }
  }
  const name = ascii.join(".")
  return HOST_PATTERN.test(name) ? { ascii: name, unicode: unicode.join(".") } : null
}
