/**
 * GET /v1/security/takeover against a real lab world (test/analyses/takeover/world.ts): NSD
 * zones for the providers and the victims, Unbound in front, provider web servers answering their
 * real "no such resource" pages, a crt.sh stand-in. Every planted case of the five types is found
 * with its chain, provider and confidence, and nothing else is (claimed resources, a live site, a
 * wildcard, an existing registered domain, a healthy delegation); names only one source knows are
 * checked; names whose lookups or answers time out are limitations; bad input and the service's
 * own broken resolvers get their codes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import * as dgram from "node:dgram"
import type * as net from "node:net"
import { WORDLIST } from "../../../src/analyses/takeover/wordlist"
import { startCrtSh, type FakeCrtSh } from "../../ct/crtsh"
import { connectHttp } from "../../mcp/client"
import { until } from "../../support/process"
import { startService, type TestService } from "../../support/service"
import { startTakeoverLab, type TakeoverLab } from "./takeoverLab"
import { CT_NAMES, GIVEN, labConfig, setCt, webHandlers, worldZones } from "./world"

const n = 1 + Math.floor(Math.random() * 250)
let lab: TakeoverLab
let crt: FakeCrtSh
let svc: TestService
let key: string
/** MCP is a pro-plan endpoint. */
let proKey: string

beforeAll(async () => {
  const a = (h: number) => `127.56.${n}.${h}`
  lab = await startTakeoverLab({ n, zones: worldZones(a), web: webHandlers() })
  crt = startCrtSh()
  setCt(crt)
  // takeover monitors (10x the minimum interval) run within seconds here
  svc = await startService({ ...labConfig(lab, crt), monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000 })
  key = (await svc.newKey("developer")).key
  proKey = (await svc.newKey("pro")).key
}, 120_000)

afterAll(async () => {
  await svc?.stop()
  await crt?.stop()
  await lab?.stop()
}, 30_000)

const reports = new Map<string, any>()
const takeover = async (domain: string, names: ReadonlyArray<string> = []) => {
  const k = `${domain} ${names.join(",")}`
  if (reports.has(k)) return reports.get(k)
  const res = await svc.call(`/v1/security/takeover?${new URLSearchParams({ domain, ...(names.length > 0 ? { names: names.join(",") } : {}) })}`, { key })
  const body: any = await res.json()
  if (res.status !== 200) throw new Error(`${domain}: ${res.status} ${JSON.stringify(body)}`)
  reports.set(k, body)
  return body
}

const brief = (c: any) => `${c.name} ${c.type} ${c.target} ${c.provider ?? "-"} ${c.confidence}`

/** Every candidate victim.com must have, and no other. */
const EXPECTED = [
  // cname_unclaimed: the service's page, or NXDOMAIN where that means free.
  "blog.victim.com cname_unclaimed victim-blog.github.io GitHub Pages potential",
  "status.victim.com cname_unclaimed victim-status.github.io GitHub Pages potential",
  "assets.victim.com cname_unclaimed victim-assets.s3.amazonaws.com AWS S3 confirmed",
  "docs.victim.com cname_unclaimed victim-docs.s3.amazonaws.com AWS S3 confirmed",
  "app.victim.com cname_unclaimed victim-app.herokuapp.com Heroku potential",
  "api.victim.com cname_unclaimed victim-api.azurewebsites.net Microsoft Azure App Service confirmed",
  "cdn.victim.com cname_unclaimed victim.global.ssl.fastly.net Fastly unlikely",
  "ct-only.victim.com cname_unclaimed victim-ct.herokuapp.com Heroku potential",
  "given-only.victim.com cname_unclaimed victim-given.s3.amazonaws.com AWS S3 confirmed",
  "streamnx.victim.com cname_unclaimed victim-streamnx.herokuapp.com Heroku potential",
  // cname_dangling: one hop and two.
  "legacy.victim.com cname_dangling host.dead-target.com - potential",
  "promo.victim.com cname_dangling x.dead-other.net - potential",
  // ns_dangling: refused by an unknown host and by a known one; under an expired domain.
  "dev.victim.com ns_dangling ns1.dnshost.net - potential",
  "staging.victim.com ns_dangling ns1.digitalocean.com DigitalOcean DNS confirmed",
  "test.victim.com ns_dangling ns1.expired-ns.com - potential",
  // mx_dangling, spf_dangling
  "victim.com mx_dangling mx.gone-mail.com - potential",
  "victim.com spf_dangling _spf.gone-spf.net - potential"
]

