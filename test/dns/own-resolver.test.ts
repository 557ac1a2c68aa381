/**
 * One verdict on the service's own resolvers (docs/dns.md, "Own resolver health"), end to end.
 * Against three broken recursive resolvers, each a real Unbound (NXDOMAIN to everything, silent,
 * SERVFAIL to everything: ./brokenResolvers.ts), every DNS-using operation (zone hygiene and
 * email security over REST, and as the MCP tools `zone_hygiene` and `email_security` through the
 * official SDK client) answers 502 upstream_unavailable with the one message, never 404 and never
 * a report; a monitor of each DNS kind records nothing against its target (no result, no alert;
 * the run is logged with status 502). Against the healthy lab (NSD + Unbound, the email lab's
 * zones) a nonexistent domain is still 404, a zone whose servers fail still gets its findings, and
 * a monitor on a nonexistent name still opens an alert.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Option } from "effect"
import { parseResolverList } from "../../src/platform/Config"
import { connectHttp } from "../mcp/client"
import { until } from "../support/process"
import { startService, type TestService } from "../support/service"
import { startMailLab, type MailLab } from "../analyses/mail/mailLab"
import { ask, type BrokenKind, type BrokenResolvers, startBrokenResolvers } from "./brokenResolvers"

let ml: MailLab
let broken: BrokenResolvers

beforeAll(async () => {
  ;[ml, broken] = await Promise.all([startMailLab(), startBrokenResolvers()])
}, 120_000)
afterAll(async () => {
  await broken?.stop()
  await ml?.stop()
}, 30_000)

const serviceOn = (resolvers: ReadonlyArray<{ host: string; port: number }>, extra: Record<string, unknown> = {}) =>
  startService({
    dnsResolvers: resolvers,
    dnsTimeoutMs: 500,
    mtaStsTimeoutMs: 500,
    ctBudgetMs: 300,
    // zone, email and dnssec monitors (10x the minimum interval) run within seconds here
    monitorMinIntervalS: 1,
    alertEvalIntervalMs: 3_600_000,
    ...extra
  })

const get = async (svc: TestService, key: string, path: string) => {
  const res = await svc.call(path, { key })
  return { status: res.status, body: (await res.json()) as any }
}

const createMonitor = async (svc: TestService, key: string, kind: string, target: string, conditions: Record<string, unknown>) => {
  const r = await svc.call("/v1/monitors", {
    method: "POST",
    key,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: `${kind} ${target}`, kind, target, interval_seconds: 10, cooldown_minutes: 0, conditions })
  })
  const body = (await r.json()) as any
  if (r.status !== 201) throw new Error(`${kind}: ${r.status} ${JSON.stringify(body)}`)
  return body.monitor.id as string
}

/** The request-log rows of a monitor's runs (status per run). */
const runsOf = async (svc: TestService, id: string) => {
  await svc.flushLog()
  return svc.sql<{ status: number }>("SELECT status FROM request_log WHERE operation = 'monitorRun' AND path = ?", [`/v1/monitors/${id}`])
}

const MESSAGE: Record<BrokenKind, RegExp> = {
  nxdomain: /^the service's DNS resolvers cannot answer for the root zone \(NS of the root: NXDOMAIN\); no report can be made for /,
  silent: /^the service's DNS resolvers cannot answer for the root zone \(NS of the root: no answer\); no report can be made for /,
  servfail: /^the service's DNS resolvers cannot answer for the root zone \(NS of the root: SERVFAIL\); no report can be made for /
}

describe("the broken resolvers are what they claim", () => {
  test("NXDOMAIN, silence and SERVFAIL for the root and for any name", async () => {
    for (const name of [".", "example.com", "good.lab"]) {
      expect(await ask(broken.address.nxdomain.port, name, "NS")).toBe("NXDOMAIN")
      expect(await ask(broken.address.silent.port, name, "NS", 300)).toBe("no answer")
      expect(await ask(broken.address.servfail.port, name, "NS")).toBe("SERVFAIL")
    }
  }, 30_000)
})

