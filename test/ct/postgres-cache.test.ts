/**
 * The merged two-source CT result, shared on PostgreSQL: the instance that asked stores the
 * entries with each source's status; another instance on the same database answers a hit with
 * the very same certificates and statuses, and no source is asked again.
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import { startPostgres, type PostgresCluster } from "../support/postgres"
import { startService, type TestService } from "../support/service"
import { startCrtSh, type FakeCrtSh } from "./crtsh"
import { crtRowsOf, issuanceOf, issueCert, startCertSpotter, type FakeCertSpotter } from "./certspotter"

let pg: PostgresCluster
let crt: FakeCrtSh
let cs: FakeCertSpotter
let a: TestService
let b: TestService

beforeAll(async () => {
  pg = await startPostgres()
  const databaseUrl = await pg.createDatabase()
  crt = startCrtSh()
  cs = startCertSpotter()
  const config = { databaseUrl, ctSources: ["crtsh", "certspotter"] as Array<"crtsh" | "certspotter">, ctAggregatorUrl: crt.url, ctCertspotterUrl: cs.url, ctBudgetMs: 800 }
  a = await startService(config)
  b = await startService(config)
}, 90_000)
afterAll(async () => {
  await a?.stop()
  await b?.stop()
  await crt?.stop()
  await cs?.stop()
  await pg?.stop()
})

test("one instance's merged result, with a failed source, is the other's hit on PostgreSQL", async () => {
  const both = issueCert(["pgshared.example"])
  const csOnly = issueCert(["cs.pgshared.example"])
  crt.set("pgshared.example", { kind: "rows", rows: crtRowsOf(both, Date.parse(both.notBefore)) })
  cs.set("pgshared.example", { kind: "issuances", issuances: [issuanceOf(both), issuanceOf(csOnly)] })
  const call = async (s: TestService) => {
    const key = (await s.newKey("developer")).key
    return (await (await s.call("/v1/domain/ct-logs?domain=pgshared.example", { key })).json()) as any
  }
  const first = await call(a)
  expect(first.cache.outcome).toBe("miss")
  expect(first.total).toBe(2)
  const second = await call(b)
  expect(second.cache.outcome).toBe("hit")
  expect(second.certificates).toEqual(first.certificates)
  expect(second.sources).toEqual(first.sources)
  expect(second.limitations).toEqual(first.limitations)
  expect(crt.queries.get("pgshared.example")).toBe(1)
  expect(cs.queries.get("pgshared.example")).toBe(2) // one page and the empty one

  // A failed source's status travels too.
  crt.set("pgdown.example", { kind: "rows", rows: crtRowsOf(both, Date.parse(both.notBefore)) })
  cs.set("pgdown.example", { kind: "status", status: 500 })
  const key = (await a.newKey("developer")).key
  const down = (await (await a.call("/v1/domain/ct-logs?domain=pgdown.example", { key })).json()) as any
  const downB = (await (await b.call("/v1/domain/ct-logs?domain=pgdown.example", { key: (await b.newKey("developer")).key })).json()) as any
  expect(down.sources[1]).toMatchObject({ name: "certspotter", status: "error" })
  expect(downB.cache.outcome).toBe("hit")
  expect(downB.sources).toEqual(down.sources)
}, 60_000)
