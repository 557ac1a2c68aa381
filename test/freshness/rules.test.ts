/**
 * Selection rules added for the 93% accuracy step (docs/freshness.md has the cause table): each
 * rule with the page shape it fixes and the traps it must leave alone. Pure: extraction and
 * selection on pages the test writes.
 */
import { describe, expect, test } from "bun:test"
import { dayKey, findTextDates } from "../../src/analyses/freshness/parse/dates"
import { extractSignals, isDateline, MAX_DATELINES } from "../../src/analyses/freshness/extract"
import { selectDates } from "../../src/analyses/freshness/select"

const NOW = Date.parse("2024-03-20T12:00:00Z")
const doc = (head: string, body: string) => `<!DOCTYPE html><html><head><title>T</title>${head}</head><body>${body}</body></html>`
const pick = (html: string, url = "https://example.com/story") => {
  const sel = selectDates(extractSignals(html, url).signals, NOW)
  return sel.publish ? { day: dayKey(sel.publish.date), source: sel.publish.source } : null
}
const sourcesOf = (html: string, day: string) =>
  extractSignals(html, "https://example.com/story").signals.filter((s) => dayKey(s.date) === day && !s.source.startsWith("source:"))

type Case = readonly [name: string, html: string, day: string | null, source?: string]

const check = (cases: ReadonlyArray<Case>) => {
  for (const [name, html, day, source] of cases) {
    test(name, () => {
      const got = pick(html)
      if (day === null) expect(got).toBeNull()
      else {
        expect(got?.day).toBe(day)
        if (source) expect(got?.source).toBe(source)
      }
    })
  }
}

describe("standalone datelines", () => {
  check([
    ["a paragraph that is only a date beats a date in a photo caption above it",
      doc("", `<article class="post"><div class="entry-content"><div><img src="a.jpg"><br>FILE PHOTO: The president speaks near Orleans, France, January 16, 2020. Photo agency</div><p>January 18, 2020</p><p>PARIS - Protesters tried to force their way in.</p></div></article>`),
      "2020-01-18", "text:date-element"],
    ["a short label is allowed (\"Posted on\")",
      doc("", `<article><p>In 2019 the council met on 3 May 2019 for the first time.</p><p>Posted on 12 March 2024</p></article>`),
      "2024-03-12", "text:date-element"],
    ["trap: a list of standalone dates (an archive) is not a dateline; running text keeps its place",
      doc("", `<article><p>The council met on 12 March 2024 to vote.</p><ul>${[1, 2, 3, 4, 5].map((d) => `<li>0${d} February 2024</li>`).join("")}</ul></article>`),
      "2024-03-12", "text"],
    ["trap: a standalone date in a comment never dates the page",
      doc("", `<article><p>Body without a date</p></article><div class="comments"><div class="comment"><p>19 March 2024</p></div></div>`),
      null]
  ])

  test("the dateline test itself", () => {
    const at = (t: string) => isDateline(t, findTextDates(t))
    expect(at("January 18, 2020")).toBe(true)
    expect(at("Veröffentlicht am 12.03.2024")).toBe(true)
    expect(at("The council met on 12 March 2024 to vote on the budget.")).toBe(false)
    expect(at("12.03.2024 – 14.03.2024")).toBe(false)
    expect(MAX_DATELINES).toBeGreaterThanOrEqual(2)
  })

  test("WordPress's status-publish class names no date: body text in such a post stays plain text", () => {
    const html = doc("", `<article class="post type-post status-publish format-standard"><div class="entry-content"><p>The council met on 12 March 2024 to vote.</p></div></article>`)
    expect(sourcesOf(html, "2024-03-12").map((s) => s.source)).toEqual(["text"])
  })
})

