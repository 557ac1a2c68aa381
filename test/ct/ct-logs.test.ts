import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import { makeClient } from "../../src/surfaces/client"
import { CtAggregator } from "../../src/adapters/ct/CtAggregator"
import { startService, type TestService } from "../support/service"
import { makeCert, makeRows, startCrtSh, type FakeCrtSh } from "./crtsh"
import { READ_CACHE_MAX_AGE_MS } from "../../src/platform/store/readCache"

let crt: FakeCrtSh
let svc: TestService
let key: string

beforeAll(async () => {
  crt = startCrtSh()
  svc = await startService({ ctAggregatorUrl: crt.url, ctBudgetMs: 1500, ctCacheTtlS: 1800 })
  key = (await svc.newKey("developer")).key
}, 30_000)

afterAll(async () => {
  await svc?.stop()
  await crt?.stop()
})

const get = async (qs: string, k = key) => {
  const res = await svc.call(`/v1/domain/ct-logs?${qs}`, { key: k })
  return { status: res.status, body: (await res.json()) as any }
}

describe("CT logs over a crt.sh-compatible aggregator", () => {
  test("300 certificates logged twice each: deduplicated, newest first, paged without re-querying", async () => {
    crt.set("many.example", { kind: "rows", rows: makeRows("many.example", 300) })
    const seen: Array<number> = []
    let offset: number | null = 0
    let pages = 0
    let last: any
    while (offset !== null) {
      const r = await get(`domain=many.example&limit=100&offset=${offset}`)
      expect(r.status).toBe(200)
      last = r.body
      expect(r.body.count).toBe(r.body.certificates.length)
      expect(r.body.scts).toEqual(r.body.certificates)
      expect(r.body.hasSCTs).toBe(true)
      expect(r.body.pagination.offset).toBe(offset)
      expect(r.body.pagination.limit).toBe(100)
      for (const c of r.body.certificates) {
        expect(c.ids.length).toBe(2) // precertificate + certificate
        expect(typeof c.issuer).toBe("string")
        seen.push(c.id)
      }
      expect(r.body.truncated).toBe(r.body.pagination.next_offset !== null)
      offset = r.body.pagination.next_offset
      pages++
    }
    expect(pages).toBe(3)
    expect(last.truncated).toBe(false)
    expect(new Set(seen).size).toBe(300)
    expect(crt.queries.get("many.example")).toBe(1)
    const first = await get("domain=many.example&limit=5")
    const ts = first.body.certificates.map((c: any) => c.timestamp)
    expect([...ts].sort().reverse()).toEqual(ts)
    expect(first.body.note).toContain("300 precertificate/certificate duplicates merged")
    expect(first.body.cache.outcome).toBe("hit")
    expect(first.body.source).toContain(new URL(crt.url).host)
  })

  test("cache hits answer the same report from one cached result, through the contract's encoder (the derived client decodes it); age, page and since each give their own", async () => {
    crt.set("reuse.example", { kind: "rows", rows: makeRows("reuse.example", 12) })
    const miss = await get("domain=reuse.example&limit=5")
    expect(miss.body.cache.outcome).toBe("miss")
    const [a, b] = [await get("domain=reuse.example&limit=5"), await get("domain=reuse.example&limit=5")]
    expect(a.body.cache.outcome).toBe("hit")
    expect(b.body).toEqual(a.body)
    // The same certificates as the miss, with the hit's own cache block and note.
    expect(a.body.certificates).toEqual(miss.body.certificates)
    expect(a.body.note).toMatch(/served from cache \(fetched \d+ s ago\)/)
    const typed = await Effect.runPromise(
      Effect.flatMap(makeClient({ baseUrl: svc.baseUrl, apiKey: key }), (c) => c.ct.ctLogs({ urlParams: { domain: "reuse.example", limit: 5 } })).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
    )
    expect(typed.cache.outcome).toBe("hit")
    expect(typed.certificates.map((c) => c.id)).toEqual(a.body.certificates.map((c: any) => c.id))
    const other = await get("domain=reuse.example&limit=5&offset=5")
    expect(other.body.pagination.offset).toBe(5)
    expect(other.body.certificates.map((c: any) => c.id)).not.toEqual(a.body.certificates.map((c: any) => c.id))
    const since = a.body.certificates[2].timestamp
    const sinced = await get(`domain=reuse.example&limit=5&since=${encodeURIComponent(since)}`)
    expect(sinced.body.since).toBe(new Date(since.endsWith("Z") ? since : `${since}Z`).toISOString())
    expect(sinced.body.total).toBeLessThan(a.body.total)
    // A second later the age has moved, and the body with it.
    await Bun.sleep(1_100)
    const later = await get("domain=reuse.example&limit=5")
    expect(later.body.cache.age_seconds).toBeGreaterThan(a.body.cache.age_seconds)
    expect(later.body.note).toContain(`(fetched ${later.body.cache.age_seconds} s ago)`)
    expect(later.body.certificates).toEqual(a.body.certificates)
    expect(crt.queries.get("reuse.example")).toBe(1)
  })

  test("since keeps only entries logged at or after it, and is echoed", async () => {
    const newest = Date.parse("2025-06-10T12:00:00Z")
    crt.set("since.example", { kind: "rows", rows: makeRows("since.example", 48, { newest, firstId: 50_000 }) })
    const r = await get("domain=since.example&since=2025-06-10T00:00:00Z&limit=100")
    expect(r.status).toBe(200)
    expect(r.body.since).toBe("2025-06-10T00:00:00.000Z")
    expect(r.body.count).toBe(13) // 00:00 .. 12:00 hourly
    for (const c of r.body.certificates) expect(c.timestamp >= "2025-06-10T00:00:00.000Z").toBe(true)
    const all = await get("domain=since.example&limit=100")
    expect(all.body.since).toBeNull()
    expect(all.body.count).toBe(48)
  })

  test("a domain with no certificates", async () => {
    const r = await get("domain=nothing.example")
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ domain: "nothing.example", certificates: [], scts: [], hasSCTs: false, count: 0, truncated: false, since: null, embedded_sct: null })
    expect(r.body.pagination).toEqual({ offset: 0, limit: 20, next_offset: null })
  })

  test("502s are retried within the budget", async () => {
    crt.set("flaky.example", { kind: "flaky", failures: 2, rows: makeRows("flaky.example", 3) })
    const r = await get("domain=flaky.example")
    expect(r.status).toBe(200)
    expect(r.body.count).toBe(3)
    expect(crt.queries.get("flaky.example")).toBe(3)
  })

  test.each([
    ["always502.example", { kind: "status", status: 502 } as const],
    ["invalid.example", { kind: "invalid" } as const],
    ["silent.example", { kind: "silent" } as const]
  ])("%s with no cached answer: 502 upstream_unavailable", async (domain, behaviour) => {
    crt.set(domain, behaviour)
    const r = await get(`domain=${domain}`)
    expect(r.status).toBe(502)
    expect(r.body.error.code).toBe("upstream_unavailable")
    expect(typeof r.body.error.message).toBe("string")
  }, 20_000)

  test("bad parameters are 400 invalid_request; a free plan is 403", async () => {
    for (const qs of ["domain=a.example&limit=0", "domain=a.example&limit=101", "domain=a.example&offset=-1", "domain=a.example&limit=abc", "domain=a.example&since=yesterday", "domain=10.0.0.1", "domain=", "offset=1"]) {
      const r = await get(qs)
      expect(r.status).toBe(400)
      expect(r.body.error.code).toBe("invalid_request")
    }
    const free = (await svc.newKey("free")).key
    const r = await get("domain=a.example", free)
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe("plan_forbidden")
  })

  test("embedded_sct counts the SCTs of the newest valid certificate and applies the compliance rule", async () => {
    const cases = [
      { domain: "three.example", scts: 3, days: 90, compliant: true },
      { domain: "twolong.example", scts: 2, days: 397, compliant: false },
      { domain: "twoshort.example", scts: 2, days: 90, compliant: true },
      { domain: "one.example", scts: 1, days: 30, compliant: false }
    ]
    let id = 900_000
    for (const c of cases) {
      const rows = makeRows(c.domain, 1, { firstId: id, validDays: c.days })
      crt.set(c.domain, { kind: "rows", rows })
      crt.setCert(id, makeCert(c.domain, { scts: 0, days: c.days, precert: true }))
      crt.setCert(id + 1, makeCert(c.domain, { scts: c.scts, days: c.days }))
      id += 10
      const r = await get(`domain=${c.domain}`)
      expect(r.status).toBe(200)
      expect(r.body.embedded_sct).not.toBeNull()
      expect(r.body.embedded_sct.count).toBe(c.scts)
      expect(r.body.embedded_sct.chrome_compliant).toBe(c.compliant)
      expect(r.body.embedded_sct.certificate_id).toBe(id - 9)
      expect(typeof r.body.embedded_sct.note).toBe("string")
    }
    // Only a precertificate downloadable: no count, and the note says why.
    crt.set("preonly.example", { kind: "rows", rows: makeRows("preonly.example", 1, { firstId: 990_000 }).slice(0, 1) })
    crt.setCert(990_000, makeCert("preonly.example", { scts: 0, days: 90, precert: true }))
    const r = await get("domain=preonly.example")
    expect(r.body.embedded_sct).toBeNull()
    expect(r.body.note).toContain("precertificate")
  }, 30_000)

  test("CtAggregator.search serves other features from the same cache", async () => {
    crt.set("shared.example", { kind: "rows", rows: makeRows("shared.example", 4, { firstId: 70_000 }) })
    const entries = await svc.run(Effect.flatMap(CtAggregator, (ct) => ct.search("shared.example")))
    expect(entries.length).toBe(4)
    const r = await get("domain=shared.example")
    expect(r.body.cache.outcome).toBe("hit")
    expect(crt.queries.get("shared.example")).toBe(1)
  })
})

