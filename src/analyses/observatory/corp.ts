/** Test `cross-origin-resource-policy` (pure): the CORP header (Fetch standard §3.7). */
import { finalHop, firstHeader, gradedSession, nodeHeaders, type Retrieval } from "./retrieval"

export const corpTest = (r: Retrieval): { result: string; pass: boolean } => {
  const page = finalHop(gradedSession(r))
  const value = page ? firstHeader(nodeHeaders(page.rawHeaders), "cross-origin-resource-policy") : null
  const v = value ? value.slice(0, 256).trim().toLowerCase() : ""
  const result = !v
    ? "corp-not-implemented"
    : v === "same-site" ? "corp-implemented-with-same-site"
    : v === "same-origin" ? "corp-implemented-with-same-origin"
    : v === "cross-origin" ? "corp-implemented-with-cross-origin" : "corp-header-invalid"
  return { result, pass: result !== "corp-header-invalid" }
}
