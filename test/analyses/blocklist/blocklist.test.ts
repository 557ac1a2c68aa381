/**
 * GET /v1/security/blocklist against a real lab world (test/analyses/blocklist/world.ts): NSD
 * serving lab copies of the default DNSBLs with their RFC 5782 test points and planted listings,
 * lists that misbehave as real ones do, lab domains with A, AAAA and MX hosts, Unbound as the
 * service's recursive resolver, a black hole. Listings are found with their codes and TXT
 * reasons, unlisted items are not_listed, every answer a list cannot be trusted for is error;
 * bad input gets its 400; the MCP tool equals REST; the monitor kind alerts on a new listing and
 * names it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { parseResolverList } from "../../../src/platform/Config"
import { receiver } from "../../alerts/support"
import { connectHttp } from "../../mcp/client"
import { until } from "../../support/process"
import { startService, type TestService } from "../../support/service"
import { startTakeoverLab, type TakeoverLab } from "../takeover/takeoverLab"
import { blocklistZones, DEFAULT_DOMAIN_ZONES, DEFAULT_IP_ZONES, FAULTY_IP_ZONES, IP, psblRecords } from "./world"

const n = 1 + Math.floor(Math.random() * 250)
let lab: TakeoverLab
let svc: TestService
let key: string
/** MCP is a pro-plan endpoint. */
let proKey: string
const hooks = receiver(0)

beforeAll(async () => {
  lab = await startTakeoverLab({ n, zones: blocklistZones((h) => `127.56.${n}.${h}`), web: new Map() })
  svc = await startService({
    dnsResolvers: parseResolverList(lab.resolver),
    dnsTimeoutMs: 1500,
    allowPrivateTargets: true,
    dnsblIpZones: [...DEFAULT_IP_ZONES, ...FAULTY_IP_ZONES],
    dnsblDomainZones: DEFAULT_DOMAIN_ZONES,
    // blocklist monitors (10x the minimum interval) run every 10 s here
    monitorMinIntervalS: 1,
    webhookRetryBaseMs: 50,
    alertEvalIntervalMs: 3_600_000
  })
  key = (await svc.newKey("developer")).key
  proKey = (await svc.newKey("pro")).key
}, 120_000)

afterAll(async () => {
  await svc?.stop()
  await lab?.stop()
  hooks.server.stop(true)
}, 30_000)

const check = async (target: string) => {
  const res = await svc.call(`/v1/security/blocklist?${new URLSearchParams({ target })}`, { key })
  return { status: res.status, body: (await res.json()) as any }
}

const ok = async (target: string) => {
  const r = await check(target)
  if (r.status !== 200) throw new Error(`${target}: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body
}

/** Each entry as "item zone status codes". */
const brief = (e: any) => `${e.item} ${e.zone} ${e.status}${e.codes.length > 0 ? ` ${e.codes.join(",")}` : ""}`
const onDefault = (r: any) => r.lists.filter((e: any) => [...DEFAULT_IP_ZONES, ...DEFAULT_DOMAIN_ZONES].includes(e.zone))
const entry = (r: any, item: string, zone: string) => r.lists.find((e: any) => e.item === item && e.zone === zone)

describe("an address", () => {
  test("a listed IPv4 address: each list's codes and TXT reason; the other lists not_listed; listed_count counts the listings", async () => {
    const r = await ok(IP.mx1)
    expect(r).toMatchObject({ target: IP.mx1, kind: "ip", ips: [IP.mx1], listed_count: 2 })
    expect(onDefault(r).map(brief)).toEqual([
      `${IP.mx1} zen.spamhaus.org listed 127.0.0.2,127.0.0.4`,
      `${IP.mx1} bl.spamcop.net listed 127.0.0.2`,
      `${IP.mx1} b.barracudacentral.org not_listed`,
      `${IP.mx1} psbl.surriel.com not_listed`
    ])
    expect(entry(r, IP.mx1, "zen.spamhaus.org").reason).toBe(`https://check.spamhaus.org/listed/?searchterms=${IP.mx1}`)
    expect(entry(r, IP.mx1, "bl.spamcop.net").reason).toBe(`Blocked - see https://www.spamcop.net/bl.shtml?${IP.mx1}`)
    expect(entry(r, IP.mx1, "psbl.surriel.com").reason).toBeNull()
    expect(Date.parse(r.checked_at)).toBeGreaterThan(Date.parse("2026-01-01"))
  }, 60_000)

  test("a listed IPv6 address is asked nibble-reversed; lists without an IPv6 test point are asked but said to vouch for nothing", async () => {
    const r = await ok("[2001:DB8:10:0:0:0:0:80]")
    expect(r.target).toBe(IP.web6)
    expect(onDefault(r).map(brief)).toEqual([
      `${IP.web6} zen.spamhaus.org listed 127.0.0.3`,
      `${IP.web6} bl.spamcop.net not_listed`,
      `${IP.web6} b.barracudacentral.org not_listed`,
      `${IP.web6} psbl.surriel.com not_listed`
    ])
    expect(entry(r, IP.web6, "zen.spamhaus.org").reason).toBe(`Listed by CSS, see https://check.spamhaus.org/query/ip/${IP.web6}`)
    const v6 = r.limitations.filter((l: string) => l.includes("IPv6 test point"))
    expect(v6.map((l: string) => l.split(" ")[0])).toEqual(["bl.spamcop.net", "b.barracudacentral.org"])
  }, 60_000)

  test("an IPv4-mapped IPv6 address is its IPv4 address", async () => {
    const mapped = await ok(`::ffff:${IP.mx1}`)
    const plain = await ok(IP.mx1)
    expect(mapped.target).toBe(IP.mx1)
    expect(onDefault(mapped).map(brief)).toEqual(onDefault(plain).map(brief))
  }, 60_000)

  test("an address on no list is not_listed on every working list", async () => {
    const r = await ok(IP.clean)
    expect(onDefault(r).map((e: any) => e.status)).toEqual(["not_listed", "not_listed", "not_listed", "not_listed"])
    expect(r.listed_count).toBe(0)
  }, 60_000)

  test("a list's refusal code (127.255.255.255, too many queries) is error with its meaning, never a listing", async () => {
    const r = await ok(IP.limited)
    expect(entry(r, IP.limited, "zen.spamhaus.org")).toMatchObject({ status: "error", codes: ["127.255.255.255"] })
    expect(entry(r, IP.limited, "zen.spamhaus.org").reason).toContain("too many queries")
    expect(r.listed_count).toBe(0)
  }, 60_000)
})

