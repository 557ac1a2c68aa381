/**
 * Records a real answer of every operation, for the README's examples: the service runs
 * in-process against loopback targets only (an HTTP origin, the DNS lab of test/dns with NSD and
 * Unbound, a fake crt.sh), and each answer is printed trimmed (arrays cut to two entries, long
 * strings shortened):
 *
 *   ./node_modules/.bin/bun scripts/examples.ts > /tmp/examples.md
 */
import { Option } from "effect"
import { parseResolverList } from "../src/platform/Config"
import { makeRows, startCrtSh } from "../test/ct/crtsh"
import { startLab } from "../test/dns/lab"
import { startService } from "../test/support/service"

const trim = (v: unknown, depth = 0): unknown => {
  if (Array.isArray(v)) return v.length > 2 ? [...v.slice(0, 2).map((x) => trim(x, depth + 1)), `… ${v.length - 2} more`] : v.map((x) => trim(x, depth + 1))
  if (typeof v === "string") return v.length > 120 ? `${v.slice(0, 117)}…` : v
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x, depth + 1)]))
  return v
}

const page = `<!doctype html><html><head><title>Shop</title>
<meta property="article:published_time" content="2026-11-20T08:00:00Z">
<meta property="article:modified_time" content="2026-11-22T16:30:00Z">
</head><body><article><h1>Autumn sale</h1><time datetime="2026-11-20">20 November 2026</time></article></body></html>`

const origin = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) => {
    const url = new URL(req.url)
    if (url.pathname === "/old") return Response.redirect("/", 301)
    return new Response(req.method === "HEAD" ? null : page, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        server: "cloudflare",
        "cf-ray": "8e5c1a2b3c4d5e6f-FRA",
        "cf-cache-status": "HIT",
        "strict-transport-security": "max-age=31536000; includeSubDomains",
        "x-content-type-options": "nosniff",
        "cache-control": "public, max-age=300",
        "last-modified": "Sun, 22 Nov 2026 16:30:00 GMT"
      }
    })
  }
})
const crt = startCrtSh()
crt.set("clean.lab", { kind: "rows", rows: makeRows("clean.lab", 3) })
const lab = await startLab()
const svc = await startService({
  dnsResolvers: parseResolverList(lab.resolver),
  dnsAuthPort: lab.port,
  dnssecTrustAnchors: Option.some(lab.anchorsFile),
  ctAggregatorUrl: crt.url
})
const { key } = await svc.newKey("enterprise", "acme")
const target = `http://127.0.0.1:${origin.port}`

const show = async (title: string, path: string, init: RequestInit & { anonymous?: boolean } = {}) => {
  const res = await svc.call(path, { ...init, key: init.anonymous ? undefined : key, headers: { "content-type": "application/json", ...(init.headers ?? {}) } })
  const text = await res.text()
  let body: unknown = text
  try {
    body = trim(JSON.parse(text))
  } catch {}
  console.log(`### ${title}\n\n${init.method ?? "GET"} ${path}${init.body ? ` ${init.body}` : ""}\n→ ${res.status}\n\n\`\`\`json\n${JSON.stringify(body, null, 2)}\n\`\`\`\n`)
  return body as any
}

try {
  const q = encodeURIComponent
  await show("http-check", `/v1/network/http-check?url=${q(`${target}/old`)}&method=GET`)
  await show("content-freshness", `/v1/domain/content-freshness?domain=${q(target)}`)
  await show("waf", `/v1/domain/waf?domain=${q(target)}`)
  await show("zone-hygiene", `/v1/dns/zone-hygiene?domain=clean.lab`)
  await show("ct-logs", `/v1/domain/ct-logs?domain=clean.lab&limit=2`)
  await show("mcp tools/list", "/v1/advanced/mcp", { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) })
  await show("mcp tools/call", "/v1/advanced/mcp", {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "dns_lookup", arguments: { domain: "clean.lab" } } })
  })
  const rule = await show("create alert rule", "/v1/alerts/rules", {
    method: "POST",
    body: JSON.stringify({ name: "errors", metric: "error_rate", operator: "gt", threshold_value: 5, window_minutes: 5, channels: [{ type: "webhook", url: `${target}/hook` }] })
  })
  await show("list alert rules", "/v1/alerts/rules")
  const id = rule?.rule?.id ?? rule?.id
  if (id) {
    await show("get alert rule", `/v1/alerts/rules/${id}`)
    await show("update alert rule", `/v1/alerts/rules/${id}`, { method: "PATCH", body: JSON.stringify({ threshold_value: 10 }) })
  }
  await show("alert history", "/v1/alerts/history?limit=2")
  await svc.flushLog()
  await show("usage", "/v1/analytics/usage")
  await show("performance", "/v1/analytics/performance?period=7d")
  await show("cache", "/v1/analytics/cache")
  await show("account", "/v1/account")
  await show("error: invalid", "/v1/network/http-check?url=x&timeout=50")
  await show("error: unauthorized", "/v1/account", { anonymous: true })
  if (id) await show("delete alert rule", `/v1/alerts/rules/${id}`, { method: "DELETE" })
} finally {
  await svc.stop()
  await lab.stop()
  await crt.stop()
  origin.stop(true)
}
