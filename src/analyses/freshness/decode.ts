/**
 * Body bytes → text: charset from the Content-Type header, else a BOM, else <meta charset> /
 * http-equiv in the first 4 KiB, else UTF-8 (falling back to windows-1252 when the bytes are not
 * valid UTF-8). Pure.
 */
const metaCharset = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i

/** Bun types the label as its own Encoding union; the constructor accepts any WHATWG label and throws on the rest. */
type EncodingLabel = ConstructorParameters<typeof TextDecoder>[0]

const decoderFor = (label: string): TextDecoder | undefined => {
  try {
    return new TextDecoder(label.toLowerCase().trim() as EncodingLabel)
  } catch {
    return undefined
  }
}

export const charsetOf = (contentType: string | undefined, bytes: Uint8Array): string | undefined => {
  const fromHeader = contentType ? /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1] : undefined
  if (fromHeader) return fromHeader
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8"
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le"
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be"
  const head = Buffer.from(bytes.subarray(0, 4096)).toString("latin1")
  return metaCharset.exec(head)?.[1]
}

export const decodeHtml = (bytes: Uint8Array, contentType: string | undefined): string => {
  const label = charsetOf(contentType, bytes)
  if (label && !/^utf-?8$/i.test(label)) {
    const dec = decoderFor(label)
    if (dec) return dec.decode(bytes)
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    // A body cut mid-character, or not UTF-8 at all.
    const lenient = new TextDecoder("utf-8").decode(bytes)
    const bad = (lenient.match(/\uFFFD/g) ?? []).length
    if (bad > 8) return (decoderFor("windows-1252") ?? new TextDecoder("utf-8")).decode(bytes)
    return lenient
  }
}
