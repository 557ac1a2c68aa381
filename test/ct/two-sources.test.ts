/**
 * CT Logs from crt.sh and Cert Spotter together, through the real service against the two
 * local stand-ins (test/ct/crtsh.ts, test/ct/certspotter.ts): overlap, one source only, one
 * source down in each way it goes down, a slow source, both down, paging the merged list, the
 * bearer token, rate limits, and the MCP tool answering what REST answers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Redacted, Option } from "effect"
import { startService, type TestService } from "../support/service"
import { connectHttp } from "../mcp/client"
import { startCrtSh, type FakeCrtSh } from "./crtsh"
import { crtRowsOf, issuanceOf, issueCert, type LabCert, startCertSpotter, type FakeCertSpotter } from "./certspotter"

let crt: FakeCrtSh
let cs: FakeCertSpotter
let svc: TestService
let key: string

const BOTH = ["crtsh", "certspotter"] as const

beforeAll(async () => {
  crt = startCrtSh()
  cs = startCertSpotter({ pageSize: 4 })
  svc = await startService({ ctSources: [...BOTH], ctAggregatorUrl: crt.url, ctCertspotterUrl: cs.url, ctBudgetMs: 1500 })
  key = (await svc.newKey("developer")).key
}, 30_000)
afterAll(async () => {
  await svc?.stop()
  await crt?.stop()
  await cs?.stop()
})

const get = async (qs: string, s = svc, k = key) => {
  const res = await s.call(`/v1/domain/ct-logs?${qs}`, { key: k })
  return { status: res.status, body: (await res.json()) as any }
}
const logged = (c: LabCert) => Date.parse(c.notBefore) + 90_000
const sourceOf = (body: any, name: string) => body.sources.find((s: any) => s.name === name)

/** Three certificates of `domain`: one both list, one only crt.sh lists, one only Cert Spotter lists. */
const threeCerts = (domain: string) => {
  const both = issueCert([domain, `www.${domain}`], { scts: 2 })
  const crtOnly = issueCert([`old.${domain}`])
  const csOnly = issueCert([`new.${domain}`], { scts: 3 })
  crt.set(domain, { kind: "rows", rows: [...crtRowsOf(both, logged(both)), ...crtRowsOf(crtOnly, logged(crtOnly) - 3_600_000)] })
  // Cert Spotter prints the issuer DN in RFC 4514 order: still one issuer.
  const i = [issuanceOf(both, { issuerName: "CN=R11,O=Let's Encrypt,C=US" }), issuanceOf(csOnly)]
  return { both, crtOnly, csOnly, issuances: i }
}

