/**
 * Rules for how pages write and place their dates (docs/freshness.md, "Rules added for 95%"): each
 * with the page shape it fixes and the traps it must leave alone. Pure: extraction and selection
 * on pages the test writes.
 */
import { describe, expect, test } from "bun:test"
import { dayKey, findTextDates, urlDate } from "../../src/analyses/freshness/parse/dates"
import { extractSignals, numericOrder } from "../../src/analyses/freshness/extract"
import { selectDates } from "../../src/analyses/freshness/select"
import { boilerClass } from "../../src/analyses/freshness/signals/regions"

const NOW = Date.parse("2024-03-20T12:00:00Z")
const doc = (head: string, body: string, lang = "en") => `<!DOCTYPE html><html lang="${lang}"><head><title>T</title>${head}</head><body>${body}</body></html>`
const pick = (html: string, url = "https://example.com/story") => {
  const sel = selectDates(extractSignals(html, url).signals, NOW)
  return sel.publish ? dayKey(sel.publish.date) : null
}
const days = (text: string, monthFirst = false) => findTextDates(text, 10, { monthFirst }).map((f) => dayKey(f.date))

type Case = readonly [name: string, html: string, day: string | null]
const check = (cases: ReadonlyArray<Case>) => {
  for (const [name, html, day] of cases) test(name, () => expect(pick(html)).toBe(day))
}

describe("text runs", () => {
  check([
    ["inline elements side by side keep their words apart (a byline name before the date)",
      doc("", `<article><div class="art-meta"><span class="art-author">Jan Nowak</span><span class="art-date">23 listopada 2020, 09:15</span></div><p>Tekst.</p></article>`),
      "2020-11-23"]
  ])
})

describe("boilerplate classes, token by token", () => {
  const cases: ReadonlyArray<readonly [string, string, boolean, boolean?]> = [
    ["a sidebar", "sidebar widget-area", true],
    ["a sidebar's column", "col-md-4 sidebar-wrap", true],
    ["a related list", "related-posts", true],
    ["a post's taxonomy (WordPress post_class)", "post-229125 post type-post status-publish category-kommentar tag-share-economy", false],
    ["Elementor wraps every block", "elementor-widget-wrap elementor-element-populated", false],
    ["trap: an Elementor sidebar widget is still a sidebar", "elementor-widget elementor-widget-sidebar", true],
    ["a page wrapper naming its sidebar layout", "vw-page-wrapper clearfix vw-blog-sidebar", false],
    ["a layout modifier", "container-full-width template-two-col with-sidebar-right", false],
    ["a main wrapper with a sidebar modifier", "mainwrap single-default sidebar", false],
    ["an article's own footer", "entry-footer", false, true],
    ["trap: the site footer inside the content wrapper", "site-footer", true, true],
    ["trap: a footer outside any content", "entry-footer", true, false]
  ]
  for (const [what, cls, boiler, inContent] of cases) test(`${what}: ${cls}`, () => expect(boilerClass(cls, inContent ?? false)).toBe(boiler))

  check([
    ["an aside holding the article's meta is the article's",
      doc(`<meta name="date" content="2022-01-26">`, `<article class="article"><div class="article__wrap"><aside class="meta"><p class="meta__content"><time class="meta__label" datetime="2022-01-21T13:30">21.01.2022 - 13:30</time></p></aside><p>Text.</p></div></article>`),
      "2022-01-21"],
    ["trap: a related aside inside the article stays boilerplate",
      doc("", `<article><p class="posted">Posted 12 March 2024</p><aside class="related"><time datetime="2024-03-18">18 March 2024</time></aside></article>`),
      "2024-03-12"]
  ])
})

describe("all-numeric dates", () => {
  test("day first by default, month first when day first is impossible", () => {
    expect(days("12.03.2024")).toEqual(["2024-03-12"])
    expect(days("04/02/2019")).toEqual(["2019-02-04"])
    expect(days("04/15/2019")).toEqual(["2019-04-15"])
    expect(days("03-15-2011, 02:30 PM")).toEqual(["2011-03-15"])
  })
  test("a weekday before the date decides between the two readings", () => {
    expect(days("Tue, 04/02/2019 - 10:32")).toEqual(["2019-04-02"])
    expect(days("Mon, 04/02/2019")).toEqual(["2019-02-04"])
    expect(days("Donnerstag, 03.04.2014")).toEqual(["2014-04-03"])
    // trap: a word ending like a weekday abbreviation ("to-do") is no weekday
    expect(days("Todo 04/02/2019")).toEqual(["2019-02-04"])
  })
  test("the page's own order: month-first evidence, else an en-US page; dotted dates stay day first", () => {
    expect(numericOrder("Closed 04/08/2019 to 04/15/2019", "en").monthFirst).toBe(true)
    expect(numericOrder("Closed 15/04/2019, reopened 04/08/2019", "en-US").monthFirst).toBe(false)
    expect(numericOrder("no dates here", "en-US").monthFirst).toBe(true)
    expect(numericOrder("no dates here", "en-GB").monthFirst).toBe(false)
    expect(days("04/02/2019", true)).toEqual(["2019-04-02"])
    expect(days("04.02.2019", true)).toEqual(["2019-02-04"])
  })
})

describe("ranges of days", () => {
  test("a range in one month reads as its first day", () => {
    expect(days("Wochenbericht 14. - 20. Januar 2022")).toEqual(["2022-01-14"])
    expect(days("returns on 12–14 June 2024.")).toEqual(["2024-06-12"])
    expect(days("March 3–5, 2024")).toEqual(["2024-03-03"])
    // trap: two complete dates stay two dates
    expect(days("12.03.2024 – 14.03.2024")).toEqual(["2024-03-12", "2024-03-14"])
  })
})

