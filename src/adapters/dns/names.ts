/**
 * Domain names and addresses between wire and text (pure). A name read off the wire becomes
 * presentation text without the final dot (RFC 1035 §5.1: a `.` or `\` inside a label is
 * escaped with `\`, other bytes outside printable ASCII as `\DDD`), so text and wire convert
 * both ways without loss; `nameWire` reads that text back.
 */

/** A message the decoder refuses; the resolver reports it as DnsMalformed. */
export class MalformedWire extends Error {}

/** Bytes that stand for themselves in a label's text: printable ASCII but `.` and `\`. */
const PLAIN = /^[\x21-\x2d\x2f-\x5b\x5d-\x7e]*$/

const labelText = (msg: Buffer, start: number, end: number): string => {
  const plain = msg.toString("latin1", start, end)
  if (PLAIN.test(plain)) return plain
  let s = ""
  for (let i = start; i < end; i++) {
    const c = msg[i]
    if (c === 0x2e || c === 0x5c) s += "\\" + String.fromCharCode(c)
    else if (c < 0x21 || c > 0x7e) s += "\\" + String(c).padStart(3, "0")
    else s += String.fromCharCode(c)
  }
  return s
}

export interface ReadName {
  readonly name: string
  /** Offset just past the name where it was read (not where a pointer led). */
  readonly next: number
  /** Octets of the name's uncompressed wire form. */
  readonly length: number
  /** Where its labels are in the message (offset of each length octet). */
  readonly labels: ReadonlyArray<number>
}

/**
 * Reads a name at `offset` of `msg`. Compression pointers (RFC 1035 §4.1.4) must point before
 * the label sequence they end, so every pointer chain ends; at most 255 octets in all.
 */
export const readName = (msg: Buffer, offset: number, compression = true): ReadName => {
  const labels: Array<number> = []
  let name = ""
  let at = offset
  let next = -1
  let floor = offset
  let length = 1
  for (;;) {
    if (at >= msg.length) throw new MalformedWire("name runs past the end of the message")
    const len = msg[at]
    if (len === 0) {
      if (next < 0) next = at + 1
      break
    }
    const kind = len & 0xc0
    if (kind === 0xc0) {
      if (!compression) throw new MalformedWire("compressed name where compression is not allowed")
      if (at + 1 >= msg.length) throw new MalformedWire("name pointer runs past the end of the message")
      const target = ((len & 0x3f) << 8) | msg[at + 1]
      if (target >= floor) throw new MalformedWire("name pointer does not point backwards")
      if (next < 0) next = at + 2
      at = target
      floor = target
      continue
    }
    if (kind !== 0) throw new MalformedWire(`unknown label type 0x${kind.toString(16)}`)
    if (at + 1 + len > msg.length) throw new MalformedWire("label runs past the end of the message")
    length += len + 1
    if (length > 255) throw new MalformedWire("name longer than 255 octets")
    labels.push(at)
    const text = labelText(msg, at + 1, at + 1 + len)
    name = name === "" ? text : `${name}.${text}`
    at += 1 + len
  }
  return { name: labels.length === 0 ? "." : name, next, length, labels }
}

/** The uncompressed wire form of a name `readName` read from `msg`. */
export const expandedName = (msg: Buffer, n: ReadName): Buffer => {
  const out = Buffer.alloc(n.length)
  let o = 0
  for (const at of n.labels) o += msg.copy(out, o, at, at + 1 + msg[at])
  return out
}

/**
 * The uncompressed wire form of a name in presentation text (a final dot optional, `\.`,
 * `\\` and `\DDD` escapes read). Throws on an empty label, a label over 63 octets or a name
 * over 255. `lower` lower-cases ASCII letters (canonical form, RFC 4034 §6.2).
 */
export const nameWire = (text: string, lower = false): Buffer => {
  const t = text.endsWith(".") && !text.endsWith("\\.") ? text.slice(0, -1) : text
  if (t === "") return Buffer.from([0])
  const out: Array<number> = []
  let label: Array<number> = []
  const close = () => {
    if (label.length === 0) throw new Error(`empty label in ${text}`)
    if (label.length > 63) throw new Error(`label longer than 63 octets in ${text}`)
    out.push(label.length, ...label)
    label = []
  }
  const bytes = Buffer.from(t, "utf8")
  for (let i = 0; i < bytes.length; i++) {
    let c = bytes[i]
    if (c === 0x2e) {
      close()
      continue
    }
    if (c === 0x5c && i + 1 < bytes.length) {
      const d = bytes.subarray(i + 1, i + 4).toString("latin1")
      if (/^\d{3}$/.test(d) && Number(d) < 256) {
        c = Number(d)
        i += 3
      } else {
        c = bytes[++i]
      }
    }
    label.push(lower && c >= 0x41 && c <= 0x5a ? c + 0x20 : c)
  }
  close()
  out.push(0)
  if (out.length > 255) throw new Error(`name longer than 255 octets: ${text}`)
  return Buffer.from(out)
}

/** An IPv6 address in RFC 5952 text: lower-case hex, the longest run of two or more zero groups as `::`. */
export const ipv6Text = (b: Buffer): string => {
  const groups: Array<number> = []
  for (let i = 0; i < 16; i += 2) groups.push(b.readUInt16BE(i))
  let best = -1
  let bestLen = 1
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen) {
      best = i
      bestLen = j - i
    }
    i = j
  }
  const hex = (gs: ReadonlyArray<number>) => gs.map((g) => g.toString(16)).join(":")
  return best < 0 ? hex(groups) : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`
}

export const ipv4Text = (b: Buffer): string => `${b[0]}.${b[1]}.${b[2]}.${b[3]}`