describe("a domain", () => {
  test("the domain on the domain lists; each address of its A, AAAA and MX hosts once on the IP lists", async () => {
    const r = await ok("MailCo.com.")
    expect(r).toMatchObject({ target: "mailco.com", kind: "domain", ips: [IP.web4, IP.web6, IP.mx1, IP.mx1v6, IP.mx2] })
    const listed = r.lists.filter((e: any) => e.status === "listed").map(brief)
    expect(listed).toEqual([
      `${IP.web6} zen.spamhaus.org listed 127.0.0.3`,
      `${IP.mx1} zen.spamhaus.org listed 127.0.0.2,127.0.0.4`,
      `${IP.mx1} bl.spamcop.net listed 127.0.0.2`
    ])
    expect(r.listed_count).toBe(3)
    expect(entry(r, "mailco.com", "dbl.spamhaus.org").status).toBe("not_listed")
    expect(entry(r, "mailco.com", "multi.surbl.org").status).toBe("not_listed")
    // every default IP list answered for every address
    for (const ip of r.ips) for (const z of DEFAULT_IP_ZONES) expect(["listed", "not_listed"]).toContain(entry(r, ip, z).status)
    // one entry per (zone, item): 2 domain lists + 9 IP lists × 5 addresses
    expect(r.lists).toHaveLength(2 + (DEFAULT_IP_ZONES.length + FAULTY_IP_ZONES.length) * 5)
  }, 60_000)

  test("a listed domain: its codes on both domain lists, the TXT where the list has one", async () => {
    const r = await ok("phish.com")
    expect(r.ips).toEqual([IP.phish])
    expect(onDefault(r).map(brief)).toEqual([
      "phish.com dbl.spamhaus.org listed 127.0.1.4",
      "phish.com multi.surbl.org listed 127.0.0.80",
      ...DEFAULT_IP_ZONES.map((z) => `${IP.phish} ${z} not_listed`)
    ])
    expect(entry(r, "phish.com", "dbl.spamhaus.org").reason).toBe("https://www.spamhaus.org/query/domain/phish.com")
    expect(entry(r, "phish.com", "multi.surbl.org").reason).toBeNull()
  }, 60_000)

  test("a domain without addresses is asked of the domain lists only, and says so; an MX host that does not exist is named", async () => {
    const r = await ok("nomail.com")
    expect(r.ips).toEqual([])
    expect(r.lists.map(brief)).toEqual(["nomail.com dbl.spamhaus.org not_listed", "nomail.com multi.surbl.org not_listed"])
    expect(r.limitations).toContain("nomail.com has no address (A, AAAA or MX host): only the domain lists were asked")
    const g = await ok("ghostmx.com")
    expect(g.ips).toEqual([])
    expect(g.limitations).toContain("The MX host mx.ghostmx.com does not exist (NXDOMAIN)")
  }, 60_000)

  test("a host name under a registered domain: asked as it is, with a hint to check the registered domain", async () => {
    const r = await ok("www.mailco.com")
    expect(r.ips).toEqual([IP.web4])
    expect(r.limitations).toContain("www.mailco.com is not a registered domain: domain lists mostly list registered domains, so check mailco.com as well")
  }, 60_000)

  test("a domain that does not exist is 404", async () => {
    const r = await check("nothere.com")
    expect(r.status).toBe(404)
    expect(r.body.error).toEqual({ code: "not_found", message: "domain nothere.com does not exist (the DNS answers NXDOMAIN for it)" })
  }, 30_000)
})