describe("CT cache expiry and stale answers", () => {
  let svc2: TestService
  let key2: string
  beforeAll(async () => {
    svc2 = await startService({ ctAggregatorUrl: crt.url, ctBudgetMs: 1000, ctCacheTtlS: 1 })
    key2 = (await svc2.newKey("developer", `stale-org-${process.pid}`)).key
  })
  afterAll(async () => {
    await svc2?.stop()
  })

  test("after the TTL a failing aggregator yields the stale answer, noted, and the request log records miss, hit, stale", async () => {
    crt.set("stale.example", { kind: "rows", rows: makeRows("stale.example", 5, { firstId: 80_000 }) })
    const call = async () => {
      const res = await svc2.call("/v1/domain/ct-logs?domain=stale.example", { key: key2 })
      return { status: res.status, body: (await res.json()) as any }
    }
    const a = await call()
    expect(a.body.cache.outcome).toBe("miss")
    const b = await call()
    expect(b.body.cache.outcome).toBe("hit")
    crt.set("stale.example", { kind: "status", status: 502 })
    // Age the stored result past the TTL (the cache is a table): no sleeping.
    await svc2.sql("UPDATE ct_cache SET fetched_at = fetched_at - 5000 WHERE cache_key = 'v2:stale.example'")
    // The instance's memo of the row holds for READ_CACHE_MAX_AGE_MS before it reads the store again.
    await Bun.sleep(READ_CACHE_MAX_AGE_MS + 50)
    const c = await call()
    expect(c.status).toBe(200)
    expect(c.body.cache.outcome).toBe("stale")
    expect(c.body.count).toBe(5)
    expect(c.body.note).toContain("STALE")
    // The sources say this attempt's failure; their certificates are the stored result's.
    expect(c.body.sources).toEqual([{ name: "crtsh", status: "error", certificates: 5, detail: expect.stringContaining("HTTP 502"), fetched_at: a.body.cache.fetched_at }])
    expect(c.body.limitations[0]).toMatch(/^no CT source answered \(crt\.sh unavailable .*\); this is the result fetched \d+ s ago$/)
    await svc2.flushLog()
    const rows = await svc2.sql<{ cache: string }>("SELECT cache FROM request_log WHERE path LIKE '/v1/domain/ct-logs%' ORDER BY id")
    expect(rows.map((r) => r.cache)).toEqual(["miss", "hit", "stale"])
  }, 20_000)
})