describe("two sources, merged", () => {
  test("overlap: a certificate both list appears once, with both sources ok; each source's own certificates appear too", async () => {
    const { both, csOnly, issuances } = threeCerts("overlap.example")
    cs.set("overlap.example", { kind: "issuances", issuances })
    const r = await get("domain=overlap.example&limit=10")
    expect(r.status).toBe(200)
    expect(r.body.total).toBe(3)
    expect(r.body.sources).toEqual([
      { name: "crtsh", status: "ok", certificates: 2, detail: null, fetched_at: r.body.cache.fetched_at },
      { name: "certspotter", status: "ok", certificates: 2, detail: null, fetched_at: r.body.cache.fetched_at }
    ])
    const merged = r.body.certificates.filter((c: any) => c.names.includes("overlap.example"))
    expect(merged.length).toBe(1)
    expect(merged[0]).toMatchObject({
      sources: ["crtsh", "certspotter"], sha256: both.sha256, certspotter_id: issuances[0].id, serial_number: both.serial,
      issuer: "C=US, O=Let's Encrypt, CN=R11", not_before: both.notBefore, not_after: both.notAfter
    })
    expect(merged[0].ids.length).toBe(2)
    expect(merged[0].id).toBe(merged[0].ids[0])
    expect(merged[0].timestamp).toBe(new Date(logged(both)).toISOString())
    const alone = r.body.certificates.find((c: any) => c.names.includes("new.overlap.example"))
    expect(alone).toMatchObject({ sources: ["certspotter"], ids: [], id: Number(issuances[1].id), timestamp: csOnly.notBefore, serial_number: csOnly.serial, common_name: "new.overlap.example" })
    expect(r.body.note).toContain("1 certificate listed by more than one source merged")
    expect(r.body.limitations).toEqual(["1 certificate is listed by Cert Spotter alone: its timestamp is its not_before, as Cert Spotter gives no log time"])
    expect(r.body.source).toContain(new URL(crt.url).host)
    expect(r.body.source).toContain(new URL(cs.url).host)
    // Cert Spotter was asked for the documented fields, subdomains included.
    const asked = cs.requests.find((q) => q.url.searchParams.get("domain") === "overlap.example")!.url.searchParams
    expect(asked.get("include_subdomains")).toBe("true")
    expect(asked.getAll("expand").sort()).toEqual(["cert_der", "dns_names", "issuer"])
  })

  test("a certificate only Cert Spotter knows is listed; the newest valid one's SCTs come from its certificate, no download", async () => {
    const cert = issueCert(["csonly.example"], { scts: 3, days: 200 })
    crt.set("csonly.example", { kind: "rows", rows: [] })
    cs.set("csonly.example", { kind: "issuances", issuances: [issuanceOf(cert)] })
    const downloads = crt.downloads.length
    const r = await get("domain=csonly.example")
    expect(r.status).toBe(200)
    expect(r.body.count).toBe(1)
    expect(r.body.certificates[0].sources).toEqual(["certspotter"])
    expect(sourceOf(r.body, "crtsh")).toMatchObject({ status: "ok", certificates: 0 })
    expect(sourceOf(r.body, "certspotter")).toMatchObject({ status: "ok", certificates: 1 })
    expect(r.body.embedded_sct).toMatchObject({ count: 3, chrome_compliant: true, certificate_id: r.body.certificates[0].id })
    expect(crt.downloads.length).toBe(downloads)
  })

  test.each([
    ["a 500 with an error body", "down500.example", { kind: "status", status: 500 } as const, "Cert Spotter answered HTTP 500: internal_error: the stand-in answers 500"],
    ["a 502", "down502.example", { kind: "status", status: 502 } as const, "HTTP 502"],
    ["malformed JSON", "downjson.example", { kind: "invalid" } as const, "invalid JSON from Cert Spotter"],
    ["a 401 (not retried)", "down401.example", { kind: "status", status: 401 } as const, "Cert Spotter: Cert Spotter answered HTTP 401: unauthorized"]
  ])("Cert Spotter down (%s): 200 with crt.sh's certificates, the failure in sources and limitations", async (_label, domain, behaviour, words) => {
    const { crtOnly } = threeCerts(domain)
    cs.set(domain, behaviour)
    const r = await get(`domain=${domain}`)
    expect(r.status).toBe(200)
    expect(r.body.total).toBe(2)
    expect(r.body.certificates.every((c: any) => c.sources.length === 1 && c.sources[0] === "crtsh")).toBe(true)
    expect(r.body.certificates.map((c: any) => c.serial_number)).toContain(crtOnly.serial)
    expect(sourceOf(r.body, "crtsh")).toMatchObject({ status: "ok", certificates: 2 })
    const failed = sourceOf(r.body, "certspotter")
    expect(failed).toMatchObject({ status: "error", certificates: 0 })
    expect(failed.detail).toContain(words)
    expect(r.body.limitations).toEqual([`Cert Spotter failed (${failed.detail}); the list holds crt.sh's certificates only`])
  }, 20_000)

  test("crt.sh down: 200 with Cert Spotter's certificates, the limitation saying what is missing", async () => {
    const { issuances } = threeCerts("crtdown.example")
    crt.set("crtdown.example", { kind: "status", status: 502 })
    cs.set("crtdown.example", { kind: "issuances", issuances })
    const r = await get("domain=crtdown.example")
    expect(r.status).toBe(200)
    expect(r.body.total).toBe(2)
    expect(sourceOf(r.body, "crtsh")).toMatchObject({ status: "error", certificates: 0 })
    expect(sourceOf(r.body, "crtsh").detail).toMatch(/^crt\.sh unavailable after \d+ attempts within 1500 ms: aggregator answered HTTP 502$/)
    expect(r.body.limitations[0]).toContain("the list holds Cert Spotter's certificates only (unexpired ones, with no log times)")
    expect(crt.queries.get("crtdown.example")!).toBeGreaterThan(1) // retried within the budget
  }, 20_000)

  test("a slow source past its budget is an error; a slow one within it is ok", async () => {
    const { issuances } = threeCerts("slow.example")
    cs.set("slow.example", { kind: "silent" })
    const r = await get("domain=slow.example")
    expect(r.status).toBe(200)
    expect(sourceOf(r.body, "certspotter")).toMatchObject({ status: "error", detail: "Cert Spotter unavailable after 1 attempt within 1500 ms: no answer within 1500 ms" })
    expect(r.body.total).toBe(2)
    threeCerts("slowok.example")
    cs.set("slowok.example", { kind: "slow", delayMs: 300, issuances })
    const ok = await get("domain=slowok.example")
    expect(sourceOf(ok.body, "certspotter")).toMatchObject({ status: "ok", certificates: 2 })
  }, 20_000)

  test("both down: 502 upstream_unavailable naming each source's failure", async () => {
    crt.set("bothdown.example", { kind: "status", status: 503 })
    cs.set("bothdown.example", { kind: "status", status: 500 })
    const r = await get("domain=bothdown.example")
    expect(r.status).toBe(502)
    expect(r.body.error.code).toBe("upstream_unavailable")
    expect(r.body.error.message).toMatch(/^no CT source answered: crt\.sh unavailable .*HTTP 503; Cert Spotter unavailable .*HTTP 500/)
  }, 20_000)

  test("pages of the merged list: every certificate once, in one stable order; since applies to the merged list", async () => {
    // 12 certificates: 5 both list, 4 only crt.sh, 3 only Cert Spotter; Cert Spotter pages 4 at a time.
    const certs = Array.from({ length: 12 }, (_, i) => issueCert([`h${i}.paged.example`]))
    const base = Date.parse(certs[0].notBefore)
    const rows = certs.slice(0, 9).flatMap((c, i) => crtRowsOf(c, base + i * 60_000))
    crt.set("paged.example", { kind: "rows", rows })
    cs.set("paged.example", { kind: "issuances", issuances: [...certs.slice(4, 9), ...certs.slice(9)].map((c) => issuanceOf(c)) })
    const seen: Array<string> = []
    let offset: number | null = 0
    const before = cs.queries.get("paged.example") ?? 0
    while (offset !== null) {
      const r = await get(`domain=paged.example&limit=5&offset=${offset}`)
      expect(r.status).toBe(200)
      expect(r.body.total).toBe(12)
      seen.push(...r.body.certificates.map((c: any) => c.serial_number))
      offset = r.body.pagination.next_offset
    }
    expect(seen.length).toBe(12)
    expect(new Set(seen)).toEqual(new Set(certs.map((c) => c.serial)))
    // 8 issuances, 4 a page: two pages and the empty one that ends them; asked once for every page of ours.
    expect((cs.queries.get("paged.example") ?? 0) - before).toBe(3)
    const all = await get("domain=paged.example&limit=100")
    expect(all.body.certificates.map((c: any) => c.serial_number)).toEqual(seen)
    expect(all.body.sources.map((s: any) => s.certificates)).toEqual([9, 8])
    const cut = all.body.certificates[4].timestamp
    const since = await get(`domain=paged.example&limit=100&since=${encodeURIComponent(cut)}`)
    expect(since.body.certificates).toEqual(all.body.certificates.filter((c: any) => c.timestamp >= cut))
  }, 30_000)

  test("the MCP tool ct_logs answers the REST report", async () => {
    const { issuances } = threeCerts("mcp.example")
    cs.set("mcp.example", { kind: "issuances", issuances })
    const rest = await get("domain=mcp.example&limit=2")
    // MCP needs the pro plan.
    const { client } = await connectHttp(svc.baseUrl, (await svc.newKey("pro")).key, "2025-11-25")
    try {
      const tool = (await client.callTool({ name: "ct_logs", arguments: { domain: "mcp.example", limit: 2 } })) as any
      expect(tool.isError).toBeFalsy()
      const again = await get("domain=mcp.example&limit=2")
      const strip = (b: any) => ({ ...b, note: b.note.replace(/fetched \d+ s ago/, ""), cache: { ...b.cache, age_seconds: 0, outcome: "hit" } })
      expect(strip(tool.structuredContent)).toEqual(strip(again.body))
      expect(tool.structuredContent.sources).toEqual(rest.body.sources)
      expect(JSON.parse(tool.content[0].text)).toEqual(tool.structuredContent)
    } finally {
      await client.close()
    }
  })
})