describe("time zones: the same instant in UTC and in the publisher's offset", () => {
  check([
    ["UTC late in the evening and the same instant with a local offset the next day: the local day",
      doc(`<meta property="article:published_time" content="2020-12-24T23:59:50+00:00"><script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2020-12-25T01:59:50+02:00"}</script>`, "<article><p>Body</p></article>"),
      "2020-12-25", "json-ld:datePublished"],
    ["trap: two different instants are not one statement; the first structured date stays",
      doc(`<meta property="article:published_time" content="2020-12-24T23:59:50+00:00"><script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2020-12-25T10:00:00+02:00"}</script>`, "<article><p>Body</p></article>"),
      "2020-12-24", "meta:article:published_time"],
    ["trap: a local stamp alone is kept as stated",
      doc(`<meta property="article:published_time" content="2020-06-29T00:16:15+03:00">`, "<article><p>Body</p></article>"),
      "2020-06-29"]
  ])
})

describe("regions: asides, mastheads, embeds", () => {
  check([
    ["an element with class aside is boilerplate: its time elements lose to the article's own",
      doc("", `<div class="aside secondary"><article class="entry"><p class="publication"><time pubdate datetime="2019-09-22T07:30:29Z">22 septembre</time></p></article></div><main><article><header><p class="publication"><time datetime="2019-06-28T13:49:45Z">28 juin 2019</time></p></header><p>Body</p></article></main>`),
      "2019-06-28", "time-element"],
    ["the site masthead's date is the day of the visit, not the page's",
      doc("", `<div class="wrapper"><header><div class="logo">News</div><span class="date">Tue, 14 Jan 2020</span></header><div class="container"><h2>Megablaze under control</h2><p>News24<br>13 Jan 2020, 22:11 GMT+10</p><p>Firefighters said on Monday.</p></div></div>`),
      "2020-01-13"],
    ["a masthead named by its id (a clock in #headerContainer)",
      doc("", `<div id="body"><div id="headerContainer"><span id="uhr">Donnerstag, 16. Februar 2012</span></div><div id="contentContainer"><div class="boxHeader"><span>14. Februar 2012</span></div><p>Text.</p></div></div>`),
      "2012-02-14"],
    ["trap: an article's own <header> keeps its dateline",
      doc("", `<article><header><h1>T</h1><span class="date">12 March 2024</span></header><p>Body</p></article><aside class="related"><span class="date">01 March 2024</span></aside>`),
      "2024-03-12", "text:date-element"],
    ["an embedded social post carries its author's date, not the page's",
      doc("", `<article><div class="date">29 January 2019</div><p>Body</p><blockquote class="instagram-media"><p><time datetime="2018-03-12T19:30:12+00:00">Mar 12, 2018</time></p></blockquote></article>`),
      "2019-01-29", "text:date-element"],
    ["boilerplate only: the first date in document order, text and elements alike",
      doc("", `<div class="sidebar"><p class="date">29 January 2019</p></div><div class="sidebar"><time datetime="2018-03-12">12 March 2018</time></div>`),
      "2019-01-29"]
  ])
})

describe("page-wide classes and the time-zone dateline", () => {
  check([
    ["classes on <body> describe the layout (\"no-sidebars\"): the article's time element is not boilerplate",
      doc(`<meta name="dcterms.date" content="2022-01-21">`, `</body><body class="not-front no-sidebars page-node"><div id="main-content"><article class="node node-news"><div class="article-meta"><time class="date-display-single" datetime="2022-01-25T00:00:00+01:00">25.01.2022</time></div><p>Text</p></article></div>`),
      "2022-01-25", "time-element"],
    ["a UTC stamp late in the evening and a visible dateline the next day: the page's own day",
      doc(`<meta property="article:published_time" content="2020-04-28T22:57:38Z">`, `<article><p class="date">29.04.2020</p><p>Text</p></article>`),
      "2020-04-29", "text:date-element"],
    ["trap: the visible next day is the day of a later update, not the stamp's local day",
      doc(`<meta property="article:published_time" content="2020-04-28T22:57:38Z"><meta property="article:modified_time" content="2020-04-29T11:14:24Z">`, `<article><p class="date">28.04.2020</p><p class="date">29.04.2020</p><p>Text</p></article>`),
      "2020-04-28", "meta:article:published_time"],
    ["trap: a visible next-day time at other minutes is another moment",
      doc(`<meta property="article:published_time" content="2020-04-28T22:57:38Z">`, `<article><p class="date">28.04.2020</p><time class="date" datetime="2020-04-29T11:14:00">29.04.2020 11:14</time><p>Text</p></article>`),
      "2020-04-28", "meta:article:published_time"]
  ])
})

