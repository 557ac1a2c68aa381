/**
 * One HTTP security grade scan resolves its host once: the page over http and https, the CORS
 * preflight and security.txt all go to the same name at the same moment, and share one lookup
 * (a real loopback DNS server counting questions, a real loopback site; nothing listens on
 * 127.0.0.1:443 here, so the https requests are refused after their lookup).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, Logger } from "effect"
import { HttpSecurityGrade } from "../../../src/analyses/observatory/HttpSecurityGrade"
import { AppConfig } from "../../../src/platform/Config"
import { DnsResolver } from "../../../src/adapters/dns/DnsResolver"
import { HttpProbe } from "../../../src/adapters/probe/HttpProbe"
import { startDnsServer, type TestDnsServer } from "../../support/dnsServer"

let dns: TestDnsServer
let site: ReturnType<typeof Bun.serve>
const requests: Array<string> = []

beforeAll(async () => {
  dns = await startDnsServer({ "scan.test": { A: ["127.0.0.1"] } })
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      requests.push(`${req.method} ${new URL(req.url).pathname}`)
      return new Response("<!doctype html><title>x</title>", { headers: { "Content-Type": "text/html" } })
    }
  })
})
afterAll(async () => {
  site?.stop(true)
  await dns?.close()
})

const grade = (url: string) =>
  Effect.runPromise(Effect.flatMap(HttpSecurityGrade, (g) => g.grade(url)).pipe(
    Effect.provide(HttpSecurityGrade.Live.pipe(
      Layer.provideMerge(HttpProbe.Live),
      Layer.provideMerge(DnsResolver.Live),
      Layer.provideMerge(AppConfig.make({ allowPrivateTargets: true, dnsResolvers: [{ host: "127.0.0.1", port: dns.port }] }))
    )),
    Effect.provide(Logger.remove(Logger.defaultLogger))
  ))

describe("HTTP security grade: one lookup per host per scan", () => {
  test("every request of a scan shares one A and one AAAA question; the next scan asks again", async () => {
    for (let scan = 1; scan <= 2; scan++) {
      dns.queries.length = 0
      requests.length = 0
      const report = await grade(`http://scan.test:${site.port}/`)
      expect(report.final_url).toBe(`http://scan.test:${site.port}/`)
      expect(requests.sort()).toEqual(["GET /", "OPTIONS /"])
      // http://scan.test:PORT/ and its preflight, https://scan.test/, the early preflight there
      // and security.txt: five requests, one lookup.
      expect(dns.queries.sort()).toEqual(["scan.test A", "scan.test AAAA"])
    }
  })
})
