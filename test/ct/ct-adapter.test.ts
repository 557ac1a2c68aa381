/**
 * The CT adapter's outbound behaviour: no redirect followed (the hop's target sees nothing),
 * one cache in the store shared by two instances, and TestClock driving the TTL and the retry
 * schedule against a real loopback aggregator and a real SQLite store.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { SqliteClient } from "@effect/sql-sqlite-bun"
import { Duration, Effect, Fiber, Layer, Logger, TestClock, TestContext } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../../src/platform/Config"
import { CtAggregator } from "../../src/adapters/ct/CtAggregator"
import { SqlLive } from "../../src/platform/store/Sql"
import { startService, type TestService } from "../support/service"
import { makeRows, startCrtSh, type FakeCrtSh } from "./crtsh"

let crt: FakeCrtSh
let target: ReturnType<typeof Bun.serve>
let targetHits = 0
const dir = mkdtempSync(join(tmpdir(), "di-ct-adapter-"))

beforeAll(() => {
  crt = startCrtSh()
  target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => { targetHits++; return Response.json(makeRows("moved.example", 2)) } })
})
afterAll(async () => {
  await crt?.stop()
  target?.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

describe("CT aggregator outbound", () => {
  test("a redirect from the aggregator is not followed: 502, and its target gets no request", async () => {
    const svc = await startService({ ctAggregatorUrl: crt.url, ctBudgetMs: 1000 })
    try {
      crt.set("moved.example", { kind: "redirect", location: `http://127.0.0.1:${target.port}/?q=moved.example&output=json` })
      const { key } = await svc.newKey("developer")
      const res = await svc.call("/v1/domain/ct-logs?domain=moved.example", { key })
      expect(res.status).toBe(502)
      const body = (await res.json()) as any
      expect(body.error.code).toBe("upstream_unavailable")
      expect(body.error.message).toContain("302")
      expect(targetHits).toBe(0)
      expect(crt.queries.get("moved.example")).toBe(1) // a redirect is final: not retried
    } finally {
      await svc.stop()
    }
  })

  test("two instances on one database share the cache: the second is a hit, one upstream query", async () => {
    const databaseUrl = `sqlite:${join(dir, "shared.db")}`
    crt.set("shared2.example", { kind: "rows", rows: makeRows("shared2.example", 3, { firstId: 91_000 }) })
    const a = await startService({ databaseUrl, ctAggregatorUrl: crt.url, ctBudgetMs: 1000 })
    const b = await startService({ databaseUrl, ctAggregatorUrl: crt.url, ctBudgetMs: 1000 })
    try {
      const ka = (await a.newKey("developer")).key
      const kb = (await b.newKey("developer")).key
      const ra = (await (await a.call("/v1/domain/ct-logs?domain=shared2.example", { key: ka })).json()) as any
      const rb = (await (await b.call("/v1/domain/ct-logs?domain=shared2.example", { key: kb })).json()) as any
      expect(ra.cache.outcome).toBe("miss")
      expect(rb.cache.outcome).toBe("hit")
      expect(rb.certificates).toEqual(ra.certificates)
      expect(crt.queries.get("shared2.example")).toBe(1)
    } finally {
      await a.stop()
      await b.stop()
    }
  })
})

describe("CT aggregator under TestClock", () => {
  const layer = (budgetMs: number) =>
    CtAggregator.Live.pipe(
      Layer.provide(SqlLive),
      Layer.provide(AppConfig.make({ databaseUrl: "sqlite::memory:", ctAggregatorUrl: crt.url, ctSources: ["crtsh"], ctCacheTtlS: 60, ctBudgetMs: budgetMs })),
      Layer.provide(Logger.remove(Logger.defaultLogger))
    )
  const run = <A, E>(budgetMs: number, eff: Effect.Effect<A, E, CtAggregator>) =>
    Effect.runPromise(eff.pipe(Effect.provide(layer(budgetMs)), Effect.provide(TestContext.TestContext)))
  /** Real time passes for the loopback I/O while the test clock is moved in steps. */
  const drive = <A, E>(fiber: Fiber.RuntimeFiber<A, E>, step: Duration.DurationInput) =>
    Effect.gen(function*() {
      for (let i = 0; i < 200 && fiber.unsafePoll() === null; i++) {
        yield* Effect.promise(() => new Promise((r) => setTimeout(r, 10)))
        yield* TestClock.adjust(step)
      }
      return yield* Fiber.join(fiber)
    })

  test("the TTL is TestClock time: hit before it, stale after it when the aggregator fails", async () => {
    crt.set("clock.example", { kind: "rows", rows: makeRows("clock.example", 2, { firstId: 92_000 }) })
    const outcomes = await run(2000, Effect.gen(function*() {
      const ct = yield* CtAggregator
      const a = yield* ct.lookup("clock.example")
      yield* TestClock.adjust(Duration.seconds(59))
      const b = yield* ct.lookup("clock.example")
      crt.set("clock.example", { kind: "status", status: 404 })
      yield* TestClock.adjust(Duration.seconds(2))
      const c = yield* ct.lookup("clock.example")
      return [a.outcome, b.outcome, c.outcome, c.entries.length]
    }))
    expect(outcomes).toEqual(["miss", "hit", "stale", 2])
  })

  test("transient failures are retried on the Schedule, driven by TestClock, inside the budget", async () => {
    crt.set("retry.example", { kind: "flaky", failures: 3, rows: makeRows("retry.example", 1, { firstId: 93_000 }) })
    const r = await run(10_000, Effect.gen(function*() {
      const ct = yield* CtAggregator
      const fiber = yield* Effect.fork(ct.lookup("retry.example"))
      return yield* drive(fiber, Duration.millis(500))
    }))
    expect(r.outcome).toBe("miss")
    expect(crt.queries.get("retry.example")).toBe(4)
  })

  test("an aggregator failing for the whole budget ends in upstream_unavailable at the budget", async () => {
    crt.set("down.example", { kind: "status", status: 503 })
    const r = await run(3000, Effect.gen(function*() {
      const ct = yield* CtAggregator
      const fiber = yield* Effect.fork(Effect.either(ct.lookup("down.example")))
      const start = yield* TestClock.currentTimeMillis
      const out = yield* drive(fiber, Duration.millis(250))
      return { out, elapsed: (yield* TestClock.currentTimeMillis) - start }
    }))
    expect(r.out._tag).toBe("Left")
    expect((r.out as any).left.code).toBe("upstream_unavailable")
    expect((r.out as any).left.message).toContain("503")
    expect(r.elapsed).toBeLessThanOrEqual(3250)
    expect(crt.queries.get("down.example")!).toBeGreaterThan(2)
  })
})