describe("a victim with every type planted", () => {
  test("every planted candidate is found with its type, target, provider and confidence, and nothing else", async () => {
    const r = await takeover("victim.com", GIVEN)
    expect(r.candidates.map(brief).sort()).toEqual([...EXPECTED].sort())
    expect(r.providers_known).toBeGreaterThanOrEqual(60)
  }, 120_000)

  test("chains list each hop; NS, MX and SPF candidates have none", async () => {
    const r = await takeover("victim.com", GIVEN)
    const by = (name: string, type: string) => r.candidates.find((c: any) => c.name === name && c.type === type)
    expect(by("docs.victim.com", "cname_unclaimed").chain).toEqual(["docs-edge.victim.com", "victim-docs.s3.amazonaws.com"])
    expect(by("promo.victim.com", "cname_dangling").chain).toEqual(["promo-edge.victim.com", "x.dead-other.net"])
    expect(by("blog.victim.com", "cname_unclaimed").chain).toEqual(["victim-blog.github.io"])
    for (const t of ["ns_dangling", "mx_dangling", "spf_dangling"]) for (const c of r.candidates.filter((x: any) => x.type === t)) expect(c.chain).toEqual([])
    expect(by("blog.victim.com", "cname_unclaimed").evidence).toContain("There isn't a GitHub Pages site here.")
    expect(by("assets.victim.com", "cname_unclaimed").evidence).toMatch(/answered 404 with "The specified bucket does not exist"/)
    expect(by("api.victim.com", "cname_unclaimed").evidence).toContain("NXDOMAIN")
    expect(by("dev.victim.com", "ns_dangling").evidence).toContain("ns1.dnshost.net REFUSED")
    expect(by("test.victim.com", "ns_dangling").evidence).toContain("expired-ns.com does not exist")
  }, 120_000)

  test("one finding per candidate, severity from confidence; the grade falls", async () => {
    const r = await takeover("victim.com", GIVEN)
    expect(r.findings.length).toBe(r.candidates.length)
    const severities = r.findings.map((f: any) => f.severity)
    expect(severities.filter((s: string) => s === "critical").length).toBe(r.candidates.filter((c: any) => c.confidence === "confirmed").length)
    expect(severities.filter((s: string) => s === "low").length).toBe(1)
    expect(r.score).toBe(0)
    expect(r.grade).toBe("F")
  }, 120_000)

  test("negatives: a claimed bucket and site, a live Azure app, an existing registered domain, a healthy delegation, a live host, hostile but claimed answers", async () => {
    const r = await takeover("victim.com", GIVEN)
    const mentioned = (name: string) => [...r.candidates.map((c: any) => c.name), ...r.limitations.map((l: string) => l.split(":")[0])].includes(name)
    for (const label of ["www", "files", "portal", "old", "corp", "shop", "mail", "stream", "redir", "loop"]) expect(mentioned(`${label}.victim.com`)).toBe(false)
  }, 120_000)

  test("names whose lookups or answers time out, and a CNAME loop, are limitations and never candidates", async () => {
    const r = await takeover("victim.com", GIVEN)
    const limited = (name: string) => r.limitations.find((l: string) => l.startsWith(`${name}:`))
    expect(limited("slow.victim.com")).toMatch(/did not answer for the zone \(ns1\.slowdns\.net timeout\)/)
    expect(limited("slowapp.victim.com")).toMatch(/gave no HTTP answer \(http: timeout.*https: timeout/)
    expect(limited("loop1.victim.com")).toMatch(/not judged/)
    for (const name of ["slow.victim.com", "slowapp.victim.com", "loop1.victim.com"]) expect(r.candidates.some((c: any) => c.name === name)).toBe(false)
  }, 120_000)

  test("names and their sources: CT (wildcards stand for the name under them, names elsewhere dropped), the word list, names given", async () => {
    const r = await takeover("victim.com", GIVEN)
    const ct = new Set(CT_NAMES.map((x) => x.replace(/^\*\./, "")).filter((x) => x.endsWith("victim.com")))
    const words = new Set(WORDLIST.map((w) => `${w}.victim.com`))
    const all = new Set(["victim.com", ...ct, ...words, ...GIVEN])
    expect(r.names_checked).toBe(all.size)
    expect(r.sources).toEqual({ ct: ct.size, zone_transfer: 0, wordlist: words.size, given: GIVEN.length })
    // A name only CT knows, one only the caller gave, one only the word list has: each a candidate.
    for (const name of ["ct-only.victim.com", "given-only.victim.com", "blog.victim.com"]) expect(r.candidates.some((c: any) => c.name === name)).toBe(true)
  }, 120_000)
})

describe("names one source alone knows, wildcards, a lame apex", () => {
  test("a zone transfer brings a name nobody else knows", async () => {
    const r = await takeover("open.com")
    expect(r.sources.zone_transfer).toBeGreaterThanOrEqual(3)
    expect(r.candidates.map(brief)).toEqual(["xfr-only.open.com cname_unclaimed open-xfr.s3.amazonaws.com AWS S3 confirmed"])
  }, 60_000)

  test("names only a wildcard answers are no candidates; a name of its own under it is", async () => {
    const r = await takeover("wild.com")
    expect(r.candidates.map(brief)).toEqual(["help.wild.com cname_unclaimed wild-help.github.io GitHub Pages potential"])
    expect(r.limitations.join("\n")).toContain("A wildcard record answers every name under wild.com (CNAME wild-any.github.io)")
  }, 60_000)

  test("a domain whose own delegation is lame is the candidate; the names under it are not asked", async () => {
    const r = await takeover("lamevictim.com")
    expect(r.candidates.map(brief)).toEqual(["lamevictim.com ns_dangling ns1.dnshost.net - potential"])
    expect(r.names_checked).toBe(1)
    expect(r.limitations.join("\n")).toMatch(/No name server answers for lamevictim\.com itself: the \d+ names found under it were not checked/)
  }, 60_000)

  test("a clean domain with CT failing: 200, no candidate, the failure a limitation", async () => {
    const r = await takeover("clean.com")
    expect(r.candidates).toEqual([])
    expect(r.grade).toBe("A")
    expect(r.sources.ct).toBe(0)
    expect(r.limitations.join("\n")).toContain("Certificate transparency could not be read")
  }, 60_000)

  test("at most 2,000 names: the report says it cut, how many were found, and from where", async () => {
    const r = await takeover("bound.com")
    expect(r.names_checked).toBe(2000)
    expect(r.sources.ct + r.sources.wordlist).toBeGreaterThanOrEqual(1999)
    expect(r.limitations.join("\n")).toMatch(/2211 names found, 2000 checked \(the bound is 2000\); left out: \d+ from (ct|wordlist)/)
  }, 120_000)
})

describe("bad input and faults", () => {
  test.each([
    ["192.0.2.1", ""],
    ["", ""],
    ["https://victim.com:8443/", ""],
    ["victim.com", "x.other.com"],
    ["victim.com", "victim.com.evil.com"],
    ["victim.com", Array.from({ length: 101 }, (_, i) => `n${i}.victim.com`).join(",")]
  ])("domain %j names %j: 400 invalid_request", async (domain, names) => {
    const res = await svc.call(`/v1/security/takeover?${new URLSearchParams({ domain, ...(names ? { names } : {}) })}`, { key })
    const body: any = await res.json()
    expect(res.status).toBe(400)
    expect(body.error.code).toBe("invalid_request")
  })

  test("a domain that does not exist is 404 not_found", async () => {
    const res = await svc.call("/v1/security/takeover?domain=nothere.com", { key })
    expect(res.status).toBe(404)
    expect(((await res.json()) as any).error.code).toBe("not_found")
  })

  test("the free plan is refused (developer operation)", async () => {
    const free = (await svc.newKey("free")).key
    const res = await svc.call("/v1/security/takeover?domain=clean.com", { key: free })
    expect(res.status).toBe(403)
  })

  test("the service's own resolver silent: 502 upstream_unavailable, not 404 or a report", async () => {
    const silent = dgram.createSocket("udp4")
    await new Promise<void>((r) => silent.bind(0, "127.0.0.1", () => r()))
    const broken = await startService({ dnsResolvers: [{ host: "127.0.0.1", port: (silent.address() as net.AddressInfo).port }], dnsTimeoutMs: 300, ctAggregatorUrl: crt.url })
    try {
      const k = (await broken.newKey("developer")).key
      const res = await broken.call("/v1/security/takeover?domain=victim.com", { key: k })
      expect(res.status).toBe(502)
      expect(((await res.json()) as any).error.code).toBe("upstream_unavailable")
    } finally {
      await broken.stop()
      silent.close()
    }
  }, 30_000)

  test("the target guard: with private targets refused, no lab address is fetched or asked; those names are limitations", async () => {
    const guarded = await startService({ ...labConfig(lab, crt), allowPrivateTargets: false })
    try {
      const k = (await guarded.newKey("developer")).key
      const res = await guarded.call("/v1/security/takeover?domain=victim.com", { key: k })
      const r: any = await res.json()
      expect(res.status).toBe(200)
      // Judged through the resolvers alone: NXDOMAIN at the service, registered domains that do
      // not exist (delegations need the lab's name servers asked directly: not judged).
      expect(r.candidates.map(brief).sort()).toEqual(EXPECTED.filter((e) => /^(api|legacy|promo)\.victim\.com |^victim\.com /.test(e)).sort())
      const text = r.limitations.join("\n")
      expect(text).toMatch(/blog\.victim\.com: GitHub Pages \(victim-blog\.github\.io\) gave no HTTP answer \(http: refused by the target guard/)
      expect(text).toMatch(/dev\.victim\.com: no server of victim\.com answered for dev\.victim\.com \(none could be asked\)/)
    } finally {
      await guarded.stop()
    }
  }, 120_000)
})

describe("the MCP tool subdomain_takeover", () => {
  /** Drops the fields that measure time (they differ between any two runs). */
  const timeless = (r: any) => {
    const { checked_at: _c, timings_ms: _t, ...rest } = r
    return rest
  }

  test.each([
    ["victim.com", GIVEN],
    ["open.com", []],
    ["wild.com", ["help.wild.com"]]
  ] as const)("structuredContent for %s equals the REST body (apart from checked_at and timings_ms)", async (domain, names) => {
    const { client } = await connectHttp(svc.baseUrl, proKey, "2025-11-25")
    try {
      const rest = await takeover(domain, names)
      const res = (await client.callTool({ name: "subdomain_takeover", arguments: { domain, ...(names.length > 0 ? { names } : {}) } })) as any
      expect(res.isError).toBe(false)
      expect(timeless(res.structuredContent)).toEqual(timeless(rest))
      expect(JSON.parse(res.content[0].text)).toEqual(res.structuredContent)
    } finally {
      await client.close()
    }
  }, 120_000)

  test.each([
    [{ domain: "192.0.2.1" }, "invalid_request"],
    [{ domain: "victim.com", names: ["x.other.com"] }, "invalid_request"],
    [{ domain: "victim.com", names: Array.from({ length: 101 }, (_, i) => `n${i}.victim.com`) }, "invalid_request"],
    [{ domain: "nothere.com" }, "not_found"]
  ] as ReadonlyArray<readonly [{ readonly domain: string; readonly names?: ReadonlyArray<string> }, string]>)("%j: the same code as REST (%s)", async (args, code) => {
    const { client } = await connectHttp(svc.baseUrl, proKey, "2025-11-25")
    try {
      const rest: any = await (await svc.call(`/v1/security/takeover?${new URLSearchParams({ domain: args.domain, ...(args.names ? { names: args.names.join(",") } : {}) })}`, { key })).json()
      const res = (await client.callTool({ name: "subdomain_takeover", arguments: args })) as any
      expect(res.isError).toBe(true)
      expect(res.structuredContent.error.code).toBe(code)
      expect(res.structuredContent.error).toEqual(rest.error)
    } finally {
      await client.close()
    }
  }, 30_000)
})

describe("the takeover monitor kind", () => {
  const create = async (target: string, conditions?: Record<string, unknown>) => {
    const r = await svc.call("/v1/monitors", {
      method: "POST", key, headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: `takeover ${target}`, kind: "takeover", target, interval_seconds: 10, cooldown_minutes: 0, ...(conditions ? { conditions } : {}) })
    })
    const body: any = await r.json()
    expect(r.status).toBe(201)
    return body.monitor
  }
  const firstRun = (id: string) =>
    until(async () => ((await (await svc.call(`/v1/monitors/${id}/results`, { key })).json()) as any).results[0], `the first run of ${id}`, 90_000)

  test("a run is the operation's report; the first run names every candidate of at least the default confidence (potential)", async () => {
    const m = await create("victim.com")
    expect(m.conditions).toEqual({ new_candidate_confidence_at_least: "potential" })
    const clean = await create("wild.com", { new_candidate_confidence_at_least: "confirmed" })
    const r = await firstRun(m.id)
    expect(r.ok).toBe(false)
    // The monitor gives no `names`: the candidates only those names lead to are not there.
    const expected = EXPECTED.filter((e) => !GIVEN.includes(e.split(" ")[0]))
    const named = expected.filter((e) => !e.endsWith(" unlikely")).map((e) => e.split(" ")[0])
    expect(r.summary).toStartWith(`${named.length} new takeover candidates: confirmed `)
    for (const name of new Set(named)) expect(r.summary).toMatch(new RegExp(`[ ,]${name.replaceAll(".", "\\.")}(,|;|$)`))
    expect(r.summary).not.toContain("cdn.victim.com")
    expect(r.report.candidates.map(brief).sort()).toEqual(expected.sort())
    expect(r.report.new_candidates.length).toBe(named.length)
    // wild.com's one candidate is potential: below `confirmed`, so that monitor is ok.
    const c = await firstRun(clean.id)
    expect(c.ok).toBe(true)
    expect(c.summary).toContain("1 candidate, none new")
  }, 150_000)

  test("the interval floor is ten times the minimum", async () => {
    const r = await svc.call("/v1/monitors", {
      method: "POST", key, headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "too fast", kind: "takeover", target: "clean.com", interval_seconds: 9 })
    })
    expect(r.status).toBe(400)
  })
})
