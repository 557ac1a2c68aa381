/**
 * Test `x-frame-options` (pure): X-Frame-Options (RFC 7034) or, superseding it, CSP
 * frame-ancestors in a header policy (CSP3 §6.4.2; a `<meta>` policy cannot carry it).
 */
import type { CspOutcome } from "./csp"
import { finalHop, firstHeader, gradedSession, nodeHeaders, type Retrieval } from "./retrieval"

export const xfoTest = (r: Retrieval, csp: CspOutcome): { result: string; pass: boolean } => {
  const page = finalHop(gradedSession(r))
  if (!page) return { result: "x-frame-options-not-implemented", pass: false }
  const value = firstHeader(nodeHeaders(page.rawHeaders), "x-frame-options")
  let result = "x-frame-options-not-implemented"
  if (value) {
    const v = value.slice(0, 1024).trim().toLowerCase()
    result = v === "deny" || v === "sameorigin"
      ? "x-frame-options-sameorigin-or-deny"
      : v.startsWith("allow-from") ? "x-frame-options-allow-from-origin" : "x-frame-options-header-invalid"
  }
  if (csp.policy !== null && csp.frameAncestors) result = "x-frame-options-implemented-via-csp"
  const pass = ["x-frame-options-allow-from-origin", "x-frame-options-sameorigin-or-deny", "x-frame-options-implemented-via-csp"].includes(result)
  return { result, pass }
}
