/**
 * Test `redirection` (pure): where `http://host/` leads. It should go to https on the same
 * host first (so that host can set HSTS, RFC 6797 §7.2), and end on https; a chain whose every
 * host is HSTS-preloaded never touches plain http in a browser.
 */
import { preloaded, type PreloadList } from "./hsts"
import type { Retrieval } from "./retrieval"

export const redirectionTest = (r: Retrieval, list: PreloadList): { result: string; pass: boolean; route: ReadonlyArray<string> } => {
  const http = r.http
  let result: string
  const route = http ? http.hops.map((h) => new URL(h.url)) : []
  if (!http || http.hops.length === 0) result = "redirection-not-needed-no-http"
  else if (!http.verified) result = "redirection-invalid-cert"
  else if (route.every((u) => preloaded(list, u.hostname) !== null)) result = "redirection-all-redirects-preloaded"
  else if (route.length === 1) result = "redirection-missing"
  else if (route[route.length - 1].protocol !== "https:") result = "redirection-not-to-https"
  else if (route[1].protocol === "http:") result = "redirection-not-to-https-on-initial-redirection"
  else if (route[0].protocol === "http:" && route[1].protocol === "https:" && route[0].hostname !== route[1].hostname) {
    result = "redirection-off-host-from-http"
  } else result = "redirection-to-https"
  const pass = ["redirection-not-needed-no-http", "redirection-all-redirects-preloaded", "redirection-to-https"].includes(result)
  return { result, pass, route: route.map((u) => u.href) }
}
