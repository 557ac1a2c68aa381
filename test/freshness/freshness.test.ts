/**
 * Content Freshness end to end: the real service against Bun servers on loopback serving pages
 * the test writes (every date source, traps, cache headers), an HTTPS origin for bare domains,
 * hostile bodies (5 MB, endless), non-HTML, and the shared benchmark pages when present.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { startService, type TestService } from "../support/service"
import { makePki } from "../support/tls"
import { decodeHtml } from "../../src/analyses/freshness/decode"
import { dayKey } from "../../src/analyses/freshness/parse/dates"
import { extractSignals } from "../../src/analyses/freshness/extract"
import { selectDates } from "../../src/analyses/freshness/select"

const DAY = 86_400_000
const isoDay = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10)
const httpDate = (msAgo: number) => new Date(Date.now() - msAgo).toUTCString()

let svc: TestService
let key: string
let origin: ReturnType<typeof Bun.serve>
let tlsOrigin: ReturnType<typeof Bun.serve>

const published = isoDay(10 * DAY)
const modified = isoDay(2 * DAY)

const article = `<!DOCTYPE html><html><head><title>Story</title>
<meta property="article:published_time" content="${published}T08:00:00+00:00">
<meta property="article:modified_time" content="${modified}T09:00:00+00:00">
<meta property="og:updated_time" content="${modified}T09:00:00+00:00">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Example"},{"@type":"NewsArticle","datePublished":"${published}T08:00:00+00:00","dateModified":"${modified}T09:00:00+00:00"}]}</script>
</head><body><article><h1>Story</h1><p class="byline">By Ann · <time datetime="${published}T08:00:00Z">${published}</time></p><p>Text.</p></article>
<section id="comments"><div class="comment"><span class="comment-date">${isoDay(1 * DAY)}</span> first!</div></section>
<footer>© ${new Date().getUTCFullYear()} Example</footer></body></html>`

const fiveMb = () => {
  const head = `<!DOCTYPE html><html><head><title>Big</title><meta property="article:published_time" content="${published}"></head><body><article>`
  const filler = "<p>" + "lorem ipsum dolor sit amet ".repeat(40) + "</p>\n"
  return head + filler.repeat(Math.ceil((5 * 1024 * 1024) / filler.length)) + "</article></body></html>"
}

beforeAll(async () => {
  const big = fiveMb()
  origin = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname
      switch (path) {
        case "/article":
          return new Response(article, {
            headers: {
              "content-type": "text/html; charset=utf-8",
              "cache-control": "public, max-age=300, s-maxage=600, stale-while-revalidate=60",
              etag: '"v42"',
              "last-modified": httpDate(2 * DAY),
              age: "30",
              "cf-cache-status": "HIT",
              "cf-ray": "8a1b2c3d4e5f6789-FRA",
              server: "cloudflare"
            }
          })
        case `/news/${published.replaceAll("-", "/")}/story`:
          return new Response("<html><head><title>x</title></head><body><p>No dates in the page.</p></body></html>", { headers: { "content-type": "text/html" } })
        case "/bare":
          return new Response(`<html><head><meta name="date" content="${isoDay(400 * DAY)}"></head><body><p>old</p></body></html>`, {
            headers: { "content-type": "text/html", "cache-control": "no-store, max-age=600" }
          })
        case "/big":
          return new Response(big, { headers: { "content-type": "text/html" } })
        case "/endless": {
          let sent = 0
          const stream = new ReadableStream({
            pull(controller) {
              if (sent === 0) controller.enqueue(new TextEncoder().encode(`<html><head><meta property="article:published_time" content="${published}"></head><body>`))
              sent++
              controller.enqueue(new TextEncoder().encode("<p>" + "x".repeat(65536) + "</p>"))
            }
          })
          return new Response(stream, { headers: { "content-type": "text/html" } })
        }
        case "/json":
          return new Response(JSON.stringify({ date: published }), { headers: { "content-type": "application/json", "last-modified": httpDate(5 * DAY), "cache-control": "max-age=60" } })
        case "/latin1": {
          const html = `<html><head><meta charset="windows-1252"><title>Caf\u00e9</title></head><body><article><p class="date">12. M\u00e4rz 2024</p></article></body></html>`
          const bytes = Uint8Array.from([...html].map((c) => c.charCodeAt(0)))
          return new Response(bytes, { headers: { "content-type": "text/html" } })
        }
        case "/redirect":
          return Response.redirect(`http://127.0.0.1:${origin.port}/article`, 301)
        case "/loop":
          return new Response(null, { status: 302, headers: { location: "/loop" } })
        case "/to-metadata":
          return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } })
        case "/gone":
          return new Response("<html><body>gone</body></html>", { status: 404, headers: { "content-type": "text/html" } })
        default:
          return new Response("<html><body>home</body></html>", { headers: { "content-type": "text/html" } })
      }
    }
  })
  const pki = makePki()
  const leaf = pki.leaf(["localhost", "127.0.0.1"])
  tlsOrigin = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: leaf.cert, key: leaf.key },
    fetch: () => new Response(article, { headers: { "content-type": "text/html" } })
  })
  svc = await startService()
  key = (await svc.newKey("developer")).key
})

afterAll(async () => {
  await svc?.stop()
  origin?.stop(true)
  tlsOrigin?.stop(true)
})

const fresh = async (domain: string, k = key) => {
  const res = await svc.call(`/v1/domain/content-freshness?domain=${encodeURIComponent(domain)}`, { key: k })
  return { status: res.status, body: (await res.json()) as any }
}

describe("content freshness over HTTP", () => {
  test("a full article: every field of the report", async () => {
    const url = `http://127.0.0.1:${origin.port}/article`
    const { status, body } = await fresh(url)
    expect(status).toBe(200)
    expect(body.domain).toBe("127.0.0.1")
    expect(body.url).toBe(url)
    expect(body.statusCode).toBe(200)
    expect(new Date(body.lastModifiedHeader).toISOString().slice(0, 10)).toBe(modified)
    expect(body.publishDate).toMatchObject({ source: "meta:article:published_time", ageInDays: 10 })
    expect(body.publishDate.date.slice(0, 10)).toBe(published)
    expect(body.modifiedDate.date.slice(0, 10)).toBe(modified)
    expect(["json-ld:dateModified", "meta:article:modified_time"]).toContain(body.modifiedDate.source)
    const listed = body.allDatesFound.map((d: any) => `${d.source}|${d.date.slice(0, 10)}|${d.type}`)
    for (const want of [
      `meta:article:published_time|${published}|published`,
      `meta:article:modified_time|${modified}|modified`,
      `meta:og:updated_time|${modified}|modified`,
      `json-ld:datePublished|${published}|published`,
      `json-ld:dateModified|${modified}|modified`,
      `time-element|${published}|published`,
      `last-modified-header|${modified}|modified`
    ]) expect(listed).toContain(want)
    // The comment timestamp is a trap: not listed, reported as ignored.
    expect(listed.some((l: string) => l.includes(isoDay(1 * DAY)))).toBe(false)
    expect(body.dateConsistency).toMatchObject({ consistent: true, modifiedAfterPublished: true, issues: [] })
    expect(body.contentAge).toEqual({ days: 2, category: "fresh", basis: "modified" })
    expect(body.confidence).toBe("high")
    expect(body.cacheHeaders).toMatchObject({
      cacheControl: "public, max-age=300, s-maxage=600, stale-while-revalidate=60",
      effectiveTtl: 600,
      browserTtl: 300,
      ttlSource: "s-maxage",
      remainingTtl: 570,
      age: 30,
      etag: { present: true, value: '"v42"', weak: false },
      cdn: { detected: true, provider: "Cloudflare", cacheStatus: "HIT" }
    })
    expect(body.cacheHeaders.directives).toMatchObject({ maxAge: 300, sMaxAge: 600, staleWhileRevalidate: 60, public: true, noStore: false })
    expect(body.score).toBeGreaterThanOrEqual(85)
    expect(["A", "A+"]).toContain(body.grade)
    expect(Array.isArray(body.recommendations)).toBe(true)
  })

  test("dates in the URL path", async () => {
    const { body } = await fresh(`http://127.0.0.1:${origin.port}/news/${published.replaceAll("-", "/")}/story`)
    expect(body.publishDate).toEqual({ source: "url", date: published, ageInDays: 10 })
  })

  test("a stale page with contradictory cache headers: low grade and recommendations that say what to change", async () => {
    const { body } = await fresh(`http://127.0.0.1:${origin.port}/bare`)
    expect(body.contentAge.category).toBe("stale")
    expect(body.cacheHeaders.ttlSource).toBe("no-store")
    expect(body.cacheHeaders.issues.join(" ")).toMatch(/no-store together with max-age/)
    expect(["D", "F"]).toContain(body.grade)
    const rec = body.recommendations.join("\n")
    expect(rec).toMatch(/article:modified_time or JSON-LD dateModified/)
    expect(rec).toMatch(/last updated 400 days ago/)
    expect(rec).toMatch(/Replace no-store with no-cache/)
    expect(rec).toMatch(/Last-Modified/)
  })

  test("redirects are followed; url echoes the request, finalUrl the page", async () => {
    const { body } = await fresh(`http://127.0.0.1:${origin.port}/redirect`)
    expect(body.url).toBe(`http://127.0.0.1:${origin.port}/redirect`)
    expect(body.finalUrl).toBe(`http://127.0.0.1:${origin.port}/article`)
    expect(body.publishDate.date.slice(0, 10)).toBe(published)
  })

  test("a 5 MB page is capped, analysed and answered", async () => {
    const { status, body } = await fresh(`http://127.0.0.1:${origin.port}/big`)
    expect(status).toBe(200)
    expect(body.bodyTruncated).toBe(true)
    expect(body.publishDate.date.slice(0, 10)).toBe(published)
    expect(body.recommendations.join(" ")).toMatch(/exceeds the analysis limit/)
  })

  test("an endless body is cut at the cap", async () => {
    const { status, body } = await fresh(`http://127.0.0.1:${origin.port}/endless`)
    expect(status).toBe(200)
    expect(body.bodyTruncated).toBe(true)
    expect(body.publishDate.date.slice(0, 10)).toBe(published)
  })

  test("a non-HTML response: header analysis only", async () => {
    const { status, body } = await fresh(`http://127.0.0.1:${origin.port}/json`)
    expect(status).toBe(200)
    expect(body.publishDate).toBeNull()
    expect(body.modifiedDate.source).toBe("last-modified-header")
    expect(body.cacheHeaders.effectiveTtl).toBe(60)
  })

  test("a windows-1252 page is decoded by its meta charset", async () => {
    const { body } = await fresh(`http://127.0.0.1:${origin.port}/latin1`)
    expect(body.publishDate).toMatchObject({ source: "text:date-element", date: "2024-03-12" })
  })

  test("a 404 page is still analysed and its status reported", async () => {
    const { status, body } = await fresh(`http://127.0.0.1:${origin.port}/gone`)
    expect(status).toBe(200)
    expect(body.statusCode).toBe(404)
  })

  // A bare domain is fetched on PAGE_HTTPS_PORT, then PAGE_HTTP_PORT (443 and 80 by default):
  // here they name the test's servers; a port in a bare domain is refused (test/api/domain-param.test.ts).
  test("a bare domain is fetched over https first", async () => {
    const s = await startService({ pageHttpsPort: tlsOrigin.port, pageHttpPort: origin.port })
    try {
      const k = (await s.newKey("developer")).key
      const res = await s.call("/v1/domain/content-freshness?domain=localhost", { key: k })
      const body = (await res.json()) as any
      expect(res.status).toBe(200)
      expect(body.domain).toBe("localhost")
      expect(body.url).toBe(`https://localhost:${tlsOrigin.port}/`)
      expect(body.publishDate.date.slice(0, 10)).toBe(published)
    } finally {
      await s.stop()
    }
  })

  test("a bare domain falls back to http when https cannot connect", async () => {
    // Nothing listens for https on the origin's address at the port the service tries first.
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } })
    const httpsPort = closed.port
    closed.stop(true)
    const s = await startService({ pageHttpsPort: httpsPort, pageHttpPort: origin.port })
    try {
      const k = (await s.newKey("developer")).key
      const res = await s.call("/v1/domain/content-freshness?domain=127.0.0.1", { key: k })
      const body = (await res.json()) as any
      expect(res.status).toBe(200)
      expect(body.url).toBe(`http://127.0.0.1:${origin.port}/`)
    } finally {
      await s.stop()
    }
  })

  test("an unencoded URL in the query string keeps its scheme", async () => {
    const res = await svc.call(`/v1/domain/content-freshness?domain=http://127.0.0.1:${origin.port}/article`, { key })
    const body = (await res.json()) as any
    expect(body.url).toBe(`http://127.0.0.1:${origin.port}/article`)
  })

  test("a redirect loop or a redirect to a forbidden address: 502 upstream_unavailable, nothing fetched there", async () => {
    const loop = await fresh(`http://127.0.0.1:${origin.port}/loop`)
    expect(loop.status).toBe(502)
    expect(loop.body.error.message).toMatch(/too_many_redirects/)
    const meta = await fresh(`http://127.0.0.1:${origin.port}/to-metadata`)
    expect(meta.status).toBe(502)
    expect(meta.body.error.message).toMatch(/target_forbidden/)
  })

  test("nothing listening: 502 upstream_unavailable", async () => {
    const { status, body } = await fresh("http://127.0.0.1:1/")
    expect(status).toBe(502)
    expect(body.error.code).toBe("upstream_unavailable")
  })

  test("bad input: missing domain, bad scheme, metadata host", async () => {
    const missing = await svc.call("/v1/domain/content-freshness", { key })
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as any).error.code).toBe("invalid_request")
    // docs/conventions.md, "The domain parameter": another scheme is not a host name, so invalid_request.
    const ftp = await fresh("ftp://example.com/")
    expect(ftp.status).toBe(400)
    expect(ftp.body.error.code).toBe("invalid_request")
    const meta = await fresh("http://169.254.169.254/latest/meta-data/")
    expect(meta.status).toBe(400)
    expect(meta.body.error.code).toBe("target_forbidden")
  })

  test("plan label developer: a free key is refused", async () => {
    const free = (await svc.newKey("free")).key
    const { status, body } = await fresh(`http://127.0.0.1:${origin.port}/article`, free)
    expect(status).toBe(403)
    expect(body.error.code).toBe("plan_forbidden")
  })
})

// The shared benchmark (real pages with human-annotated publication dates) lives in ../shared
// beside the checkout (as on CI); FRESHNESS_BENCH_DIR points elsewhere.
const benchDir = process.env.FRESHNESS_BENCH_DIR ?? join(import.meta.dir, "../../../shared/benchmarks/freshness")

describe("shared benchmark pages", () => {
  test("publishDate exact-day accuracy holds the measured 94.6% (htmldate extensive: 90.8%)", () => {
    if (!existsSync(join(benchDir, "gold.json"))) {
      throw new Error(`freshness benchmark pages not found at ${benchDir}: run beside ../shared or set FRESHNESS_BENCH_DIR`)
    }
    const gold = JSON.parse(readFileSync(join(benchDir, "gold.json"), "utf8")) as Record<string, { file: string; published: string; path: string }>
    const entries = Object.entries(gold)
    const now = Date.now()
    let correct = 0
    for (const [, g] of entries) {
      const bytes = gunzipSync(readFileSync(join(benchDir, g.file)))
      const ex = extractSignals(decodeHtml(bytes.subarray(0, 3 * 1024 * 1024), undefined), "http://127.0.0.1:8099" + g.path)
      const sel = selectDates(ex.signals, now)
      if (sel.publish && dayKey(sel.publish.date) === g.published) correct++
    }
    expect(entries.length).toBe(995)
    // Floor at the figure reached (941/995, docs/freshness.md) less a margin of 2; raise it with every improvement.
    expect(correct).toBeGreaterThanOrEqual(939)
  }, 120_000)
})
