/** The lab's web servers (inside the test's network namespace): every site on its loopback address. */
import type { Answer, Site } from "./sites"

const answerFor = (site: Site, https: boolean, path: string): Answer | null => {
  const side = https ? site.https : site.http ?? (site.https ? { status: 301, headers: [["Location", `https://${site.host}${path}`]] } : undefined)
  if (!side) return null
  if (side.paths && path in side.paths) return side.paths[path]
  return path === "/" ? side : null
}

const respond = (sites: ReadonlyMap<string, Site>, https: boolean) => async (req: Request): Promise<Response> => {
  const url = new URL(req.url)
  const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "").toLowerCase()
  const site = sites.get(host)
  if (!site) return new Response("no such site", { status: 404 })
  if (site.delayMs) await Bun.sleep(site.delayMs)
  const base = https ? site.https : site.http
  if (req.method === "OPTIONS") {
    const p = base?.preflight?.(req.headers.get("origin"))
    const headers = new Headers()
    for (const [k, v] of p?.headers ?? []) headers.append(k, v)
    return new Response(null, { status: p?.status ?? 405, headers })
  }
  const found = answerFor(site, https, url.pathname)
  const cookie = req.headers.get("cookie")
  const a = found?.withCookie && cookie === found.withCookie.cookie ? found.withCookie.answer : found
  if (!a) return new Response("not found", { status: 404, headers: { "Content-Type": "text/plain" } })
  const headers = new Headers()
  for (const [k, v] of a.headers ?? []) headers.append(k, v)
  return new Response(a.body ?? null, { status: a.status ?? 200, headers })
}

export const startSites = (sites: ReadonlyArray<Site>, tls: { good: { cert: string; key: string }; bad: { cert: string; key: string } }) => {
  const byHost = new Map(sites.map((s) => [s.host, s]))
  const on = (ip: number) => new Map([...byHost].filter(([, s]) => (s.ip ?? 1) === ip))
  const servers = [
    Bun.serve({ hostname: "127.0.0.1", port: 80, fetch: respond(on(1), false) }),
    Bun.serve({ hostname: "127.0.0.1", port: 443, tls: tls.good, fetch: respond(on(1), true) }),
    Bun.serve({ hostname: "127.0.0.2", port: 80, fetch: respond(on(2), false) }),
    Bun.serve({ hostname: "127.0.0.3", port: 443, tls: tls.good, fetch: respond(on(3), true) }),
    Bun.serve({ hostname: "127.0.0.4", port: 80, fetch: respond(on(4), false) }),
    Bun.serve({ hostname: "127.0.0.4", port: 443, tls: tls.bad, fetch: respond(on(4), true) })
  ]
  return { stop: () => servers.forEach((s) => s.stop(true)) }
}
