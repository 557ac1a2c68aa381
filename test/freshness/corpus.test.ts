/**
 * The project's own labelled corpus (test/freshness/corpus: 81 pages in the style of common CMSs,
 * news sites, forums and docs sites, in a dozen languages, each with its true publication date),
 * served by a loopback server at its original host and path and asked of the real service.
 * The accuracy floor is the measured figure minus a small margin (docs/freshness.md).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { startService, type TestService } from "../support/service"
import { CORPUS_DIR, labels, scoreCorpus } from "./corpus/score"

let svc: TestService
let key: string
let origin: ReturnType<typeof Bun.serve>
const pages = new Map<string, string>()

/** The page's original host and path under the loopback origin, so dates in the URL stay visible. */
const servedPath = (url: string) => {
  const u = new URL(url)
  return `/${u.host}${u.pathname}${u.search}`
}

beforeAll(async () => {
  for (const l of Object.values(labels())) pages.set(servedPath(l.url), readFileSync(join(CORPUS_DIR, l.file), "utf8"))
  origin = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const u = new URL(req.url)
      const body = pages.get(u.pathname + u.search)
      return body === undefined ? new Response("not found", { status: 404 }) : new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } })
    }
  })
  svc = await startService()
  key = (await svc.newKey("developer")).key
})

afterAll(async () => {
  await svc?.stop()
  origin?.stop(true)
})

describe("own labelled corpus", () => {
  test("the corpus has at least 60 pages, each with a day-precise label", () => {
    const all = Object.values(labels())
    expect(all.length).toBeGreaterThanOrEqual(60)
    for (const l of all) expect(l.published).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(new Set(all.map((l) => l.lang)).size).toBeGreaterThanOrEqual(10)
  })

  test("publishDate exact day over HTTP from the real service: at least 78 of 81 (measured 80)", async () => {
    let correct = 0
    const misses: Array<string> = []
    for (const [id, l] of Object.entries(labels())) {
      const target = `http://127.0.0.1:${origin.port}${servedPath(l.url)}`
      const res = await svc.call(`/v1/domain/content-freshness?domain=${encodeURIComponent(target)}`, { key })
      expect(res.status).toBe(200)
      const body = (await res.json()) as { publishDate?: { date?: string } | null }
      const day = body.publishDate?.date?.slice(0, 10) ?? null
      if (day === l.published) correct++
      else misses.push(`${id}: ${day} (label ${l.published})`)
    }
    expect(Object.keys(labels()).length).toBe(81)
    if (correct < 78) console.error(misses.join("\n"))
    expect(correct).toBeGreaterThanOrEqual(78)
  }, 120_000)

  test("the pure core agrees with the service page for page", () => {
    const r = scoreCorpus(Date.now())
    expect(r.correct).toBeGreaterThanOrEqual(78)
  })
})