describe("URL dates", () => {
  test("separators may differ, but a dot after the year needs a dot after the month (DOIs)", () => {
    expect(urlDate("https://example.com/n1/2021/0312/c1001-32049875.html")?.date).toMatchObject({ y: 2021, m: 3, d: 12 })
    expect(urlDate("http://example.com/local/2020-02/19/c_1125597921.htm")?.date).toMatchObject({ y: 2020, m: 2, d: 19 })
    expect(urlDate("https://example.com/2020.04.12/story")?.date).toMatchObject({ y: 2020, m: 4, d: 12 })
    expect(urlDate("https://journals.example/article/10.5555/jms.2020.0412")).toBeUndefined()
  })
})

describe("time elements and change logs", () => {
  check([
    ["GitHub's relative-time is a time element; 'timeline' is no date hint",
      doc("", `<div class="gh-header-show"><a class="author">mhart</a> opened this issue <relative-time datetime="2022-01-12T10:04:51Z">Jan 12, 2022</relative-time></div><div class="timeline-comment-header">commented <relative-time datetime="2022-01-14T08:00:00Z">Jan 14, 2022</relative-time></div>`),
      "2022-01-12"],
    ["a change log's dates are changes, the first-published date is the page's",
      doc("", `<main><div class="app-c-published-dates"><ol><li><time class="app-c-published-dates__change-date timestamp" datetime="2021-03-15T16:42:10Z">15 March 2021</time></li><li><time datetime="2021-03-12T10:00:00Z">12 March 2021</time> First published.</li></ol></div></main>`),
      "2021-03-12"],
    ["RDFa date properties (Drupal 7's byline span) are structured dates",
      doc("", `<div class="node"><div class="meta submitted"><span property="dc:date dc:created" content="2019-04-02T10:32:00-04:00">Submitted by webadmin on Tue, 04/02/2019 - 10:32</span></div></div>`),
      "2019-04-02"]
  ])
})

describe("the UTC stamp and its neighbours", () => {
  check([
    ["a visible dateline with the stamp's own day confirms the stamp (the day before is a related story's)",
      doc(`<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-07-12T05:58:31.000Z"}</script>`, `<article><time datetime="2023-07-12T05:58:31.000Z">12 July 2023</time><p>Text.</p></article><section><ul><li><a href="/x">Related</a><time datetime="2023-07-11T18:00:00.000Z">11 July 2023</time></li></ul></section>`),
      "2023-07-12"],
    ["trap: with only the local dateline a day earlier, the stamp still moves to it",
      doc(`<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-07-12T03:00:00Z"}</script>`, `<article><p class="date">11 July 2023</p><p>Text.</p></article>`),
      "2023-07-11"]
  ])
})

describe("several structured publication dates", () => {
  check([
    ["the one the page's first visible dateline states",
      doc(`<meta name="dcterms.created" content="2023-11-08T20:25:25-05:00"><script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-11-09T03:02:34-05:00"}</script>`, `<article><div class="article-date">November 9, 2023 3:02am EST</div><p>Text.</p></article><aside><div class="date">November 8, 2023</div></aside>`),
      "2023-11-09"],
    ["trap: without a visible dateline, the first in document order",
      doc(`<meta name="dcterms.created" content="2023-11-08T20:25:25-05:00"><script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-11-09T03:02:34-05:00"}</script>`, `<article><p>Text.</p></article>`),
      "2023-11-08"]
  ])
})

describe("the page's own update statement and event dates", () => {
  check([
    ["a docs footer's 'Last updated on' beats a release date in the text",
      doc("", `<div role="main"><p>Since version 4.0 (released 2021-10-01) variables override the file.</p></div><footer><p>&#169; Copyright 2015-2022. <span class="lastupdated">Last updated on Mar 03, 2022.</span></p></footer>`),
      "2022-03-03"],
    ["a wiki's 'last edited on' beats a historical date in the article",
      doc("", `<div id="content"><p>Service began on 23 December 1928.</p></div><footer id="footer"><ul><li id="footer-info-lastmod"> This page was last edited on 3 March 2023, at 12:04 (UTC).</li></ul></footer>`),
      "2023-03-03"],
    ["deadlines are no datelines: the last-change line dates a hand-written page",
      doc("", `<h1>QM I</h1><p>Lecture: Tue 10-12, Room 2.14. First lecture: 20.10.2009.</p><ul><li><a href="s1.pdf">Sheet 1</a> (due 27.10.2009)</li><li><a href="s2.pdf">Sheet 2</a> (due 03.11.2009)</li></ul><hr><address>H. R., last change: 06.10.2009</address>`, "de"),
      "2009-10-06"],
    ["trap: a publication dateline stays, whatever the footer says",
      doc("", `<article><p class="posted-on">Posted on 12 March 2024</p><p>Text.</p></article><footer>Last updated on 18 March 2024</footer>`),
      "2024-03-12"],
    ["trap: a deadline in running text does not outrank the page's date",
      doc("", `<article><div class="post-date">February 1, 2024</div><p>Applications are open until March 31, 2024.</p></article>`),
      "2024-02-01"]
  ])
})

describe("labelled publication dates", () => {
  check([
    ["within a tier, the date introduced as the publication beats an event's date above it",
      doc("", `<div class="event-detail"><h1>Trio Elf live</h1><p class="event-date">Donnerstag, 09.03.2023, 20:00 Uhr</p><p class="news-meta">Veröffentlicht am 01.02.2023</p></div>`, "de"),
      "2023-02-01"],
    ["trap: a structured date still outranks a labelled text date",
      doc(`<meta property="article:published_time" content="2023-02-03T10:00:00+01:00">`, `<article><p class="meta">Published on 1 February 2023</p></article>`),
      "2023-02-03"]
  ])
})
