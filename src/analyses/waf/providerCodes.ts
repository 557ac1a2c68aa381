/**
 * A provider's own error code, read from its error page, decides block_category whatever the
 * HTTP status: 1020 means provider block, 1009 country block (docs/decisions.md, "Content
 * Freshness and WAF Detection"). Pure: the observed status and body in, a category or null (no
 * code of a block) out.
 */
import type { BlockCategory } from "./signatures"

/**
 * Cloudflare's 1xxx codes that are blocks (Cloudflare's "1xxx errors" reference): 1006-1008 the
 * site owner banned the client's address, 1009 its country, 1010 the browser integrity check,
 * 1012 access denied, 1015 rate limiting, 1020 a firewall rule. Other 1xxx codes (DNS and
 * origin faults) are not blocks and leave the category to the status.
 */
export const CLOUDFLARE_BLOCK_CODES: Readonly<Record<number, Exclude<BlockCategory, "none">>> = {
  1006: "provider-block",
  1007: "provider-block",
  1008: "provider-block",
  1009: "country-block",
  1010: "provider-block",
  1012: "provider-block",
  1015: "rate-limit",
  1020: "provider-block"
}

/** The `cf-error-code` span of the HTML template, and the whole body of the plain-text form. */
const STRUCTURED = [/<span[^>]*\bclass="cf-error-code"[^>]*>\s*(1\d{3})\s*<\/span>/i, /^\s*error code:\s*(1\d{3})\s*$/i]
/** Looser spellings ("Error 1009", "error code 1020"), trusted only on a refusal status. */
const LOOSE = [/\berror code:?\s*(1\d{3})\b/i, /\bError\s*(?:<[^>]*>\s*)*(1\d{3})\b/]

/**
 * Cloudflare's error code in `body`, or null. On a success status only the structured forms
 * count: an ordinary page may well mention "error code: 1020" in its text.
 */
export const cloudflareErrorCode = (status: number, body: string): number | null => {
  const sample = body.length > 65_536 ? body.slice(0, 65_536) : body
  for (const re of status >= 400 ? [...STRUCTURED, ...LOOSE] : STRUCTURED) {
    const m = re.exec(sample)
    if (m) return Number(m[1])
  }
  return null
}

/** The category the provider's own code names, or null when no provider code of a block is present. */
export const providerCodeCategory = (providers: ReadonlyArray<{ readonly name: string }>, status: number, body: string): BlockCategory | null => {
  if (!providers.some((p) => p.name === "Cloudflare")) return null
  const code = cloudflareErrorCode(status, body)
  return code === null ? null : CLOUDFLARE_BLOCK_CODES[code] ?? null
}
