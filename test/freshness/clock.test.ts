/**
 * The freshness service takes "now" from the Effect Clock: under a TestClock set to a chosen
 * instant, ages and categories follow that instant, not the machine's time.
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import { Effect, Layer, Logger, TestClock, TestContext } from "effect"
import { AppConfig } from "../../src/platform/Config"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { ContentFreshness } from "../../src/analyses/freshness/ContentFreshness"
import { HttpProbe } from "../../src/adapters/probe/HttpProbe"

let origin: ReturnType<typeof Bun.serve>
beforeAll(() => {
  origin = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(`<html><head><meta property="article:published_time" content="2024-03-12T08:00:00+01:00"></head><body></body></html>`, { headers: { "content-type": "text/html" } })
  })
})
afterAll(() => origin?.stop(true))

const layer = ContentFreshness.Live.pipe(
  Layer.provide(HttpProbe.Live),
  Layer.provide(DnsResolver.Live),
  Layer.provide(AppConfig.make({ allowPrivateTargets: true, dnsResolvers: [] }))
)

const at = (iso: string) =>
  Effect.runPromise(Effect.gen(function*() {
    yield* TestClock.setTime(Date.parse(iso))
    const f = yield* ContentFreshness
    return yield* f.analyze(`http://127.0.0.1:${origin.port}/`)
  }).pipe(Effect.provide(layer), Effect.provide(TestContext.TestContext), Effect.provide(Logger.remove(Logger.defaultLogger))))

test("ageInDays and contentAge follow the Effect Clock", async () => {
  const early = await at("2024-03-22T12:00:00Z")
  expect(early.publishDate).toEqual({ source: "meta:article:published_time", date: "2024-03-12T08:00:00+01:00", ageInDays: 10 })
  expect(early.contentAge).toEqual({ days: 10, category: "fresh", basis: "published" })
  const late = await at("2025-06-01T00:00:00Z")
  expect(late.publishDate?.ageInDays).toBe(446)
  expect(late.contentAge.category).toBe("stale")
  // Before the publication instant by more than the skew allowance, the date is "in the future".
  const before = await at("2024-01-01T00:00:00Z")
  expect(before.publishDate).toBeNull()
  expect(before.dateConsistency.ignored).toContainEqual({ source: "meta:article:published_time", reason: "in the future" })
})
