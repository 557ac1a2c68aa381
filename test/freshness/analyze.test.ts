/**
 * Content Freshness, pure core: every date source docs/operations/content-freshness.md lists
 * ("Date sources"), every trap, selection, consistency, confidence, content age, cache analysis
 * (RFC 9111) and grading, on pages the tests write.
 */
import { describe, expect, test } from "bun:test"
import { analyzePage, type FreshnessReport, gradeOf } from "../../src/analyses/freshness/analyze"
import { analyzeCache } from "../../src/analyses/freshness/cache"
import { findRelative, findTextDates, parseStructured, urlDate } from "../../src/analyses/freshness/parse/dates"

const NOW = Date.parse("2024-03-20T12:00:00Z")
const doc = (head: string, body: string) => `<!DOCTYPE html><html><head><title>T</title>${head}</head><body>${body}</body></html>`

const run = (html: string, opts: { url?: string; headers?: Record<string, string>; now?: number } = {}): FreshnessReport =>
  analyzePage({
    domain: "example.com",
    url: opts.url ?? "https://example.com/story",
    finalUrl: opts.url ?? "https://example.com/story",
    status: 200,
    headers: { "content-type": "text/html", ...(opts.headers ?? {}) },
    html,
    isHtml: true,
    bodyTruncated: false,
    nowMs: opts.now ?? NOW
  })

const sources = (r: FreshnessReport) => r.allDatesFound.map((d) => `${d.source}=${d.date.slice(0, 10)}/${d.type}`)

