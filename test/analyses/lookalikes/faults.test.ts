/**
 * Lookalike domains when things go wrong: the service's own resolvers cannot answer for the root
 * (none listening, or one that filters everything): 502 upstream_unavailable, never a report
 * saying nothing is registered. A permutation delegated to a server that never answers: its
 * lookups fail (asked twice), it is counted in `limitations`, never registered or free. A
 * resolver too slow for the whole sweep within OPERATION_DEADLINE_MS: a report (200) saying how
 * many permutations were not resolved, never a 502.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { parseResolverList } from "../../../src/platform/Config"
import { startDnsServer, type TestDnsServer } from "../../support/dnsServer"
import { startService, type TestService } from "../../support/service"
import { startDelayProxy, type DelayProxy } from "../../../bench/dns/delayProxy"
import { DOMAIN, LAME, type LookalikeLab, PLANTED, startLookalikeLab } from "./lookalikeLab"

let lab: LookalikeLab
const services: Array<TestService> = []
let filtering: TestDnsServer
let slow: DelayProxy

const serviceOn = async (overrides: Parameters<typeof startService>[0]) => {
  const svc = await startService({ allowPrivateTargets: true, ...overrides })
  services.push(svc)
  const key = (await svc.newKey("developer")).key
  return async (query: string) => {
    const res = await svc.call(`/v1/security/lookalikes?${query}`, { key })
    return { status: res.status, body: (await res.json()) as any }
  }
}

beforeAll(async () => {
  lab = await startLookalikeLab({ lame: true })
  // Answers NXDOMAIN for every name, the root included: a resolver that filters everything.
  filtering = await startDnsServer({})
  // The lab's resolver with every answer 400 ms late.
  slow = await startDelayProxy({ host: lab.addr(55), port: lab.lab.port }, { host: lab.addr(53), port: lab.lab.port }, 400)
}, 120_000)

afterAll(async () => {
  for (const s of services) await s.stop()
  await slow?.close()
  await filtering?.close()
  await lab?.stop()
})

describe("the service's own resolvers", () => {
  test("none answers (nothing listens where DNS_RESOLVERS points): 502 upstream_unavailable", async () => {
    const get = await serviceOn({ dnsResolvers: parseResolverList(`${lab.addr(56)}:${lab.lab.port}`), dnsTimeoutMs: 300 })
    const r = await get(`domain=${DOMAIN}`)
    expect(r.status).toBe(502)
    expect(r.body.error.code).toBe("upstream_unavailable")
    expect(r.body.error.message).toContain("cannot answer for the root zone")
  }, 30_000)

  test("one that answers NXDOMAIN for everything, the root included: 502, not a report of nothing registered", async () => {
    const get = await serviceOn({ dnsResolvers: parseResolverList(`127.0.0.1:${filtering.port}`) })
    const r = await get(`domain=${DOMAIN}`)
    expect(r.status).toBe(502)
    expect(r.body.error.code).toBe("upstream_unavailable")
    // It stopped at the root: no permutation was asked.
    expect(filtering.queries.filter((q) => !q.startsWith(". ") && !q.startsWith(`${DOMAIN} `))).toEqual([])
  }, 30_000)
})

describe("a permutation whose servers never answer", () => {
  test("its lookups fail, twice (our timeout, or the resolver's SERVFAIL when it gives up first): counted in limitations, neither registered nor free; the rest as planted", async () => {
    const get = await serviceOn({ dnsResolvers: parseResolverList(lab.resolver), dnsTimeoutMs: 1000 })
    const r = await get(`domain=${DOMAIN}&fuzzers=omission,addition`)
    expect(r.status).toBe(200)
    expect(r.body.lookalikes.map((l: any) => l.domain).sort()).toEqual(PLANTED.filter((p) => p.fuzzer === "omission" || p.fuzzer === "addition").map((p) => p.domain).sort())
    expect(r.body.limitations).toHaveLength(1)
    expect(r.body.limitations[0]).toMatch(new RegExp(`^1 permutation could not be resolved \\((timeout|SERVFAIL) 1; asked twice\\): neither registered nor free: ${LAME.replace(".", "\\.")}$`))
  }, 60_000)
})

describe("a resolver too slow for the whole sweep", () => {
  test("the report comes within the deadline and counts the permutations not resolved; what was resolved is reported", async () => {
    const get = await serviceOn({ dnsResolvers: parseResolverList(`${lab.addr(55)}:${lab.lab.port}`), operationDeadlineMs: 3000, dnsTimeoutMs: 2000 })
    const r = await get(`domain=${DOMAIN}`)
    expect(r.status).toBe(200)
    const late = r.body.limitations.find((s: string) => s.includes("not resolved within the operation's deadline (3000 ms"))
    expect(late).toBeDefined()
    const count = Number(/^(\d+) permutations were not resolved/.exec(late)![1])
    expect(count).toBeGreaterThan(r.body.permutations / 2)
    expect(count).toBeLessThan(r.body.permutations)
    // Whatever was found is real: planted names only.
    const planted = new Set(PLANTED.map((p) => p.domain))
    for (const l of r.body.lookalikes) expect(planted.has(l.domain)).toBe(true)
  }, 30_000)
})
