/**
 * What the Observatory leaves out (pure, not scored): Permissions-Policy, the cross-origin
 * isolation headers COOP/COEP (HTML §7.1.3, §7.1.4) and RFC 9116 security.txt.
 */
import { firstHeader, type NodeHeaders } from "./retrieval"

export interface SecurityTxt {
  readonly present: boolean
  readonly url: string
  /** RFC 9116 §2.5: at least one Contact, exactly one Expires, in the future, served as text/plain. */
  readonly valid: boolean
  /** An OpenPGP cleartext signature wraps the file (RFC 9116 §2.3, RFC 4880 §7). */
  readonly signed: boolean
  readonly expires: string | null
  readonly expired: boolean | null
  readonly contact: ReadonlyArray<string>
  readonly errors: ReadonlyArray<string>
}

const SIGNED_START = "-----BEGIN PGP SIGNED MESSAGE-----"

/** The signed text of a cleartext-signed message: after the armor headers, dash-escapes undone. */
const signedBody = (text: string): string => {
  const lines = text.split(/\r?\n/)
  const start = lines.findIndex((l) => l.trim() === SIGNED_START)
  let i = start + 1
  while (i < lines.length && lines[i].trim() !== "") i++
  const end = lines.findIndex((l, k) => k > i && l.startsWith("-----BEGIN PGP SIGNATURE-----"))
  return lines.slice(i + 1, end === -1 ? undefined : end).map((l) => (l.startsWith("- ") ? l.slice(2) : l)).join("\n")
}

export const parseSecurityTxt = (
  url: string,
  response: { status: number; contentType: string | null; body: string } | null,
  now: Date
): SecurityTxt => {
  const absent = { present: false, url, valid: false, signed: false, expires: null, expired: null, contact: [], errors: [] }
  if (!response || response.status !== 200) return absent
  const errors: Array<string> = []
  const signed = response.body.trimStart().startsWith(SIGNED_START)
  const text = signed ? signedBody(response.body) : response.body
  const contact: Array<string> = []
  const expires: Array<string> = []
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith("#")) continue
    const colon = line.indexOf(":")
    if (colon <= 0) {
      errors.push(`not a field: ${line.slice(0, 80)}`)
      continue
    }
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (name === "contact") contact.push(value)
    else if (name === "expires") expires.push(value)
  }
  // A site answering every path with its HTML page has no security.txt (§3: text/plain).
  const plain = (response.contentType ?? "").split(";")[0].trim().toLowerCase() === "text/plain"
  if (!plain) return { ...absent, errors: [`served as ${response.contentType ?? "no content type"}, not text/plain`] }
  if (contact.length === 0) errors.push("no Contact field")
  if (expires.length !== 1) errors.push(expires.length === 0 ? "no Expires field" : "more than one Expires field")
  const when = expires.length > 0 ? new Date(expires[0]) : null
  const expiresIso = when && !Number.isNaN(when.getTime()) ? when.toISOString() : null
  if (expires.length > 0 && expiresIso === null) errors.push(`Expires is not an RFC 3339 date: ${expires[0]}`)
  const expired = when && expiresIso ? when.getTime() <= now.getTime() : null
  if (expired) errors.push("Expires is in the past")
  return { present: true, url, valid: errors.length === 0, signed, expires: expiresIso, expired, contact, errors }
}

const token = (v: string | null) => (v === null ? null : v.split(";")[0].trim().toLowerCase())

export const headerExtras = (h: NodeHeaders | null) => {
  const get = (name: string) => (h ? firstHeader(h, name) : null)
  const pp = get("permissions-policy")
  const coop = get("cross-origin-opener-policy")
  const coep = get("cross-origin-embedder-policy")
  return {
    permissions_policy: {
      present: pp !== null,
      value: pp,
      // Structured-field dictionary keys (RFC 8941 §3.2): the features the policy names.
      features: pp === null ? [] : pp.split(",").map((m) => m.split("=")[0].trim().toLowerCase()).filter((f) => f.length > 0)
    },
    cross_origin_opener_policy: {
      present: coop !== null,
      value: coop,
      valid: coop !== null && ["unsafe-none", "same-origin-allow-popups", "same-origin", "noopener-allow-popups"].includes(token(coop)!)
    },
    cross_origin_embedder_policy: {
      present: coep !== null,
      value: coep,
      valid: coep !== null && ["unsafe-none", "require-corp", "credentialless"].includes(token(coep)!)
    }
  }
}