describe("date sources", () => {
  const cases: Array<[string, string, string, "publish" | "modified", string]> = [
    ["article:published_time", `<meta property="article:published_time" content="2024-03-12T09:30:00+01:00">`, "", "publish", "meta:article:published_time"],
    ["og:published_time", `<meta property="og:published_time" content="2024-03-12">`, "", "publish", "meta:og:published_time"],
    ["meta name=date", `<meta name="date" content="2024-03-12">`, "", "publish", "meta:date"],
    ["article:modified_time", `<meta property="article:modified_time" content="2024-03-12T10:00:00Z">`, "", "modified", "meta:article:modified_time"],
    ["og:updated_time", `<meta property="og:updated_time" content="2024-03-12T10:00:00+00:00">`, "", "modified", "meta:og:updated_time"],
    ["meta name=revised", `<meta name="revised" content="Tuesday, March 12th, 2024, 5:15 pm">`, "", "modified", "meta:revised"],
    ["http-equiv last-modified", `<meta http-equiv="last-modified" content="Tue, 12 Mar 2024 08:00:00 GMT">`, "", "modified", "meta:http-equiv:last-modified"],
    ["JSON-LD datePublished", `<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","datePublished":"2024-03-12T08:00:00+01:00"}</script>`, "", "publish", "json-ld:datePublished"],
    ["JSON-LD dateModified", `<script type="application/ld+json">{"@type":"Article","dateModified":"2024-03-12"}</script>`, "", "modified", "json-ld:dateModified"],
    ["JSON-LD @graph", `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"x"},{"@type":"BlogPosting","datePublished":"2024-03-12"}]}</script>`, "", "publish", "json-ld:datePublished"],
    ["JSON-LD array", `<script type="application/ld+json">[{"@type":"BreadcrumbList"},{"@type":"Article","datePublished":"2024-03-12"}]</script>`, "", "publish", "json-ld:datePublished"],
    ["broken JSON-LD", `<script type="application/ld+json">{"@type":"Article", "headline": "He said "hi"", "datePublished": "2024-03-12T07:00:00Z",}</script>`, "", "publish", "json-ld:datePublished"],
    ["<time datetime>", "", `<article><h1>T</h1><time datetime="2024-03-12T08:00">12 March</time><p>text</p></article>`, "publish", "time-element"],
    ["ISO text", "", `<article><p class="byline">Posted 2024-03-12 by Ann</p></article>`, "publish", "text:date-element"],
    ["12 March 2024", "", `<article><p>Story</p><span class="date">12 March 2024</span></article>`, "publish", "text:date-element"],
    ["March 12, 2024", "", `<article><div class="post-meta">March 12, 2024</div></article>`, "publish", "text:date-element"],
    ["12.03.2024", "", `<article><div class="datum">12.03.2024</div></article>`, "publish", "text:date-element"],
    ["unmarked body text", "", `<article><p>The council met on 12 March 2024 to vote.</p></article>`, "publish", "text"]
  ]
  for (const [name, head, body, field, source] of cases) {
    test(name, () => {
      const r = run(doc(head, body))
      const got = field === "publish" ? r.publishDate : r.modifiedDate
      expect(got).not.toBeNull()
      expect(got!.source).toBe(source)
      expect(got!.date.slice(0, 10)).toBe("2024-03-12")
      expect(got!.ageInDays).toBe(8)
      expect(sources(r).some((s) => s.startsWith(source + "=2024-03-12"))).toBe(true)
    })
  }

  test("JSON-LD dateCreated is listed with type created", () => {
    const r = run(doc(`<script type="application/ld+json">{"@type":"CreativeWork","dateCreated":"2024-03-01"}</script>`, ""))
    expect(r.allDatesFound).toContainEqual({ source: "json-ld:dateCreated", date: "2024-03-01", type: "created" })
    expect(r.publishDate?.date).toBe("2024-03-01")
  })

  test("URL path dates", () => {
    const r = run(doc("", "<p>no dates</p>"), { url: "https://example.com/2024/03/12/story.html" })
    expect(r.publishDate).toEqual({ source: "url", date: "2024-03-12", ageInDays: 8 })
    expect(urlDate("https://example.com/news/2024-03-12-title")?.date).toMatchObject({ y: 2024, m: 3, d: 12 })
    expect(urlDate("https://example.com/p/20240312/x")?.complete).toBe(true)
    expect(urlDate("https://example.com/2024/03/title")?.complete).toBe(false)
    expect(urlDate("https://example.com/item/12345678")).toBeUndefined()
  })

  test("Last-Modified header is a modification date, never the publication date", () => {
    const r = run(doc("", "<p>plain</p>"), { headers: { "last-modified": "Mon, 18 Mar 2024 10:00:00 GMT" } })
    expect(r.lastModifiedHeader).toBe("Mon, 18 Mar 2024 10:00:00 GMT")
    expect(r.modifiedDate?.source).toBe("last-modified-header")
    expect(r.modifiedDate?.date.slice(0, 10)).toBe("2024-03-18")
    expect(r.publishDate).toBeNull()
  })

  test("relative \"updated 3 days ago\" resolves against the clock", () => {
    const r = run(doc("", `<article><p class="meta">Updated 3 days ago</p><p>x</p></article>`))
    expect(r.modifiedDate?.source).toBe("text:relative")
    expect(r.modifiedDate?.date.slice(0, 10)).toBe("2024-03-17")
    expect(findRelative("published 2 hours ago")[0]).toMatchObject({ kind: "published" })
    expect(findRelative("vor 3 Tagen aktualisiert")).toEqual([])
    expect(findRelative("aktualisiert vor 3 Tagen")[0]).toMatchObject({ days: 3, kind: "modified" })
  })

  test("text formats in several languages", () => {
    const days = (t: string) => findTextDates(t).map((f) => `${f.date.y}-${f.date.m}-${f.date.d}`)
    expect(days("12. März 2024")).toEqual(["2024-3-12"])
    expect(days("le 12 mars 2024")).toEqual(["2024-3-12"])
    expect(days("12 de marzo de 2024")).toEqual(["2024-3-12"])
    expect(days("Mar 12th, 2024")).toEqual(["2024-3-12"])
    expect(days("2024年3月12日")).toEqual(["2024-3-12"])
    expect(days("12/03/2024")).toEqual(["2024-3-12"])
    expect(days("03/25/2024")).toEqual(["2024-3-25"])
    expect(days("version 1.2.3 and 31.02.2024")).toEqual([])
  })

  test("structured values: ISO, RFC 2822, epoch", () => {
    expect(parseStructured("2024-03-12T23:30:00-05:00")).toEqual({ y: 2024, m: 3, d: 12, time: "23:30:00", offset: "-05:00" })
    expect(parseStructured("Tue, 12 Mar 2024 08:00:00 GMT")).toMatchObject({ y: 2024, m: 3, d: 12, offset: "Z" })
    expect(parseStructured("1710230400")).toMatchObject({ y: 2024, m: 3, d: 12 })
    expect(parseStructured("not a date")).toBeUndefined()
    expect(parseStructured("2024-03-12T25:99:00Z")).toEqual({ y: 2024, m: 3, d: 12 })
    expect(parseStructured("2024-02-30")).toBeUndefined()
  })
})

