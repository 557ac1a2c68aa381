/**
 * DKIM key records (RFC 6376 §3.6.1, RFC 8463 for ed25519) at `<selector>._domainkey.<domain>`.
 * Selectors cannot be listed through DNS, so the analysis asks a built-in list of common
 * selectors (below, with the provider that uses each) plus the caller's `dkim_selectors`.
 * Key sizes come from the key itself: RSA keys are SubjectPublicKeyInfo DER (node:crypto reads
 * the modulus length), ed25519 keys are the raw 32-byte public key. Pure (no I/O).
 */
import { createPublicKey } from "node:crypto"
import type { Lookup } from "./lookup"
import type { DkimKey } from "./schema"
import { parseTags, tagValue } from "./tags"

/** Common selectors, most used first. */
export const COMMON_SELECTORS: ReadonlyArray<string> = [
  "default", "dkim", "mail", "selector1", "selector2", // generic; Microsoft 365 (selector1/2)
  "google", "20230601", "20221208", "20161025", // Google Workspace, Gmail
  "k1", "k2", "k3", // Mailchimp / Mandrill
  "s1", "s2", // SendGrid
  "mandrill", "mxvault", "smtp", "email",
  "fm1", "fm2", "fm3", // Fastmail
  "protonmail", "protonmail2", "protonmail3", // Proton
  "sig1", // iCloud custom domains
  "zoho", "zmail", // Zoho
  "mailjet", "pm", // Mailjet, Postmark
  "key1", "key2", "dk", "cm", "everlytickey1", "everlytickey2", "krs", "turbo-smtp"
]

const SELECTOR = /^[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*$/

/** The built-in list plus the caller's selectors (lower-cased, de-duplicated); a malformed one is an error. */
export const selectorsToCheck = (extra: ReadonlyArray<string>): { readonly selectors: ReadonlyArray<string>; readonly invalid: ReadonlyArray<string> } => {
  const clean = extra.map((s) => s.trim().toLowerCase()).filter((s) => s !== "")
  const invalid = clean.filter((s) => !SELECTOR.test(s) || s.length > 200)
  return { selectors: [...new Set([...COMMON_SELECTORS, ...clean.filter((s) => !invalid.includes(s))])], invalid }
}

export const MAX_EXTRA_SELECTORS = 20

export interface ParsedDkimKey extends DkimKey {
  readonly errors: ReadonlyArray<string>
}

const keyBits = (type: string, p: string): { bits: number | null; error: string | null } => {
  const der = Buffer.from(p.replace(/\s+/g, ""), "base64")
  if (der.length === 0 || !/^[A-Za-z0-9+/=\s]+$/.test(p)) return { bits: null, error: "p= is not base64" }
  if (type === "ed25519") {
    return der.length === 32 ? { bits: 256, error: null } : { bits: null, error: `ed25519 key is ${der.length} bytes, not 32` }
  }
  try {
    const key = createPublicKey({ key: der, format: "der", type: "spki" })
    const d = key.asymmetricKeyDetails
    if (key.asymmetricKeyType !== "rsa") return { bits: null, error: `k=rsa but the key is ${key.asymmetricKeyType}` }
    return { bits: d?.modulusLength ?? null, error: null }
  } catch {
    return { bits: null, error: "p= is not a SubjectPublicKeyInfo RSA key" }
  }
}

export const parseDkimKey = (selector: string, record: string): ParsedDkimKey => {
  const t = parseTags(record)
  const errors = [...t.errors]
  const v = tagValue(t, "v")
  if (v !== undefined && (v !== "DKIM1" || t.tags[0][0] !== "v")) errors.push("v= must be DKIM1 and come first")
  const type = (tagValue(t, "k") ?? "rsa").toLowerCase()
  const flags = (tagValue(t, "t") ?? "").split(":").map((f) => f.trim().toLowerCase())
  const p = tagValue(t, "p")
  if (p === undefined) {
    errors.push("the required p= tag is missing")
    return { selector, key_type: type, key_bits: null, testing: flags.includes("y"), revoked: false, errors }
  }
  if (p === "") return { selector, key_type: type, key_bits: null, testing: flags.includes("y"), revoked: true, errors }
  if (type !== "rsa" && type !== "ed25519") {
    errors.push(`unknown key type k=${type}`)
    return { selector, key_type: type, key_bits: null, testing: flags.includes("y"), revoked: false, errors }
  }
  const k = keyBits(type, p)
  if (k.error) errors.push(k.error)
  return { selector, key_type: type, key_bits: k.bits, testing: flags.includes("y"), revoked: false, errors }
}

/** A selector's TXT answer: a key record is one carrying p= (v=DKIM1 is optional, §3.6.1). */
export const dkimKeyAt = (selector: string, l: Lookup<string>): ParsedDkimKey | null => {
  if (l._tag !== "Found") return null
  const rec = l.records.find((r) => /(^|;)\s*p\s*=/i.test(r))
  return rec === undefined ? null : parseDkimKey(selector, rec)
}