describe("lists that cannot be trusted are error for every item, never not_listed", () => {
  const reasons: Record<string, RegExp> = {
    "refusing.lists.net": /^refusing\.lists\.net failed its RFC 5782 test points: its test point 127\.0\.0\.2: the list refused the query because it came through a public or open resolver/,
    "wildcard.lists.net": /^wildcard\.lists\.net failed its RFC 5782 test points: it lists 127\.0\.0\.1 \(127\.0\.0\.2\)/,
    "retired.lists.net": /^retired\.lists\.net failed its RFC 5782 test points: it does not list its test point 127\.0\.0\.2/,
    "hole.lists.net": /^hole\.lists\.net failed its RFC 5782 test points: its test point 127\.0\.0\.2: the list did not answer/
  }

  test.each(Object.keys(reasons))("%s", async (zone) => {
    const r = await ok("mailco.com")
    const on = r.lists.filter((e: any) => e.zone === zone)
    expect(on).toHaveLength(5)
    for (const e of on) {
      expect(e.status).toBe("error")
      expect(e.codes).toEqual([])
      expect(e.reason).toMatch(reasons[zone])
    }
    expect(r.limitations.filter((l: string) => l.startsWith(`${zone} failed its RFC 5782 test points`) && l.endsWith("every item on it is error"))).toHaveLength(1)
  }, 60_000)

  test("a list that passes its test points but does not answer for one item: that item is error, the others are answered", async () => {
    const r = await ok("mailco.com")
    const on = r.lists.filter((e: any) => e.zone === "slow.lists.net")
    expect(on.map(brief)).toEqual([
      `${IP.web4} slow.lists.net error`,
      ...[IP.web6, IP.mx1, IP.mx1v6, IP.mx2].map((ip) => `${ip} slow.lists.net not_listed`)
    ])
    expect(on[0].reason).toMatch(/^the list did not answer/)
  }, 60_000)
})

describe("bad input", () => {
  test.each([
    ["0x7f.1", "an address is four decimal numbers"],
    ["127.1", "an address is four decimal numbers"],
    ["1.2.3.256", "an address is four decimal numbers"],
    ["2130706433", "an address is four decimal numbers"],
    ["mailco.com:25", "has a port"],
    ["user@mailco.com", "has a user part"],
    ["ftp://mailco.com", "has the scheme ftp://"],
    ["mail co.com", "is not a valid domain name"],
    ["fe80::1%eth0", "zone index"],
    ["https://mailco.com/path", "has a path"]
  ])("%p is 400 invalid_request saying why", async (target, why) => {
    const r = await check(target)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe("invalid_request")
    expect(r.body.error.message).toStartWith(`target must be an IPv4 or IPv6 address or a domain name: ${JSON.stringify(target)} is neither (`)
    expect(r.body.error.message).toContain(why)
  }, 30_000)

  test("no target, an empty one and one past 300 characters are 400", async () => {
    for (const q of ["", "target=", `target=${"a".repeat(301)}.com`]) {
      const res = await svc.call(`/v1/security/blocklist?${q}`, { key })
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).error.code).toBe("invalid_request")
    }
  }, 30_000)

  test("a cloud metadata address is refused even where private targets are allowed", async () => {
    const r = await check("169.254.169.254")
    expect(r.status).toBe(400)
    expect(r.body.error).toEqual({ code: "target_forbidden", message: "169.254.169.254 is a cloud metadata address: public blocklists list only public addresses" })
  }, 30_000)

  test("the free plan is refused (developer operation)", async () => {
    const free = (await svc.newKey("free")).key
    const res = await svc.call(`/v1/security/blocklist?target=${IP.mx1}`, { key: free })
    expect(res.status).toBe(403)
  }, 30_000)
})