describe("a failed source's earlier certificates", () => {
  test("crt.sh failing after the TTL: its certificates stay, Cert Spotter's are fresh; no download is tried from the failed crt.sh", async () => {
    const short = await startService({ ctSources: [...BOTH], ctAggregatorUrl: crt.url, ctCertspotterUrl: cs.url, ctBudgetMs: 800, ctCacheTtlS: 1 })
    try {
      const k = (await short.newKey("developer")).key
      const cert = issueCert(["kept.example"], { scts: 2 })
      const old = issueCert(["old.kept.example"])
      // `old` expired in 2020: only crt.sh lists expired certificates.
      const expired = crtRowsOf(old, Date.parse("2020-01-01T00:00:00Z")).map((r) => ({ ...r, not_before: "2020-01-01T00:00:00", not_after: "2020-03-31T00:00:00" }))
      crt.set("kept.example", { kind: "rows", rows: [...crtRowsOf(cert, logged(cert)), ...expired] })
      cs.set("kept.example", { kind: "issuances", issuances: [issuanceOf(cert)] })
      const first = await get("domain=kept.example", short, k)
      expect(first.body.total).toBe(2)
      // crt.sh has no copy to download (404): the count is read from Cert Spotter's DER.
      expect(first.body.embedded_sct).toMatchObject({ count: 2, certificate_id: first.body.certificates[0].id })
      const downloads = crt.downloads.length
      crt.set("kept.example", { kind: "silent" })
      await Bun.sleep(1_600) // past the TTL and the instance's memo of the row
      const second = await get("domain=kept.example", short, k)
      expect(second.status).toBe(200)
      expect(second.body.cache.outcome).toBe("miss")
      expect(second.body.total).toBe(2)
      expect(second.body.certificates).toEqual(first.body.certificates)
      expect(sourceOf(second.body, "crtsh")).toMatchObject({ status: "error", certificates: 2, fetched_at: first.body.cache.fetched_at })
      expect(sourceOf(second.body, "certspotter")).toMatchObject({ status: "ok", certificates: 1 })
      expect(second.body.limitations[0]).toMatch(/^crt\.sh failed \(crt\.sh unavailable after 1 attempt within 800 ms: no answer within 800 ms\); its 2 certificates are those it listed at /)
      expect(second.body.embedded_sct).toMatchObject({ count: 2 })
      expect(crt.downloads.length).toBe(downloads)
    } finally {
      await short.stop()
    }
  }, 20_000)
})

