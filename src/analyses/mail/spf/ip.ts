/**
 * Addresses as SPF needs them (pure): the strict ABNF of RFC 7208 §12 for `ip4`/`ip6` networks
 * (no leading zeros, no shortened dotted quads: §5.6), CIDR matching, RFC 5952 text for `%{c}`,
 * the dot-nibble form of `%{i}` (§7.3) and the reverse names PTR lookups use.
 */
export type Ip = { readonly v: 4 | 6; readonly bytes: Uint8Array }

// qnum = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
const QNUM = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/

export const parseIp4 = (s: string): Uint8Array | null => {
  const parts = s.split(".")
  if (parts.length !== 4 || !parts.every((p) => QNUM.test(p))) return null
  return Uint8Array.from(parts.map(Number))
}

const HEXGROUP = /^[0-9A-Fa-f]{1,4}$/

/** RFC 4291 §2.2 text forms, including "::" once and a trailing dotted quad. */
export const parseIp6 = (s: string): Uint8Array | null => {
  const halves = s.split("::")
  if (halves.length > 2) return null
  const groups = (part: string, last: boolean): Array<number> | null => {
    if (part === "") return []
    const out: Array<number> = []
    const items = part.split(":")
    for (let k = 0; k < items.length; k++) {
      const item = items[k]
      if (last && k === items.length - 1 && item.includes(".")) {
        const v4 = parseIp4(item)
        if (v4 === null) return null
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3])
      } else if (HEXGROUP.test(item)) out.push(parseInt(item, 16))
      else return null
    }
    return out
  }
  const head = groups(halves[0], halves.length === 1)
  const tail = halves.length === 2 ? groups(halves[1], true) : []
  if (head === null || tail === null) return null
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]
  const bytes = new Uint8Array(16)
  all.forEach((g, k) => {
    bytes[2 * k] = g >> 8
    bytes[2 * k + 1] = g & 0xff
  })
  return bytes
}

/**
 * The client address of check_host(). An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is an IPv4
 * address for every purpose (RFC 7208 §5: "MUST still be considered an IPv4 address").
 */
export const parseClientIp = (s: string): Ip | null => {
  const v4 = parseIp4(s.trim())
  if (v4) return { v: 4, bytes: v4 }
  const v6 = parseIp6(s.trim())
  if (v6 === null) return null
  const mapped = v6.subarray(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff
  return mapped ? { v: 4, bytes: v6.slice(12) } : { v: 6, bytes: v6 }
}

export const inCidr = (ip: Uint8Array, net: Uint8Array, prefix: number): boolean => {
  if (ip.length !== net.length) return false
  const full = prefix >> 3
  for (let k = 0; k < full; k++) if (ip[k] !== net[k]) return false
  const rest = prefix & 7
  if (rest === 0) return true
  const mask = (0xff << (8 - rest)) & 0xff
  return (ip[full] & mask) === (net[full] & mask)
}

export const sameIp = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && inCidr(a, b, a.length * 8)

/** RFC 5952 text: lowercase, the longest run (>= 2) of zero groups as "::". */
export const formatIp = (ip: Ip): string => {
  if (ip.v === 4) return Array.from(ip.bytes).join(".")
  const g = Array.from({ length: 8 }, (_, k) => (ip.bytes[2 * k] << 8) | ip.bytes[2 * k + 1])
  let best = -1
  let bestLen = 1
  for (let k = 0; k < 8; ) {
    let j = k
    while (j < 8 && g[j] === 0) j++
    if (j - k > bestLen) [best, bestLen] = [k, j - k]
    k = j === k ? k + 1 : j
  }
  const hex = g.map((x) => x.toString(16))
  if (best < 0) return hex.join(":")
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`
}

const nibbles = (bytes: Uint8Array): Array<string> =>
  Array.from(bytes).flatMap((b) => [(b >> 4).toString(16), (b & 15).toString(16)])

/** `%{i}`: dotted quad, or dot-separated nibbles for IPv6 (uppercase, as RFC 7208 §7.4's example). */
export const macroIp = (ip: Ip): string =>
  ip.v === 4 ? formatIp(ip) : nibbles(ip.bytes).join(".").toUpperCase()

export const reverseName = (ip: Ip): string =>
  ip.v === 4
    ? `${Array.from(ip.bytes).reverse().join(".")}.in-addr.arpa`
    : `${nibbles(ip.bytes).reverse().join(".")}.ip6.arpa`
