/**
 * HttpProbe.sharingLookups: the requests of one operation (a scan) resolve each host name once
 * and share the answer, against a real loopback DNS server and a real loopback web server; the
 * guard still judges that answer on every request, and the next operation resolves afresh.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, Layer, Logger } from "effect"
import { AppConfig } from "../../src/platform/Config"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { HttpProbe } from "../../src/adapters/probe/HttpProbe"
import { startDnsServer, type TestDnsServer } from "../support/dnsServer"

let dns: TestDnsServer
let web: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  dns = await startDnsServer({ "site.test": { A: ["127.0.0.1"] }, "other.test": { A: ["127.0.0.1"] } })
  web = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const url = new URL(req.url)
      if (url.pathname === "/hop") return new Response(null, { status: 301, headers: { Location: "/" } })
      return new Response("ok")
    }
  })
})
afterAll(async () => {
  web?.stop(true)
  await dns?.close()
})

const run = <A, E>(eff: Effect.Effect<A, E, HttpProbe>, allowPrivateTargets = true) =>
  Effect.runPromise(eff.pipe(
    Effect.provide(HttpProbe.Live.pipe(
      Layer.provideMerge(DnsResolver.Live),
      Layer.provideMerge(AppConfig.make({ allowPrivateTargets, dnsResolvers: [{ host: "127.0.0.1", port: dns.port }] }))
    )),
    Effect.provide(Logger.remove(Logger.defaultLogger))
  ))

const asked = (name: string) => dns.queries.filter((q) => q.startsWith(`${name} `)).sort()

describe("HttpProbe.sharingLookups", () => {
  test("concurrent requests and a redirect to the same host resolve it once (one A, one AAAA)", async () => {
    dns.queries.length = 0
    const statuses = await run(Effect.scoped(Effect.gen(function*() {
      const fetch = yield* Effect.flatMap(HttpProbe, (p) => p.sharingLookups)
      const at = (path: string) => fetch({ url: `http://site.test:${web.port}${path}`, timeoutMs: 5000 })
      const outcomes = yield* Effect.all([at("/"), at("/a"), at("/hop"), at("/b")], { concurrency: "unbounded" })
      const later = yield* at("/c")
      return [...outcomes, later].map((o) => o.response?.status)
    })))
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    expect(asked("site.test")).toEqual(["site.test A", "site.test AAAA"])
  })

  test("the plain fetch resolves on every request (the baseline the sharing is measured against)", async () => {
    dns.queries.length = 0
    await run(Effect.flatMap(HttpProbe, (p) =>
      Effect.all([1, 2, 3].map((i) => p.fetch({ url: `http://site.test:${web.port}/${i}`, timeoutMs: 5000 })), { concurrency: "unbounded" })))
    expect(asked("site.test").length).toBe(6)
  })

  test("each host is resolved on its own, and the next operation resolves again", async () => {
    dns.queries.length = 0
    const once = Effect.scoped(Effect.gen(function*() {
      const fetch = yield* Effect.flatMap(HttpProbe, (p) => p.sharingLookups)
      yield* Effect.all([
        fetch({ url: `http://site.test:${web.port}/`, timeoutMs: 5000 }),
        fetch({ url: `http://other.test:${web.port}/`, timeoutMs: 5000 }),
        fetch({ url: `http://other.test:${web.port}/x`, timeoutMs: 5000 })
      ], { concurrency: "unbounded" })
    }))
    await run(Effect.zipRight(once, once))
    expect(asked("site.test")).toEqual(["site.test A", "site.test A", "site.test AAAA", "site.test AAAA"])
    expect(asked("other.test")).toEqual(["other.test A", "other.test A", "other.test AAAA", "other.test AAAA"])
  })

  test("the shared answer still goes through the guard on every request", async () => {
    dns.queries.length = 0
    const results = await run(Effect.scoped(Effect.gen(function*() {
      const fetch = yield* Effect.flatMap(HttpProbe, (p) => p.sharingLookups)
      const a = yield* Effect.either(fetch({ url: `http://site.test:${web.port}/`, timeoutMs: 5000 }))
      const b = yield* Effect.either(fetch({ url: `http://site.test:${web.port}/again`, timeoutMs: 5000 }))
      return [a, b]
    })), false)
    for (const r of results) {
      expect(Either.isLeft(r) && r.left._tag).toBe("TargetForbidden")
    }
    expect(asked("site.test")).toEqual(["site.test A", "site.test AAAA"])
  })
})
