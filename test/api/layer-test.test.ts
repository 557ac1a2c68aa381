/**
 * The contract through the framework's own test tools, where a socket of the test's making adds
 * nothing: the service's layers (`AppLive` over `ServicesLive`, as `serve` builds them) on
 * `BunHttpServer.layerTest`, called through the `HttpApiClient` derived from the same `Api` over
 * the test client that layer provides. Successes decode into the endpoints' schemas and refusals
 * arrive as the declared error classes: the plan check, the target guard and the domain
 * parameter of the fourth wave's operations, and the locations list.
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { BunHttpServer } from "@effect/platform-bun"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, Layer, Logger, LogLevel, ManagedRuntime, Schedule } from "effect"
import { Api } from "../../src/surfaces/api/Api"
import { AppLive, ServicesLive } from "../../src/surfaces/server/Http"
import { AppConfig } from "../../src/platform/Config"
import { Keys } from "../../src/product/accounts/Keys"
import type { Plan } from "../../src/kernel/plans"

const layer = AppLive.pipe(
  Layer.provideMerge(BunHttpServer.layerTest),
  Layer.provideMerge(ServicesLive),
  Layer.provideMerge(AppConfig.make({
    databaseUrl: "sqlite::memory:",
    dnsResolvers: [],
    instanceLocation: "eu-west",
    ctAggregatorUrl: "http://127.0.0.1:9",
    ctSources: ["crtsh"],
    ctCertspotterUrl: "http://127.0.0.1:9",
    rdapBootstrapUrl: "http://127.0.0.1:9/rdap/dns.json"
  })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.None))
)

let runtime: ManagedRuntime.ManagedRuntime<Layer.Layer.Success<typeof layer>, Layer.Layer.Error<typeof layer>>

beforeAll(() => {
  runtime = ManagedRuntime.make(layer)
})
afterAll(() => runtime?.dispose())

/** The derived client over the test server's client, acting for a fresh organization on `plan`. */
const clientOn = (plan: Plan) =>
  Effect.gen(function*() {
    const issued = yield* Effect.flatMap(Keys, (k) => k.issueKey(`org-${plan}-${Math.random().toString(36).slice(2, 8)}`, plan))
    return yield* HttpApiClient.make(Api, { transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(issued.key)) })
  })

const tagOf = (e: Either.Either<unknown, unknown>) => (Either.isLeft(e) ? (e.left as { _tag: string })._tag : "Right")

describe("the service on BunHttpServer.layerTest, through the derived HttpApiClient", () => {
  test("the open probe and the locations list decode into their schemas", () =>
    runtime.runPromise(Effect.gen(function*() {
      const open = yield* HttpApiClient.make(Api)
      expect(yield* open.system.healthz()).toEqual({ status: "ok" })
      const c = yield* clientOn("free")
      // This instance's first heartbeat comes with the monitor scheduler, half a second after
      // the server starts (docs/monitors.md, docs/operating.md): asked until it is there.
      const { locations } = yield* c.locations.listLocations().pipe(
        Effect.filterOrFail((r) => r.locations.length > 0, () => "no location yet"),
        Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("10 seconds")))
      )
      expect(locations.map((l) => [l.name, l.live, l.instances])).toEqual([["eu-west", true, 1]])
    })))

  test("refusals are the declared error classes: plan, target guard, domain parameter", () =>
    runtime.runPromise(Effect.gen(function*() {
      const free = yield* clientOn("free")
      const developer = yield* clientOn("developer")
      const planRefused = yield* Effect.either(free.blocklist.blocklistCheck({ urlParams: { target: "192.0.2.1" } }))
      expect(tagOf(planRefused)).toBe("PlanForbidden")
      const metadata = yield* Effect.either(developer.blocklist.blocklistCheck({ urlParams: { target: "169.254.169.254" } }))
      expect(tagOf(metadata)).toBe("TargetForbidden")
      const notADomain = yield* Effect.either(developer.audit.domainAudit({ urlParams: { domain: "192.0.2.1" } }))
      expect(tagOf(notADomain)).toBe("InvalidRequest")
      const badName = yield* Effect.either(developer.takeover.subdomainTakeover({ urlParams: { domain: "exa mple.com" } }))
      expect(tagOf(badName)).toBe("InvalidRequest")
      if (Either.isLeft(badName)) expect((badName.left as { message: string }).message).toContain("domain")
    })))
})
