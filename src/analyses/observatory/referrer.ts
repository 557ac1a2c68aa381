/**
 * Test `referrer-policy` (pure): Referrer-Policy header and `<meta name="referrer">`, the last
 * recognised token winning (W3C Referrer Policy §4.1 and §11.1: unknown tokens are skipped).
 */
import { pagePolicies } from "./csp"
import { headerValues, type Retrieval } from "./retrieval"

const PRIVATE = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"]
const UNSAFE = ["origin", "origin-when-cross-origin", "unsafe-url", "no-referrer-when-downgrade"]

export const referrerTest = (r: Retrieval): { result: string; pass: boolean } => {
  const page = pagePolicies(r)
  if (!page) return { result: "referrer-policy-not-implemented", pass: false }
  const all = [...headerValues(page.headers, "referrer-policy"), ...page.meta.referrer]
  if (all.length === 0) return { result: "referrer-policy-not-implemented", pass: true }
  const tokens = all.join(", ").split(",").map((t) => t.toLowerCase().trim()).filter((t) => PRIVATE.includes(t) || UNSAFE.includes(t))
  const policy = tokens[tokens.length - 1] ?? ""
  const result = PRIVATE.includes(policy) ? "referrer-policy-private" : UNSAFE.includes(policy) ? "referrer-policy-unsafe" : "referrer-policy-header-invalid"
  return { result, pass: result === "referrer-policy-private" }
}