describe("the MCP tool blocklist", () => {
  const timeless = (r: any) => {
    const { checked_at: _c, ...rest } = r
    return rest
  }

  test.each([IP.mx1, IP.web6, "mailco.com", "phish.com"])("structuredContent for %s equals the REST body (apart from checked_at)", async (target) => {
    const { client } = await connectHttp(svc.baseUrl, proKey, "2025-11-25")
    try {
      const rest = await ok(target)
      const res = (await client.callTool({ name: "blocklist", arguments: { target } })) as any
      expect(res.isError).toBe(false)
      expect(timeless(res.structuredContent)).toEqual(timeless(rest))
      expect(JSON.parse(res.content[0].text)).toEqual(res.structuredContent)
    } finally {
      await client.close()
    }
  }, 60_000)

  test.each([
    [{ target: "0x7f.1" }, "invalid_request"],
    [{}, "invalid_request"],
    [{ target: "nothere.com" }, "not_found"],
    [{ target: "169.254.169.254" }, "target_forbidden"]
  ] as ReadonlyArray<readonly [Record<string, string>, string]>)("%j: the same error as REST (%s)", async (args, code) => {
    const { client } = await connectHttp(svc.baseUrl, proKey, "2025-11-25")
    try {
      const rest: any = await (await svc.call(`/v1/security/blocklist?${new URLSearchParams(args)}`, { key })).json()
      const res = (await client.callTool({ name: "blocklist", arguments: args })) as any
      expect(res.isError).toBe(true)
      expect(res.structuredContent.error.code).toBe(code)
      expect(res.structuredContent.error).toEqual(rest.error)
    } finally {
      await client.close()
    }
  }, 30_000)
})

describe("the blocklist monitor kind", () => {
  const create = async (target: string, extra: Record<string, unknown> = {}) =>
    svc.call("/v1/monitors", {
      method: "POST", key, headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: `blocklist ${target}`, kind: "blocklist", target, interval_seconds: 10, cooldown_minutes: 0, ...extra })
    })
  const results = async (id: string) => ((await (await svc.call(`/v1/monitors/${id}/results`, { key })).json()) as any).results as Array<any>

  test("a new listing makes the run not ok and the alert names the list and the item; the next run is ok", async () => {
    const res = await create("Monitored.com", { channels: [{ type: "webhook", url: hooks.url }] })
    expect(res.status).toBe(201)
    const m = ((await res.json()) as any).monitor
    expect(m).toMatchObject({ kind: "blocklist", target: "monitored.com", conditions: { listed: true } })
    const first = await until(async () => (await results(m.id))[0], "the first run", 60_000)
    expect(first.ok).toBe(true)
    expect(first.summary).toMatch(/^listed nowhere; 20 \(list, item\) pairs asked, \d+ without a usable answer$/)

    // PSBL lists one of monitored.com's MX addresses from now on.
    lab.setZone("psbl.surriel.com", psblRecords(true))
    const failed = await until(() => hooks.received.find((h) => h.event === "monitor.failed" && h.body.monitor?.id === m.id), "the alert", 90_000)
    expect(failed.body.summary).toBe(`newly listed: ${IP.later} on psbl.surriel.com (127.0.0.2)`)
    const bad = (await results(m.id)).find((r) => !r.ok)
    expect(bad.report.new_listings.map(brief)).toEqual([`${IP.later} psbl.surriel.com listed 127.0.0.2`])
    expect(bad.report.listed.map((e: any) => e.reason)).toEqual([`Listed in PSBL, see https://psbl.org/listing?ip=${IP.later}`])

    // Still listed, but nothing new: ok again, the alert resolved.
    const recovered = await until(() => hooks.received.find((h) => h.event === "monitor.recovered" && h.body.monitor?.id === m.id), "the recovery", 60_000)
    expect(recovered.body.summary).toMatch(/^1 listing, none new; 20 \(list, item\) pairs asked/)
  }, 200_000)

  test("an address target is stored canonically; the interval floor is ten times the minimum; bad targets are refused", async () => {
    const v6 = await create("[2001:DB8:10::80]")
    expect(v6.status).toBe(201)
    expect(((await v6.json()) as any).monitor.target).toBe(IP.web6)
    const fast = await create("mailco.com", { interval_seconds: 9 })
    expect(fast.status).toBe(400)
    const bad = await create("0x7f.1")
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as any).error.code).toBe("invalid_request")
    const metadata = await create("169.254.169.254")
    expect(metadata.status).toBe(400)
    expect(((await metadata.json()) as any).error.code).toBe("target_forbidden")
  }, 30_000)
})
