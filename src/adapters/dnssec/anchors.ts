/**
 * Trust anchors: the IANA root KSKs built in (KSK-2017 and KSK-2024, as DS records), or the DS
 * and DNSKEY records of a zone-file-syntax file (`DNSSEC_TRUST_ANCHORS`) that replaces them.
 */
import { normName } from "./crypto"

export type TrustAnchor =
  | { readonly kind: "DS"; readonly owner: string; readonly keyTag: number; readonly algorithm: number; readonly digestType: number; readonly digest: Buffer }
  | { readonly kind: "DNSKEY"; readonly owner: string; readonly flags: number; readonly algorithm: number; readonly key: Buffer }

export const IANA_ROOT_ANCHORS_TEXT = `
. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D
. IN DS 38696 8 2 683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16
`

const CLASSES = new Set(["IN", "CH", "HS", "CS"])

/**
 * Parses DS and DNSKEY records in zone-file syntax (`owner [ttl] [class] TYPE rdata`, either
 * order of ttl and class, parentheses across lines, `;` comments, `$ORIGIN`/`$TTL` lines).
 * Other record types are ignored; a malformed DS or DNSKEY line is an error.
 */
export const parseTrustAnchors = (text: string): ReadonlyArray<TrustAnchor> => {
  const logical: Array<string> = []
  let acc = ""
  let depth = 0
  let origin = ""
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/;.*$/, "")
    for (const ch of line) {
      if (ch === "(") depth++
      else if (ch === ")") depth = Math.max(0, depth - 1)
    }
    acc += " " + line.replace(/[()]/g, " ")
    if (depth === 0) {
      if (acc.trim().length > 0) logical.push(acc.trim())
      acc = ""
    }
  }
  if (acc.trim().length > 0) logical.push(acc.trim())
  const out: Array<TrustAnchor> = []
  for (const line of logical) {
    const tokens = line.split(/\s+/)
    if (tokens[0].toUpperCase() === "$ORIGIN") {
      origin = tokens[1] ?? ""
      continue
    }
    if (tokens[0].startsWith("$")) continue
    let i = 0
    let owner = tokens[i++]
    if (owner === "@") owner = origin || "."
    else if (!owner.endsWith(".") && origin) owner = `${owner}.${origin}`
    while (i < tokens.length && (/^\d+$/.test(tokens[i]) || CLASSES.has(tokens[i].toUpperCase()))) i++
    const type = (tokens[i++] ?? "").toUpperCase()
    const rdata = tokens.slice(i)
    if (type === "DS") {
      const [tag, alg, dt, ...hex] = rdata
      const digest = hex.join("")
      if (!/^\d+$/.test(tag ?? "") || !/^\d+$/.test(alg ?? "") || !/^\d+$/.test(dt ?? "") || !/^[0-9a-fA-F]+$/.test(digest)) {
        throw new Error(`malformed DS trust anchor: ${line}`)
      }
      out.push({ kind: "DS", owner: normName(owner), keyTag: Number(tag), algorithm: Number(alg), digestType: Number(dt), digest: Buffer.from(digest, "hex") })
    } else if (type === "DNSKEY") {
      const [flags, proto, alg, ...b64] = rdata
      const key = Buffer.from(b64.join(""), "base64")
      if (!/^\d+$/.test(flags ?? "") || proto !== "3" || !/^\d+$/.test(alg ?? "") || key.length === 0) {
        throw new Error(`malformed DNSKEY trust anchor: ${line}`)
      }
      out.push({ kind: "DNSKEY", owner: normName(owner), flags: Number(flags), algorithm: Number(alg), key })
    }
  }
  return out
}

export const builtinAnchors: ReadonlyArray<TrustAnchor> = parseTrustAnchors(IANA_ROOT_ANCHORS_TEXT)