describe("traps", () => {
  test("copyright years are not dates", () => {
    const r = run(doc("", `<article><p>Hello</p></article><footer>© 2024 Example GmbH · Copyright 2019-2024</footer>`))
    expect(r.publishDate).toBeNull()
    expect(r.allDatesFound).toEqual([])
  })

  test("comment timestamps do not become the publication date", () => {
    const r = run(doc(
      `<meta property="article:published_time" content="2024-01-05T10:00:00Z">`,
      `<article><h1>Post</h1><p>Body</p></article><section id="comments"><div class="comment"><span class="comment-date">March 19, 2024</span> Nice!</div><div class="comment"><time datetime="2024-03-18T10:00">18 Mar</time> Thanks</div></section>`
    ))
    expect(r.publishDate?.date.slice(0, 10)).toBe("2024-01-05")
    expect(r.allDatesFound.some((d) => d.date.startsWith("2024-03-19") || d.date.startsWith("2024-03-18"))).toBe(false)
    expect(r.dateConsistency.ignored.some((i) => /comment/.test(i.reason))).toBe(true)
  })

  test("comment timestamps alone do not date the page", () => {
    const r = run(doc("", `<article><p>Body without a date</p></article><ol class="commentlist"><li><p>Reply</p>March 19, 2024</li></ol>`))
    expect(r.publishDate).toBeNull()
  })

  test("dates beyond the clock-skew allowance are discarded, near-future ones kept", () => {
    const far = run(doc(`<meta property="article:published_time" content="2031-01-01T00:00:00Z">`, ""))
    expect(far.publishDate).toBeNull()
    expect(far.dateConsistency.ignored).toContainEqual({ source: "meta:article:published_time", reason: "in the future" })
    const skew = run(doc(`<meta property="article:published_time" content="2024-03-21T00:00:00+01:00">`, ""))
    expect(skew.publishDate?.date.slice(0, 10)).toBe("2024-03-21")
  })

  test("dates before the web are discarded", () => {
    const r = run(doc(`<meta name="date" content="1985-05-05">`, `<article><p>Founded 12 March 1979.</p></article>`))
    expect(r.publishDate).toBeNull()
    expect(r.dateConsistency.ignored.filter((i) => /before the web/.test(i.reason)).length).toBe(2)
  })

  test("related-article dates lose to the article's own dateline", () => {
    const r = run(doc("", `<article><h1>Main</h1><p class="dateline">14 March 2024</p><p>Body</p></article><aside class="related"><ul><li><a href="/a">Older story</a> <span class="date">01 March 2024</span></li></ul></aside>`))
    expect(r.publishDate?.date).toBe("2024-03-14")
  })
})