describe("what the page shows", () => {
  check([
    ["a <time> whose text states another day than its datetime: the text",
      doc("", `<article><header><div class="time"><time datetime="2019-07-03T10:18:46Z">Publié le 29 juin 2019</time></div></header><p>Body</p></article>`),
      "2019-06-29", "time-element"],
    ["trap: the same day in the text and the attribute keeps the attribute (with its time)",
      doc("", `<article><time datetime="2019-06-29T10:18:46Z">29 juin 2019</time><p>Body</p></article>`),
      "2019-06-29", "time-element"],
    ["a visible update dateline beats a created date nothing visible states",
      doc(`<meta name="datecreated" content="01/01/2004"><meta name="datemodified" content="06/13/2019">`, `<article><h1>Cake</h1><p class="date">Updated June 13, 2019</p><p>Recipe.</p></article>`),
      "2019-06-13", "text:date-element"],
    ["a visible update dateline beats a date in running text (\"Stand:\")",
      doc("", `<article><p class="stand">Stand: 30.12.2016</p><p>Am 4. August 2014 trat das Gesetz in Kraft.</p></article>`),
      "2016-12-30", "text:date-element"],
    ["trap: a visible publication dateline is not replaced by the update line",
      doc("", `<article><p class="date">12 March 2024</p><p class="date">Updated 15 March 2024</p><p>Body</p></article>`),
      "2024-03-12", "text:date-element"],
    ["trap: a created date the page shows stays",
      doc(`<meta name="datecreated" content="2004-01-01">`, `<article><p>First published 1 January 2004.</p><p class="date">Updated June 13, 2019</p></article>`),
      "2004-01-01"],
    ["a date link in the article's date element is a dateline (it links to the day's archive)",
      doc("", `<article><div class="post-meta">Posted on <a href="/2021/11/05/">5. November 2021</a></div><p>Body</p></article><div class="sidebar"><span class="date">10. Oktober 2021</span></div>`),
      "2021-11-05", "text:link"],
    ["trap: a list of dated publication links is no dateline",
      doc("", `<article><p class="date">10.11.2021</p><ul>${[8, 5, 3, 1].map((d) => `<li><a class="Publication" href="/p${d}">Nr. ${d} vom 0${d}. November 2021</a></li>`).join("")}</ul></article>`),
      "2021-11-10", "text:date-element"]
  ])
})

describe("Arabic dates", () => {
  const days = (t: string) => findTextDates(t).map((f) => dayKey(f.date))
  const cases: ReadonlyArray<readonly [string, Array<string>]> = [
    ["الأربعاء، 07 أكتوبر 2020 - 12:09 م", ["2020-10-07"]],
    ["٠٧ أكتوبر ٢٠٢٠", ["2020-10-07"]],
    ["5 كانون الثاني 2021", ["2021-01-05"]],
    ["12 آب 2019", ["2019-08-12"]],
    ["۱۲ مارس ۲۰۲۰", ["2020-03-12"]]
  ]
  for (const [text, want] of cases) test(text, () => expect(days(text)).toEqual(want))
  test("trap: a Persian (solar hijri) date is no Gregorian date and never dates the page", () => {
    expect(pick(doc("", `<article><p>2 تير 1399 - 12:09:08 ب.ظ</p><p>Body</p></article>`))).toBeNull()
  })
})
