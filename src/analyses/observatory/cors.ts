/**
 * Test `cross-origin-resource-sharing` (pure): the answer to a CORS preflight (Fetch standard
 * §3.2.3) carrying our Origin. `*` is public access; echoing the Origin we sent together with
 * Access-Control-Allow-Credentials: true means any origin may read the site as the visitor
 * (universal access). The Observatory 1.4.8 means to report that too but reads the Origin it
 * sent from a field its HTTP client leaves empty, so it never does; here it is reported.
 */
import { firstHeader, nodeHeaders, type Retrieval } from "./retrieval"

export const corsTest = (r: Retrieval): { result: string; pass: boolean } => {
  let result = "cross-origin-resource-sharing-not-implemented"
  if (r.cors) {
    const h = nodeHeaders(r.cors.rawHeaders)
    const acao = firstHeader(h, "access-control-allow-origin")
    const credentials = firstHeader(h, "access-control-allow-credentials")
    if (acao) {
      if (acao.slice(0, 256).trim().toLowerCase() === "*") result = "cross-origin-resource-sharing-implemented-with-public-access"
      else if (acao.trim() === r.cors.origin && credentials?.trim().toLowerCase() === "true") {
        result = "cross-origin-resource-sharing-implemented-with-universal-access"
      } else result = "cross-origin-resource-sharing-implemented-with-restricted-access"
    }
  }
  return { result, pass: result !== "cross-origin-resource-sharing-implemented-with-universal-access" }
}