describe("selection, consistency, confidence", () => {
  test("agreeing structured sources give high confidence; modified after published", () => {
    const r = run(doc(
      `<meta property="article:published_time" content="2024-03-12T08:00:00+01:00"><meta property="article:modified_time" content="2024-03-15T08:00:00+01:00"><script type="application/ld+json">{"@type":"Article","datePublished":"2024-03-12T08:00:00+01:00","dateModified":"2024-03-15T08:00:00+01:00"}</script>`,
      `<article><time datetime="2024-03-12">12 March 2024</time></article>`
    ), { url: "https://example.com/2024/03/12/story" })
    expect(r.publishDate?.date).toBe("2024-03-12")
    expect(r.modifiedDate?.date.slice(0, 10)).toBe("2024-03-15")
    expect(r.confidence).toBe("high")
    expect(r.dateConsistency).toMatchObject({ consistent: true, modifiedAfterPublished: true, issues: [] })
    expect(r.contentAge).toEqual({ days: 5, category: "fresh", basis: "modified" })
  })

  test("a modified date earlier than the published one is flagged", () => {
    const r = run(doc(`<script type="application/ld+json">{"@type":"Article","datePublished":"2024-03-12","dateModified":"2024-02-01"}</script>`, ""))
    expect(r.dateConsistency.modifiedAfterPublished).toBe(false)
    expect(r.dateConsistency.consistent).toBe(false)
    expect(r.dateConsistency.issues.join(" ")).toMatch(/earlier than the publication date/)
    expect(r.recommendations.join(" ")).toMatch(/dateModified/)
  })

  test("disagreeing publication sources are flagged with their spread", () => {
    const r = run(doc(`<meta property="article:published_time" content="2024-03-12"><script type="application/ld+json">{"@type":"Article","datePublished":"2024-01-02"}</script>`, ""))
    expect(r.dateConsistency.consistent).toBe(false)
    expect(r.dateConsistency.issues[0]).toMatch(/disagree: 2024-01-02, 2024-03-12 \(70 days apart\)/)
    expect(r.dateConsistency.dateSpreadDays).toBe(70)
    expect(r.confidence).toBe("medium")
  })

  test("no dates at all: confidence none, age unknown", () => {
    const r = run(doc("", "<p>Hello</p>"))
    expect(r.publishDate).toBeNull()
    expect(r.modifiedDate).toBeNull()
    expect(r.confidence).toBe("none")
    expect(r.contentAge).toEqual({ days: null, category: "unknown", basis: null })
    expect(r.recommendations.join(" ")).toMatch(/article:published_time/)
  })

  test("only a dateline in text: low or medium confidence, recommendation to add metadata", () => {
    const r = run(doc("", `<article><p>The council met on 12 March 2024.</p></article>`))
    expect(["low", "medium"]).toContain(r.confidence)
    expect(r.recommendations.join(" ")).toMatch(/only visible in the text/)
  })

  test("content age categories at their boundaries", () => {
    const at = (days: number) => run(doc(`<meta property="article:published_time" content="${new Date(NOW - days * 86400000).toISOString().slice(0, 10)}">`, "")).contentAge.category
    expect(at(0)).toBe("fresh")
    expect(at(30)).toBe("fresh")
    expect(at(31)).toBe("recent")
    expect(at(180)).toBe("recent")
    expect(at(181)).toBe("aging")
    expect(at(365)).toBe("aging")
    expect(at(366)).toBe("stale")
  })

  test("grades", () => {
    expect([100, 95, 94, 85, 84, 70, 69, 55, 54, 40, 39, 0].map(gradeOf)).toEqual(["A+", "A+", "A", "A", "B", "B", "C", "C", "D", "D", "F", "F"])
  })

  test("a well-kept fresh page with good cache headers scores A or better; a stale one without metadata scores low", () => {
    const good = run(doc(
      `<meta property="article:published_time" content="2024-03-18T08:00:00Z"><meta property="article:modified_time" content="2024-03-19T08:00:00Z"><script type="application/ld+json">{"@type":"Article","datePublished":"2024-03-18T08:00:00Z","dateModified":"2024-03-19T08:00:00Z"}</script>`, ""),
      { headers: { "cache-control": "public, max-age=300, stale-while-revalidate=60", etag: '"abc"', "last-modified": "Tue, 19 Mar 2024 08:00:00 GMT" } })
    expect(good.score).toBeGreaterThanOrEqual(85)
    expect(["A", "A+"]).toContain(good.grade)
    const bad = run(doc("", `<article><p>Written 12 March 2015.</p></article>`))
    expect(bad.score).toBeLessThan(40)
    expect(bad.grade).toBe("F")
    expect(bad.scoreBreakdown.contentAge + bad.scoreBreakdown.signalQuality + bad.scoreBreakdown.cacheHygiene).toBe(bad.score)
  })
})