describe("Cert Spotter's token and rate limits", () => {
  test("the bearer token is sent when configured, and only then", async () => {
    const withToken = await startService({ ctSources: [...BOTH], ctAggregatorUrl: crt.url, ctCertspotterUrl: cs.url, ctBudgetMs: 1500, ctCertspotterToken: Option.some(Redacted.make("tok-123")) })
    try {
      const k = (await withToken.newKey("developer")).key
      await get("domain=token.example", withToken, k)
      await get("domain=notoken.example")
      const auth = (d: string) => cs.requests.filter((q) => q.url.searchParams.get("domain") === d).map((q) => q.authorization)
      expect(auth("token.example")).toEqual(["Bearer tok-123"])
      expect(auth("notoken.example")).toEqual([null])
    } finally {
      await withToken.stop()
    }
  })

  test("a 429 whose Retry-After fits the budget is waited for; one past it fails at once and the source is skipped until then", async () => {
    const limited = await startService({ ctSources: [...BOTH], ctAggregatorUrl: crt.url, ctCertspotterUrl: cs.url, ctBudgetMs: 3000 })
    try {
      const k = (await limited.newKey("developer")).key
      const { issuances } = threeCerts("wait.example")
      cs.set("wait.example", { kind: "ratelimited", count: 1, retryAfter: "1", issuances })
      const waited = await get("domain=wait.example", limited, k)
      expect(sourceOf(waited.body, "certspotter")).toMatchObject({ status: "ok", certificates: 2 })
      // The 429, the page after the wait, and the empty page that ends the list.
      expect(cs.queries.get("wait.example")).toBe(3)

      threeCerts("hour.example")
      cs.set("hour.example", { kind: "ratelimited", count: 5, retryAfter: "3600", issuances: [] })
      const refused = await get("domain=hour.example", limited, k)
      expect(refused.status).toBe(200)
      expect(sourceOf(refused.body, "certspotter").detail).toContain("its Retry-After (3600 s) ends past the budget")
      expect(cs.queries.get("hour.example")).toBe(1)

      threeCerts("later.example")
      const skipped = await get("domain=later.example", limited, k)
      expect(skipped.status).toBe(200)
      expect(sourceOf(skipped.body, "certspotter")).toMatchObject({ status: "skipped", certificates: 0 })
      expect(sourceOf(skipped.body, "certspotter").detail).toMatch(/^Cert Spotter is rate-limited: not asked before \d{4}-/)
      expect(skipped.body.limitations[0]).toContain("Cert Spotter was not asked")
      expect(cs.queries.get("later.example")).toBeUndefined()

      // crt.sh's Retry-After is read the same way: past the budget, one request and no retries.
      // With Cert Spotter still skipped, no source answers: 502.
      crt.set("crtlimited.example", { kind: "ratelimited", count: 9, retryAfter: "3600", rows: [] })
      const none = await get("domain=crtlimited.example", limited, k)
      expect(none.status).toBe(502)
      expect(none.body.error.message).toContain("crt.sh: aggregator answered HTTP 429; its Retry-After (3600 s) ends past the budget")
      expect(none.body.error.message).toContain("Cert Spotter is rate-limited: not asked before")
      expect(crt.queries.get("crtlimited.example")).toBe(1)
    } finally {
      await limited.stop()
    }
  }, 20_000)

  test("Cert Spotter refusing connections: 200 with crt.sh's answer", async () => {
    const closed = await startService({ ctSources: [...BOTH], ctAggregatorUrl: crt.url, ctCertspotterUrl: "http://127.0.0.1:9", ctBudgetMs: 800 })
    try {
      const k = (await closed.newKey("developer")).key
      threeCerts("refused.example")
      const r = await get("domain=refused.example", closed, k)
      expect(r.status).toBe(200)
      expect(r.body.total).toBe(2)
      expect(sourceOf(r.body, "certspotter")).toMatchObject({ status: "error" })
      expect(sourceOf(r.body, "certspotter").detail).toContain("connection failed")
    } finally {
      await closed.stop()
    }
  })
})
