/**
 * ResolverHealth (docs/dns.md, "Own resolver health") through the real DnsResolver against loopback
 * DNS servers that count what they are asked: a positive answer never asks the root; a burst of
 * negative answers asks it once; the verdict is cached on Effect's Clock (TestClock here), a
 * healthy one for HEALTHY_TTL, a failing one for FAILING_TTL; a caller interrupted while the root
 * is being asked does not take the answer away from the others.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Duration, Effect, Either, Fiber, Layer, Logger, TestClock, TestContext } from "effect"
import * as dgram from "node:dgram"
import type * as net from "node:net"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { FAILING_TTL, HEALTHY_TTL, OwnResolversDown, ResolverHealth } from "../../src/adapters/dns/ResolverHealth"
import { UpstreamUnavailable } from "../../src/kernel/errors"
import { AppConfig } from "../../src/platform/Config"
import { ROOT_RECORDS, startDnsServer, type TestDnsServer } from "../support/dnsServer"

let healthy: TestDnsServer
let rootless: TestDnsServer
let silent: dgram.Socket

beforeAll(async () => {
  healthy = await startDnsServer({ ...ROOT_RECORDS, "example.test": { A: ["192.0.2.1"] } })
  rootless = await startDnsServer({ "example.test": { A: ["192.0.2.1"] } })
  silent = dgram.createSocket("udp4")
  await new Promise<void>((r) => silent.bind(0, "127.0.0.1", () => r()))
})
afterAll(async () => {
  await healthy?.close()
  await rootless?.close()
  silent?.close()
})

const rootQueries = (s: TestDnsServer) => s.queries.filter((q) => q.startsWith(". ")).length

const run = <A, E>(port: number, eff: Effect.Effect<A, E, ResolverHealth | DnsResolver>) =>
  Effect.runPromise(eff.pipe(
    Effect.provide(ResolverHealth.Live.pipe(
      Layer.provideMerge(DnsResolver.Live),
      Layer.provide(AppConfig.make({ dnsResolvers: [{ host: "127.0.0.1", port }], dnsTimeoutMs: 1000 }))
    )),
    Effect.provide(TestContext.TestContext),
    Effect.provide(Logger.remove(Logger.defaultLogger))
  ))

describe("ResolverHealth", () => {
  test("a positive answer asks nothing; a burst of negative ones asks the root once, then again after HEALTHY_TTL", async () => {
    healthy.queries.length = 0
    await run(healthy.port, Effect.gen(function*() {
      const health = yield* ResolverHealth
      const dns = yield* DnsResolver
      const a = yield* health.guard("example.test", dns.query({ name: "example.test", type: "A" }), (x) => x.rcode !== "NOERROR")
      expect(a.answers.length).toBe(1)
      expect(rootQueries(healthy)).toBe(0)
      // 50 operations concluding "does not exist" at once: one NS and one DNSKEY question.
      const nx = yield* Effect.all(
        Array.from({ length: 50 }, () => health.guard("missing.test", dns.query({ name: "missing.test", type: "A" }), (x) => x.rcode !== "NOERROR")),
        { concurrency: "unbounded" }
      )
      expect(nx.every((x) => x.rcode === "NXDOMAIN")).toBe(true)
      expect(healthy.queries.filter((q) => q.startsWith(". ")).sort()).toEqual([". DNSKEY", ". NS"])
      yield* TestClock.adjust(Duration.subtract(HEALTHY_TTL, Duration.millis(100)))
      yield* health.confirm("missing.test")
      expect(rootQueries(healthy)).toBe(2)
      yield* TestClock.adjust(Duration.millis(200))
      yield* health.confirm("missing.test")
      expect(rootQueries(healthy)).toBe(4)
    }))
  })

  test("a resolver without the root fails with the one 502, cached for FAILING_TTL", async () => {
    rootless.queries.length = 0
    await run(rootless.port, Effect.gen(function*() {
      const health = yield* ResolverHealth
      const first = yield* Effect.either(health.confirm("missing.test"))
      expect(Either.isLeft(first)).toBe(true)
      const e = (first as Either.Left<OwnResolversDown, void>).left
      expect(e).toBeInstanceOf(OwnResolversDown)
      expect(e).toBeInstanceOf(UpstreamUnavailable)
      expect(e.code).toBe("upstream_unavailable")
      expect(e.message).toBe("the service's DNS resolvers cannot answer for the root zone (NS of the root: NXDOMAIN); no report can be made for missing.test")
      // A failure of the guarded effect itself also asks (here: cached, no new question).
      const failed = yield* Effect.either(health.guard("x.test", Effect.fail("lookup failed" as const)))
      expect(Either.isLeft(failed) && failed.left instanceof OwnResolversDown).toBe(true)
      expect(rootQueries(rootless)).toBe(2)
      // The failing verdict lives shorter than a healthy one, and a repaired resolver is seen.
      expect(Duration.lessThan(FAILING_TTL, HEALTHY_TTL)).toBe(true)
      rootless.set(".", "NS", ["a.root-servers.net"])
      rootless.set(".", "DNSKEY", ROOT_RECORDS["."]!.DNSKEY!)
      yield* TestClock.adjust(Duration.subtract(FAILING_TTL, Duration.millis(100)))
      expect(Either.isLeft(yield* Effect.either(health.confirm("missing.test")))).toBe(true)
      yield* TestClock.adjust(Duration.millis(200))
      yield* health.confirm("missing.test")
      expect(rootQueries(rootless)).toBe(4)
    }))
  })

  test("without DNSSEC the NS set is enough; with it, the DNSKEY set must be read too", async () => {
    const keyless = await startDnsServer({ ".": { NS: ["a.root-servers.net"] } })
    try {
      await run(keyless.port, Effect.gen(function*() {
        const health = yield* ResolverHealth
        yield* health.confirm("example.test")
        const r = yield* Effect.either(health.confirm("example.test", { dnssec: true }))
        expect(Either.isLeft(r) && r.left.message).toBe(
          "the service's DNS resolvers cannot answer for the root zone (DNSKEY of the root: empty answer); no report can be made for example.test"
        )
      }))
    } finally {
      await keyless.close()
    }
  })

  test("a caller interrupted while the root is asked does not interrupt the others' answer", async () => {
    const port = (silent.address() as net.AddressInfo).port
    await run(port, Effect.gen(function*() {
      const health = yield* ResolverHealth
      const a = yield* Effect.fork(health.confirm("a.test"))
      const b = yield* Effect.fork(Effect.either(health.confirm("b.test")))
      yield* Effect.promise(() => Bun.sleep(100))
      yield* Fiber.interrupt(a)
      yield* TestClock.adjust(Duration.seconds(2))
      const r = yield* Fiber.join(b)
      expect(Either.isLeft(r) && r.left.message).toBe(
        "the service's DNS resolvers cannot answer for the root zone (NS of the root: no answer); no report can be made for b.test"
      )
    }))
  })
})
