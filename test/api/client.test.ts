/**
 * The contract from the client side: the exported typed client (src/surfaces/client.ts), an
 * `HttpApiClient` derived from the very `Api` the server serves, decodes the service's answers, errors included (a 404 on an unknown rule, a 429 with
 * its `retryAfterSeconds`), and the 429's headers say when the quota resets.
 */
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { makeClient } from "../../src/surfaces/client"
import { NotFound, QuotaExceeded } from "../../src/kernel/errors"
import { monthStart, nextMonthStart } from "../../src/product/metering/Quota"
import { startService, type TestService } from "../support/service"

let svc: TestService

beforeAll(async () => {
  svc = await startService()
})
afterAll(() => svc?.stop())

const clientFor = (key: string) => makeClient({ baseUrl: svc.baseUrl, apiKey: key })

const run = <A, E>(effect: Effect.Effect<A, E, HttpClient.HttpClient>) =>
  Effect.runPromise(Effect.either(effect).pipe(Effect.provide(FetchHttpClient.layer)))

/** The free plan's 1,000 requests of this month, used up. */
const useUp = (orgId: string) =>
  svc.sql("INSERT INTO quota_usage (org_id, month, used) VALUES (?, ?, 1000)", [orgId, monthStart(Date.now())])

describe("derived HttpApiClient", () => {
  test("without a key: the open probes answer, a metered operation is Unauthorized", async () => {
    const health = await run(Effect.flatMap(makeClient({ baseUrl: svc.baseUrl }), (c) => c.system.healthz()))
    expect(health._tag).toBe("Right")
    if (health._tag === "Right") expect(health.right).toEqual({ status: "ok" })
    const account = await run(Effect.flatMap(makeClient({ baseUrl: svc.baseUrl }), (c) => c.account.account()))
    expect(account._tag).toBe("Left")
    if (account._tag === "Left") expect((account.left as { _tag: string })._tag).toBe("Unauthorized")
  })

  test("create, read and delete an alert rule through the client", async () => {
    const { key } = await svc.newKey("developer")
    const flow = Effect.gen(function*() {
      const c = yield* clientFor(key)
      const created = yield* c.alerts.createAlertRule({
        payload: { name: "errors", metric: "error_rate", operator: "gt", threshold_value: 5, window_minutes: 5, channels: [], cooldown_minutes: 10, enabled: true }
      })
      const read = yield* c.alerts.getAlertRule({ path: { id: created.rule.id } })
      yield* c.alerts.deleteAlertRule({ path: { id: created.rule.id } })
      const gone = yield* Effect.either(c.alerts.getAlertRule({ path: { id: created.rule.id } }))
      return { created, read, gone }
    })
    const result = await run(flow)
    expect(result._tag).toBe("Right")
    if (result._tag !== "Right") return
    expect(result.right.read.rule).toEqual(result.right.created.rule)
    expect(result.right.created.signing_secret).toMatch(/^whsec_/)
    expect(result.right.gone._tag).toBe("Left")
  })

  test("a success decodes into the endpoint's schema", async () => {
    const { key } = await svc.newKey("enterprise")
    const result = await run(Effect.flatMap(clientFor(key), (c) => c.alerts.listAlertRules()))
    expect(result._tag).toBe("Right")
    if (result._tag === "Right") expect(result.right.rules).toEqual([])
  })

  test("404 decodes as NotFound", async () => {
    const { key } = await svc.newKey("enterprise")
    const result = await run(Effect.flatMap(clientFor(key), (c) => c.alerts.getAlertRule({ path: { id: "rule_missing" } })))
    expect(result._tag).toBe("Left")
    if (result._tag === "Left") {
      expect(result.left).toBeInstanceOf(NotFound)
      expect((result.left as NotFound).message.length).toBeGreaterThan(0)
    }
  })

  test("429 decodes as QuotaExceeded with retryAfterSeconds; the headers agree", async () => {
    const { key, orgId } = await svc.newKey("free")
    await useUp(orgId)
    const result = await run(Effect.flatMap(clientFor(key), (c) => c.analytics.usageSummary({ urlParams: {} })))
    expect(result._tag).toBe("Left")
    if (result._tag !== "Left") return
    expect(result.left).toBeInstanceOf(QuotaExceeded)
    const retryAfter = (result.left as QuotaExceeded).retryAfterSeconds
    expect(retryAfter).toBeGreaterThan(0)

    const raw = await svc.call("/v1/analytics/usage", { key })
    expect(raw.status).toBe(429)
    expect(raw.headers.get("x-ratelimit-limit")).toBe("1000")
    expect(raw.headers.get("x-ratelimit-remaining")).toBe("0")
    expect(Number(raw.headers.get("x-ratelimit-reset"))).toBe(Math.floor(nextMonthStart(Date.now()) / 1000))
    const header = Number(raw.headers.get("retry-after"))
    expect(Math.abs(header - retryAfter)).toBeLessThanOrEqual(5)
    expect(((await raw.json()) as any).error.details.retry_after_seconds).toBe(header)
  })
})
