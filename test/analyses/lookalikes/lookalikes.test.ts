/**
 * GET /v1/security/lookalikes end to end on the lookalikes lab (lookalikeLab.ts: NSD zones under
 * a private root, Unbound in front, web servers on lab addresses): every planted lookalike found
 * with its fuzzer, records, mail capability, similarity and risk, nothing else reported as
 * registered, the SERVFAIL zone counted in `limitations`; Debian's dnstwist run on the same lab
 * finds the same registered names under the same fuzzer names (with the two differences its
 * lookups make, below) and the same similarity scores; the MCP tool equals REST; `fuzzers`, bad
 * input and a domain that does not exist.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { DNSTWIST_FUZZERS, FUZZERS } from "../../../src/analyses/lookalikes/permutations"
import { parseResolverList } from "../../../src/platform/Config"
import { connectHttp } from "../../mcp/client"
import { startService, type TestService } from "../../support/service"
import { BROKEN, DOMAIN, type DnstwistRow, type LookalikeLab, PLANTED, runDnstwist, startLookalikeLab, WWW_ONLY, WWW_ONLY_LOOKALIKE } from "./lookalikeLab"

let lab: LookalikeLab
let svc: TestService
let key: string
let report: any

const get = async (query: string) => {
  const res = await svc.call(`/v1/security/lookalikes?${query}`, { key })
  return { status: res.status, body: (await res.json()) as any }
}

beforeAll(async () => {
  lab = await startLookalikeLab()
  svc = await startService({ dnsResolvers: parseResolverList(lab.resolver), allowPrivateTargets: true })
  key = (await svc.newKey("pro")).key
  const r = await get(`domain=${DOMAIN}`)
  expect(r.status).toBe(200)
  report = r.body
}, 120_000)

afterAll(async () => {
  await svc?.stop()
  await lab?.stop()
})

const byDomain = () => new Map<string, any>(report.lookalikes.map((l: any) => [l.domain, l]))

describe("the planted lookalikes of acmeshop.lab", () => {
  test("exactly the planted names are registered: none missing, no unregistered name reported", () => {
    expect(report.domain).toBe(DOMAIN)
    expect(report.lookalikes.map((l: any) => l.domain).sort()).toEqual(PLANTED.map((p) => p.domain).sort())
    expect(report.permutations).toBe(Object.values(report.by_fuzzer as Record<string, number>).reduce((a, b) => a + b, 0))
    expect(Object.keys(report.by_fuzzer)).toEqual([...FUZZERS])
  })

  test.each(PLANTED.map((p) => [p.domain, p] as const))("%s: fuzzer, records, mail capability, similarity and risk as planted", (domain, p) => {
    const l = byDomain().get(domain)
    expect(l.fuzzer).toBe(p.fuzzer)
    expect(l.a).toEqual(p.a === undefined ? [] : [lab.addr(p.a)])
    expect(l.aaaa).toHaveLength(p.aaaa === undefined ? 0 : 1)
    expect(l.mx).toEqual(p.mx === "mail" ? [`mx.${domain}`] : p.mx === "null" ? ["."] : [])
    expect(l.mail_capable).toBe(p.mx === "mail")
    expect(l.ns).toEqual(p.zone ? [`ns1.${domain}`] : [])
    if (p.similarity === null) expect(l.web_similarity).toBeNull()
    else if (p.similarity === "copy") expect(l.web_similarity).toBeGreaterThanOrEqual(80)
    else {
      expect(l.web_similarity).not.toBeNull()
      expect(l.web_similarity).toBeLessThan(80)
    }
    expect(l.risk).toBe(p.risk)
  })

  test("the Cyrillic spelling is given in punycode and in Unicode", () => {
    const l = byDomain().get("xn--80akujkc6ly7a.lab")
    expect(l.unicode).toBe("асмеѕһор.lab")
  })

  test("a zone its servers cannot load (SERVFAIL) is neither registered nor free: counted in limitations", () => {
    expect(byDomain().has(BROKEN)).toBe(false)
    const line = report.limitations.find((s: string) => s.includes(BROKEN))
    expect(line).toContain("1 permutation could not be resolved (SERVFAIL 1")
    expect(report.limitations).toHaveLength(1)
  })

  test("findings: a high one per high-risk lookalike, medium per medium, one info line for the low ones; the redirect to the domain's own site said", () => {
    const high = report.findings.filter((f: any) => f.severity === "high")
    const medium = report.findings.filter((f: any) => f.severity === "medium")
    expect(high).toHaveLength(PLANTED.filter((p) => p.risk === "high").length)
    expect(medium).toHaveLength(PLANTED.filter((p) => p.risk === "medium").length)
    const info = report.findings.filter((f: any) => f.severity === "info")
    expect(info).toHaveLength(1)
    for (const p of PLANTED.filter((x) => x.risk === "low")) expect(info[0].message).toContain(p.domain)
    expect(medium.find((f: any) => f.message.startsWith("acmeshap.lab")).message).toContain("redirects to yours")
    expect(high.find((f: any) => f.message.startsWith("acmeshops.lab")).check).toBe("mail_capable")
    expect(high.find((f: any) => f.message.startsWith("acme-shop.lab")).check).toBe("similar_page")
    expect(report.recommendations.length).toBe(3)
  })

  test("hostile sites were contacted and bounded: the endless body cut, the loop stopped, the slow site given up", () => {
    for (const p of PLANTED.filter((x) => x.web === "slow" || x.web === "loop" || x.web === "endless")) {
      expect(lab.hits.get(p.a!) ?? 0).toBeGreaterThan(0)
    }
    // The loop is followed at most 5 redirects (6 requests), once over http (https is refused).
    const loop = PLANTED.find((x) => x.web === "loop")!
    expect(lab.hits.get(loop.a!)).toBeLessThanOrEqual(6)
  })
})

describe("side by side with dnstwist on the same lab", () => {
  let theirs: ReadonlyArray<DnstwistRow>
  beforeAll(async () => {
    theirs = (await runDnstwist(lab, DOMAIN, ["-t", "8"])).rows.filter((r) => r.fuzzer !== "*original")
  }, 300_000)

  test("the same registered names under the same fuzzer names, but for two differences in dnstwist's lookups", () => {
    const mine = new Map<string, string>(report.lookalikes.map((l: any) => [l.domain, l.fuzzer]))
    const their = new Map(theirs.map((r) => [r.domain, r.fuzzer]))
    // dnstwist counts a name whose NS lookup failed (SERVFAIL) as registered; here it is unresolved.
    const onlyTheirs = [...their.keys()].filter((d) => !mine.has(d))
    expect(onlyTheirs).toEqual([BROKEN])
    expect(theirs.find((r) => r.domain === BROKEN)!.dns_ns).toEqual(["!ServFail"])
    // dnstwist asks MX only of names with an NS set: a name inside another zone with only an MX escapes it.
    const onlyMine = [...mine.keys()].filter((d) => !their.has(d))
    expect(onlyMine).toEqual(PLANTED.filter((p) => !p.zone && p.mx === "mail" && p.a === undefined && p.aaaa === undefined).map((p) => p.domain))
    for (const [d, f] of mine) if (their.has(d)) expect({ d, fuzzer: f }).toEqual({ d, fuzzer: their.get(d)! })
    for (const f of their.values()) expect(DNSTWIST_FUZZERS as ReadonlyArray<string>).toContain(f)
  })

  test("the same addresses and mail servers", () => {
    for (const r of theirs) {
      const l = byDomain().get(r.domain)
      if (l === undefined) continue
      expect({ d: r.domain, a: l.a }).toEqual({ d: r.domain, a: [...(r.dns_a ?? [])].sort() })
      expect({ d: r.domain, mx: l.mx.map((h: string) => (h === "." ? "" : h)) }).toEqual({ d: r.domain, mx: [...(r.dns_mx ?? [])].sort() })
    }
  })

  test("the same similarity scores (ssdeep), but for a page that redirects to the domain's own", async () => {
    // Every dnstwist fuzzer but `various`: its planted site sends an endless body, which dnstwist
    // reads without a bound (it would never finish).
    const fuzzers = DNSTWIST_FUZZERS.filter((f) => f !== "various").join(",")
    const rows = (await runDnstwist(lab, DOMAIN, ["--ssdeep", "-t", "8", "--fuzzers", fuzzers])).rows
    const scored = rows.filter((r) => r.ssdeep !== undefined)
    expect(scored.length).toBeGreaterThanOrEqual(5)
    let compared = 0
    for (const r of scored) {
      const l = byDomain().get(r.domain)
      if (r.domain === "acmeshap.lab") {
        // dnstwist scores the domain's own page against itself (100); here it is no lookalike's page (null, said in the finding).
        expect([r.ssdeep, l.web_similarity]).toEqual([100, null])
        continue
      }
      expect({ d: r.domain, score: l.web_similarity }).toEqual({ d: r.domain, score: r.ssdeep! })
      compared++
    }
    expect(compared).toBeGreaterThanOrEqual(4)
    expect(scored.some((r) => r.ssdeep! >= 80)).toBe(true)
  }, 300_000)
})

describe("the MCP tool lookalike_domains", () => {
  let client: Client
  beforeAll(async () => {
    client = (await connectHttp(svc.baseUrl, key, "2025-06-18")).client
  })
  afterAll(() => client?.close())

  test("its structuredContent is the REST report of the same domain (apart from checked_at and timings_ms)", async () => {
    const res = (await client.callTool({ name: "lookalike_domains", arguments: { domain: DOMAIN } })) as any
    expect(res.isError).toBe(false)
    const strip = ({ checked_at: _c, timings_ms: _t, ...rest }: any) => rest
    expect(strip(res.structuredContent)).toEqual(strip(report))
  }, 60_000)

  test("the same bad input gives the same code", async () => {
    const rest = await get("domain=192.0.2.1")
    const mcp = (await client.callTool({ name: "lookalike_domains", arguments: { domain: "192.0.2.1" } })) as any
    expect(rest.status).toBe(400)
    expect(mcp.isError).toBe(true)
    expect(mcp.structuredContent.error).toEqual(rest.body.error)
  })
})

describe("parameters", () => {
  test("fuzzers: only those asked run; their lookalikes only", async () => {
    const r = await get(`domain=${DOMAIN}&fuzzers=subdomain,addition`)
    expect(r.status).toBe(200)
    expect(Object.keys(r.body.by_fuzzer)).toEqual(["addition", "subdomain"])
    expect(r.body.lookalikes.map((l: any) => l.domain).sort()).toEqual(PLANTED.filter((p) => p.fuzzer === "addition" || p.fuzzer === "subdomain").map((p) => p.domain).sort())
  }, 60_000)

  test.each([
    ["fuzzers=homoglyph,typo", "unknown fuzzer \"typo\""],
    ["fuzzers=homoglyph,Addition", "unknown fuzzer \"Addition\""]
  ])("an unknown fuzzer is 400 listing the valid ones: %s", async (q, said) => {
    const r = await get(`domain=${DOMAIN}&${q}`)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("invalid_request")
    expect(r.body.error.message).toContain(said)
    for (const f of FUZZERS) expect(r.body.error.message).toContain(f)
  })

  test.each([
    ["", "domain"],
    ["domain=192.0.2.1", "IP address"],
    ["domain=acmeshop.lab/login", "path"],
    ["domain=ftp://acmeshop.lab", "scheme"],
    ["domain=acmeshop.lab:8080", "port"],
    ["domain=lab", "two labels"],
    ["domain=_dmarc.acmeshop.lab", "two labels"]
  ])("not a domain is 400: %j", async (q, said) => {
    const r = await get(q)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("invalid_request")
    expect(r.body.error.message).toContain(said)
  })

  test("a domain without an address of its own: its page is read at www, and a copy of it is still found", async () => {
    const r = await get(`domain=${WWW_ONLY}&fuzzers=homoglyph`)
    expect(r.status).toBe(200)
    expect(r.body.lookalikes.map((l: any) => [l.domain, l.risk])).toEqual([[WWW_ONLY_LOOKALIKE, "high"]])
    expect(r.body.lookalikes[0].web_similarity).toBeGreaterThanOrEqual(80)
    expect(r.body.limitations).toEqual([])
  }, 60_000)

  test("an empty fuzzers list names none: every fuzzer runs", async () => {
    const r = await get(`domain=${WWW_ONLY}&fuzzers=`)
    expect(r.status).toBe(200)
    expect(Object.keys(r.body.by_fuzzer)).toEqual([...FUZZERS])
  }, 60_000)

  test("a domain that does not exist still gets its registered lookalikes, and the report says it does not exist", async () => {
    // acmeshop.lab is one letter away from acmeshopx.lab (omission).
    const r = await get("domain=acmeshopx.lab&fuzzers=omission,addition")
    expect(r.status).toBe(200)
    expect(r.body.lookalikes.map((l: any) => [l.domain, l.fuzzer])).toEqual([["acmeshop.lab", "omission"]])
    expect(r.body.limitations[0]).toStartWith("acmeshopx.lab does not exist (NXDOMAIN)")
    // No page of its own: no similarity.
    expect(r.body.lookalikes[0].web_similarity).toBeNull()
  }, 60_000)
})
