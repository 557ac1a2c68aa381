/**
 * The blocklist check against the service's own resolvers when they are not what they should be,
 * and the rules that depend on the configuration: three broken Unbounds (NXDOMAIN for
 * everything, silent, SERVFAIL: test/dns/brokenResolvers.ts) give 502 on REST and MCP, and a
 * verdict made during such an outage is not kept; a resolver that rewrites NXDOMAIN into an
 * address makes every answer an error, never a listing; a list's test points are asked once per
 * list per DNSBL_TEST_TTL_S (counted at a forwarder in front of the lab's Unbound); private and
 * special-purpose addresses are refused or withheld unless ALLOW_PRIVATE_TARGETS.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { Blocklist } from "../../../src/analyses/blocklist/Blocklist"
import type { AppConfigShape, ResolverAddress } from "../../../src/platform/Config"
import { parseResolverList } from "../../../src/platform/Config"
import { startBrokenResolvers, type BrokenKind, type BrokenResolvers } from "../../dns/brokenResolvers"
import { connectHttp } from "../../mcp/client"
import { until } from "../../support/process"
import { startService, type TestService } from "../../support/service"
import { startTakeoverLab, type TakeoverLab } from "../takeover/takeoverLab"
import { REWRITTEN_TO, startProxyResolver, type ProxyResolver } from "./proxyResolver"
import { blocklistZones, DEFAULT_DOMAIN_ZONES, DEFAULT_IP_ZONES, IP, rev6 } from "./world"

const n = 1 + Math.floor(Math.random() * 250)
let lab: TakeoverLab
let broken: BrokenResolvers
let unbound: ResolverAddress
const services: Array<TestService> = []
const proxies: Array<ProxyResolver> = []

beforeAll(async () => {
  ;[lab, broken] = await Promise.all([
    startTakeoverLab({ n, zones: blocklistZones((h) => `127.56.${n}.${h}`), web: new Map() }),
    startBrokenResolvers()
  ])
  unbound = parseResolverList(lab.resolver)[0]
}, 120_000)

afterAll(async () => {
  for (const s of services) await s.stop()
  for (const p of proxies) await p.stop()
  await broken?.stop()
  await lab?.stop()
}, 30_000)

const serve = async (overrides: Partial<AppConfigShape>) => {
  const svc = await startService({
    dnsTimeoutMs: 1000,
    allowPrivateTargets: true,
    dnsblIpZones: DEFAULT_IP_ZONES,
    dnsblDomainZones: DEFAULT_DOMAIN_ZONES,
    ...overrides
  })
  services.push(svc)
  const { key } = await svc.newKey("pro")
  const check = async (target: string) => {
    const res = await svc.call(`/v1/security/blocklist?${new URLSearchParams({ target })}`, { key })
    return { status: res.status, body: (await res.json()) as any }
  }
  return { svc, key, check }
}

const proxy = async (rewrite: boolean) => {
  const p = await startProxyResolver(unbound, rewrite)
  proxies.push(p)
  return p
}

describe("the service's own resolvers cannot answer for the root: 502, never a report against a list", () => {
  test.each([
    ["nxdomain", "NS of the root: NXDOMAIN"],
    ["silent", "NS of the root: no answer"],
    ["servfail", "NS of the root: SERVFAIL"]
  ] as ReadonlyArray<readonly [BrokenKind, string]>)("%s resolver", async (kind, why) => {
    const { svc, key, check } = await serve({ dnsResolvers: [broken.address[kind]] })
    for (const target of [IP.mx1, "mailco.com"]) {
      const r = await check(target)
      expect(r.status).toBe(502)
      expect(r.body.error).toEqual({
        code: "upstream_unavailable",
        message: `the service's DNS resolvers cannot answer for the root zone (${why}); no report can be made for ${target}`
      })
    }
    const { client } = await connectHttp(svc.baseUrl, key, "2025-11-25")
    try {
      const res = (await client.callTool({ name: "blocklist", arguments: { target: IP.mx1 } })) as any
      expect(res.isError).toBe(true)
      expect(res.structuredContent.error.code).toBe("upstream_unavailable")
      expect(res.structuredContent.error.message).toContain(`(${why})`)
    } finally {
      await client.close()
    }
  }, 60_000)

  test("a verdict made while the resolvers were down is not kept: once they answer, the lists are trusted again", async () => {
    const p = await proxy(false)
    p.upstream = broken.address.nxdomain
    const { check } = await serve({ dnsResolvers: [{ host: p.host, port: p.port }] })
    expect((await check(IP.mx1)).status).toBe(502)
    p.upstream = unbound
    // the failing root verdict is kept 2 s (docs/dns.md, "Own resolver health"): 502 until then
    const r = await until(async () => {
      const x = await check(IP.mx1)
      return x.status === 502 ? undefined : x
    }, "a report once the resolver answers", 20_000)
    expect(r.status).toBe(200)
    expect(r.body.lists.map((e: any) => `${e.zone} ${e.status}`)).toEqual([
      "zen.spamhaus.org listed",
      "bl.spamcop.net listed",
      "b.barracudacentral.org not_listed",
      "psbl.surriel.com not_listed"
    ])
    expect(r.body.limitations).toEqual([])
  }, 60_000)
})

describe("a resolver that rewrites NXDOMAIN into an address", () => {
  test("every answer is error, none listed or not_listed, and the reason says the answer was rewritten", async () => {
    const p = await proxy(true)
    const { check } = await serve({ dnsResolvers: [{ host: p.host, port: p.port }] })
    for (const target of [IP.clean, IP.mx1, "mailco.com"]) {
      const r = await check(target)
      expect(r.status).toBe(200)
      expect(r.body.listed_count).toBe(0)
      expect(r.body.lists.length).toBeGreaterThan(0)
      for (const e of r.body.lists) {
        expect(e.status).toBe("error")
        expect(e.reason).toContain(`${REWRITTEN_TO} is outside 127.0.0.0/8, where no DNSBL answers: a resolver rewrote it`)
      }
    }
    // The rewriting was real: the forwarder changed answers the lab gave as NXDOMAIN.
    expect(p.asked).toContain("1.0.0.127.zen.spamhaus.org A")
  }, 60_000)
})

describe("test points", () => {
  const testPointQuestions = (p: ProxyResolver) => p.asked.filter((q) => q === "2.0.0.127.zen.spamhaus.org A").length

  test("asked once per list per DNSBL_TEST_TTL_S, not per check; DNSBL_TEST_TTL_S=0 asks them every time", async () => {
    const kept = await proxy(false)
    const every = await proxy(false)
    const a = await serve({ dnsResolvers: [{ host: kept.host, port: kept.port }] })
    const b = await serve({ dnsResolvers: [{ host: every.host, port: every.port }], dnsblTestTtlS: 0 })
    for (const target of [IP.mx1, IP.clean, "mailco.com"]) {
      expect((await a.check(target)).status).toBe(200)
      expect((await b.check(target)).status).toBe(200)
    }
    expect(testPointQuestions(kept)).toBe(1)
    expect(testPointQuestions(every)).toBe(3)
    // the IPv6 test point and the domain lists' `test`, likewise once
    expect(kept.asked.filter((q) => q === "test.dbl.spamhaus.org A")).toHaveLength(1)
    for (const point of ["::ffff:7f00:2", "::ffff:7f00:1"]) expect(kept.asked.filter((q) => q === `${rev6(point)}.zen.spamhaus.org A`)).toHaveLength(1)
  }, 60_000)
})

describe("private and special-purpose addresses (ALLOW_PRIVATE_TARGETS=false)", () => {
  let strict: Awaited<ReturnType<typeof serve>>
  beforeAll(async () => {
    strict = await serve({ dnsResolvers: [unbound], allowPrivateTargets: false })
  })

  test.each(["10.0.0.1", "127.0.0.2", "::1", "192.0.2.1", "[fc00::1]", "::ffff:192.168.1.1"])("%s is 400 target_forbidden, and no list is asked", async (target) => {
    const r = await strict.check(target)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("target_forbidden")
    expect(r.body.error.message).toEndWith("is a non-public address: public blocklists list only public addresses")
  }, 30_000)

  test("a domain's non-public addresses are withheld by count, never named; its domain lists are still asked", async () => {
    const r = await strict.check("internal.com")
    expect(r.status).toBe(200)
    expect(r.body.ips).toEqual([])
    expect(r.body.lists.map((e: any) => e.zone)).toEqual(DEFAULT_DOMAIN_ZONES)
    expect(r.body.limitations).toEqual(["2 addresses of internal.com's hosts are in a private or special-purpose range and were not asked: public lists list only public addresses"])
    expect(JSON.stringify(r.body)).not.toContain("10.20.30.40")
  }, 30_000)

  test("the service called directly (as the domain audit calls it) asks no list about a non-public address", async () => {
    const r = await strict.svc.run(Effect.flatMap(Blocklist, (b) => b.check("10.0.0.1")))
    expect(r).toMatchObject({ target: "10.0.0.1", kind: "ip", ips: [], lists: [], listed_count: 0 })
    expect(r.limitations).toEqual(["10.0.0.1 is in a private or special-purpose range and was not asked: public lists list only public addresses"])
  }, 30_000)

  test("a monitor of a non-public address is refused", async () => {
    const res = await strict.svc.call("/v1/monitors", {
      method: "POST", key: strict.key, headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "private", kind: "blocklist", target: "10.0.0.1", interval_seconds: 600 })
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.code).toBe("target_forbidden")
  }, 30_000)
})
