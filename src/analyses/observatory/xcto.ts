/** Test `x-content-type-options` (pure): `nosniff` stops MIME sniffing (Fetch standard §3.5). */
import { finalHop, firstHeader, gradedSession, nodeHeaders, type Retrieval } from "./retrieval"

export const xctoTest = (r: Retrieval): { result: string; pass: boolean } => {
  const page = finalHop(gradedSession(r))
  const value = page ? firstHeader(nodeHeaders(page.rawHeaders), "x-content-type-options") : null
  const result = !value
    ? "x-content-type-options-not-implemented"
    : value.slice(0, 256).trim().toLowerCase() === "nosniff" ? "x-content-type-options-nosniff" : "x-content-type-options-header-invalid"
  return { result, pass: result === "x-content-type-options-nosniff" }
}