describe("cache analysis (RFC 9111)", () => {
  const cache = (headers: Record<string, string>, status = 200) => analyzeCache({ headers, status, isHtml: true, nowMs: NOW })

  test("s-maxage wins for shared caches, max-age for the browser", () => {
    const c = cache({ "cache-control": "public, max-age=600, s-maxage=3600, stale-while-revalidate=30", etag: '"v1"' })
    expect(c).toMatchObject({ effectiveTtl: 3600, browserTtl: 600, ttlSource: "s-maxage" })
    expect(c.directives).toMatchObject({ maxAge: 600, sMaxAge: 3600, public: true, staleWhileRevalidate: 30 })
    expect(c.etag).toEqual({ present: true, value: '"v1"', weak: false })
  })

  test("private: nothing for shared caches, max-age for the browser", () => {
    const c = cache({ "cache-control": "private, max-age=60, must-revalidate", etag: 'W/"x"' })
    expect(c).toMatchObject({ effectiveTtl: 0, browserTtl: 60, ttlSource: "private" })
    expect(c.directives.mustRevalidate).toBe(true)
    expect(c.etag.weak).toBe(true)
  })

  test("qualified no-cache and private name fields, not the response", () => {
    const c = cache({ "cache-control": 'max-age=120, no-cache="Set-Cookie", private="X-User"', etag: '"q"' })
    expect(c).toMatchObject({ effectiveTtl: 120, ttlSource: "max-age" })
    expect(c.directives.noCache).toBe(false)
    expect(c.directives.private).toBe(false)
  })

  test("no-store and no-cache", () => {
    expect(cache({ "cache-control": "no-store" })).toMatchObject({ effectiveTtl: 0, ttlSource: "no-store" })
    const nc = cache({ "cache-control": "no-cache, max-age=600", etag: '"a"' })
    expect(nc).toMatchObject({ effectiveTtl: 0, ttlSource: "no-cache" })
    expect(nc.issues.join(" ")).toMatch(/no-cache together with a positive max-age/)
  })

  test("Expires against Date; Age reduces the remaining lifetime; Age beyond the lifetime is an issue", () => {
    const c = cache({ date: "Wed, 20 Mar 2024 12:00:00 GMT", expires: "Wed, 20 Mar 2024 13:00:00 GMT", age: "100", "last-modified": "Mon, 18 Mar 2024 12:00:00 GMT" })
    expect(c).toMatchObject({ effectiveTtl: 3600, ttlSource: "expires", remainingTtl: 3500, age: 100 })
    const stale = cache({ "cache-control": "max-age=60", age: "120", etag: '"z"' })
    expect(stale.issues.join(" ")).toMatch(/Age \(120s\) exceeds the freshness lifetime \(60s\)/)
  })

  test("heuristic freshness: 10% of the time since Last-Modified", () => {
    const c = cache({ date: "Wed, 20 Mar 2024 12:00:00 GMT", "last-modified": "Sun, 10 Mar 2024 12:00:00 GMT" })
    expect(c).toMatchObject({ ttlSource: "heuristic", effectiveTtl: 86400 })
    expect(c.issues.join(" ")).toMatch(/no Cache-Control header/)
  })

  test("configuration issues", () => {
    const c = cache({ "cache-control": "private, s-maxage=100, max-age=abc", expires: "soon", vary: "*" })
    const all = c.issues.join(" | ")
    expect(all).toMatch(/private together with s-maxage/)
    expect(all).toMatch(/max-age has no valid number/)
    expect(all).toMatch(/Expires is not a valid HTTP date/)
    expect(all).toMatch(/Vary: \*/)
    expect(all).toMatch(/no validator/)
  })

  test("CDN indicators", () => {
    const cf = cache({ "cf-cache-status": "HIT", "cf-ray": "8a1b2c3d4e5f6789-FRA", age: "42", server: "cloudflare", "cache-control": "max-age=300" })
    expect(cf.cdn).toMatchObject({ detected: true, provider: "Cloudflare", cacheStatus: "HIT" })
    expect(cf.cdn.indicators.map((i) => i.header)).toEqual(["cf-cache-status", "cf-ray", "age"])
    const fastly = cache({ "x-served-by": "cache-fra-eddf8230123-FRA", "x-cache": "HIT, MISS", via: "1.1 varnish" })
    expect(fastly.cdn.provider).toBe("Fastly")
    expect(fastly.cdn.cacheStatus).toBe("HIT")
    const cloudfront = cache({ "x-cache": "Hit from cloudfront", via: "1.1 abc.cloudfront.net (CloudFront)", "x-amz-cf-pop": "FRA56-P1" })
    expect(cloudfront.cdn.provider).toBe("Amazon CloudFront")
    expect(cache({ "cache-control": "max-age=60", "cdn-cache-control": "max-age=3600" }).cdn.detected).toBe(true)
    expect(cache({ "cache-control": "max-age=60" }).cdn).toEqual({ detected: false, provider: null, cacheStatus: null, indicators: [] })
  })
})