describe.each(["nxdomain", "silent", "servfail"] as const)("with a resolver that is %s", (kind) => {
  let svc: TestService
  let key: string
  let client: Client

  beforeAll(async () => {
    svc = await serviceOn([broken.address[kind]])
    key = (await svc.newKey("enterprise")).key
    client = (await connectHttp(svc.baseUrl, key, "2025-11-25")).client
  }, 30_000)
  afterAll(async () => {
    await client?.close()
    await svc?.stop()
  }, 30_000)

  test("zone hygiene and email security, REST and MCP, answer 502 upstream_unavailable with one message", async () => {
    for (const domain of ["example.com", "good.lab"]) {
      const answers = [
        await get(svc, key, `/v1/dns/zone-hygiene?domain=${domain}`),
        await get(svc, key, `/v1/security/email?domain=${domain}`)
      ]
      for (const a of answers) {
        expect(a.status).toBe(502)
        expect(a.body.error.code).toBe("upstream_unavailable")
        expect(a.body.grade).toBeUndefined()
        expect(a.body.hygiene_grade).toBeUndefined()
      }
      const tools = await Promise.all(["zone_hygiene", "email_security"].map((name) => client.callTool({ name, arguments: { domain } }) as Promise<any>))
      for (const t of tools) {
        expect(t.isError).toBe(true)
        expect(t.structuredContent.error.code).toBe("upstream_unavailable")
      }
      // One message, whichever operation and surface.
      const messages = [...answers.map((a) => a.body.error.message), ...tools.map((t) => t.structuredContent.error.message)]
      expect(messages[0]).toMatch(MESSAGE[kind])
      expect(messages[0]).toEndWith(`no report can be made for ${domain}`)
      expect(new Set(messages).size).toBe(1)
    }
  }, 60_000)

  test("a monitor of each DNS kind records nothing against its target: no result, no alert", async () => {
    const ids = [
      await createMonitor(svc, key, "zone_hygiene", "example.com", { grade_below: "A" }),
      await createMonitor(svc, key, "email_security", "example.com", { grade_below: "A" }),
      await createMonitor(svc, key, "dnssec", "example.com", { status_not_secure: true }),
      await createMonitor(svc, key, "dns_records", "example.com", { record_type: "A", expected: ["192.0.2.1"] })
    ]
    // Each has run (first runs fall within the first 10 s interval) ...
    for (const id of ids) await until(async () => ((await runsOf(svc, id)).length > 0 ? true : undefined), `a run of ${id}`, 40_000)
    for (const id of ids) {
      // ... as a run the service could not make (logged 502), with no result and no alert.
      expect((await runsOf(svc, id)).every((r) => r.status === 502)).toBe(true)
      expect((await get(svc, key, `/v1/monitors/${id}/results`)).body.results).toEqual([])
      expect((await get(svc, key, `/v1/alerts/history?monitor_id=${id}`)).body.alerts).toEqual([])
    }
    for (const id of ids) await svc.call(`/v1/monitors/${id}`, { method: "DELETE", key })
  }, 90_000)
})

describe("with the healthy lab resolver", () => {
  let svc: TestService
  let key: string

  beforeAll(async () => {
    svc = await serviceOn(parseResolverList(ml.lab.resolver), {
      dnsTimeoutMs: 1500,
      dnssecTrustAnchors: Option.some(ml.lab.anchorsFile),
      extraCaCerts: Option.some(ml.pki.caCertPath),
      dnsAuthPort: ml.lab.port
    })
    key = (await svc.newKey("enterprise")).key
  }, 30_000)
  afterAll(async () => {
    await svc?.stop()
  }, 30_000)

  test("a nonexistent domain is 404 not_found for zone hygiene and email security", async () => {
    const zone = await get(svc, key, "/v1/dns/zone-hygiene?domain=nothing-here.lab")
    expect(zone.status).toBe(404)
    expect(zone.body.error.code).toBe("not_found")
    const email = await get(svc, key, "/v1/security/email?domain=nothing-here.lab")
    expect(email.status).toBe(404)
    expect(email.body.error).toEqual({ code: "not_found", message: "domain nothing-here.lab does not exist" })
  }, 30_000)

  test("a zone whose servers fail (SERVFAIL) still gets its findings", async () => {
    const zone = await get(svc, key, "/v1/dns/zone-hygiene?domain=broken.lab")
    expect(zone.status).toBe(200)
    expect(zone.body.findings.some((f: any) => f.check === "nameserver_redundancy" && f.severity === "critical")).toBe(true)
    const email = await get(svc, key, "/v1/security/email?domain=broken.lab")
    expect(email.status).toBe(200)
    expect(email.body.findings.some((f: any) => f.check === "mx" && f.severity === "high")).toBe(true)
  }, 30_000)

  test("a monitor on a name that does not exist still opens an alert", async () => {
    const id = await createMonitor(svc, key, "dns_records", "nothing-here.lab", { record_type: "A", expected: ["192.0.2.1"] })
    const alerts = await until(async () => {
      const a = (await get(svc, key, `/v1/alerts/history?monitor_id=${id}`)).body.alerts
      return a.length > 0 ? a : undefined
    }, "an alert", 40_000)
    expect(alerts[0].metric).toBe("dns_records")
    const results = (await get(svc, key, `/v1/monitors/${id}/results`)).body.results
    expect(results[0].ok).toBe(false)
    expect((await runsOf(svc, id)).every((r) => r.status === 200)).toBe(true)
  }, 60_000)
})
