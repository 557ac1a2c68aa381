/**
 * Issue 11 item 8: the active probe's canaries go only to the verified name, never to a sibling
 * host of the same registrable domain that the home page redirects to.
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import { startDnsServer, type TestDnsServer } from "../support/dnsServer"
import { startService, type TestService } from "../support/service"

let svc: TestService
let dns: TestDnsServer
let origin: ReturnType<typeof Bun.serve>
const seen: Array<{ host: string; path: string }> = []

beforeAll(async () => {
  origin = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url)
      const host = (req.headers.get("host") ?? "").split(":")[0]
      seen.push({ host, path: url.pathname })
      if (host === "app.sib.test" && url.pathname === "/") return Response.redirect(`http://cdn.sib.test:${origin.port}/`, 302)
      return new Response("<html>ok</html>", { headers: { "content-type": "text/html" } })
    }
  })
  dns = await startDnsServer({
    "app.sib.test": { A: ["127.0.0.1"] },
    "cdn.sib.test": { A: ["127.0.0.1"] },
    "_domain-intel-verify.app.sib.test": { TXT: ["verify=app"] }
  })
  svc = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: dns.port }], dnsTimeoutMs: 1000 })
})
afterAll(async () => {
  await svc?.stop()
  origin?.stop(true)
  await dns?.close()
})

test("a redirect to a sibling host of the verified name does not receive the canaries", async () => {
  const { key } = await svc.newKey("developer")
  const res = await svc.call(`/v1/domain/waf?domain=${encodeURIComponent(`http://app.sib.test:${origin.port}/`)}&active_probe=true`, { key })
  const body = (await res.json()) as any
  expect(res.status).toBe(200)
  expect(body.active_probe.probed).toBe(true)
  const canaries = seen.filter((s) => s.path !== "/")
  expect(canaries.length).toBe(5)
  expect(canaries.every((s) => s.host === "app.sib.test")).toBe(true)
})
