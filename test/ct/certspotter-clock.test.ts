/**
 * The two-source CT aggregator where time is the subject, on TestClock against the real
 * loopback stand-ins and a real SQLite store: a 429's Retry-After waited for on the Clock within
 * the budget, the short freshness of a result in which a source failed, and a failed source's
 * certificates kept from the previous result.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Duration, Effect, Fiber, Layer, Logger, TestClock, TestContext } from "effect"
import { AppConfig } from "../../src/platform/Config"
import { CtAggregator, DEGRADED_TTL_MS } from "../../src/adapters/ct/CtAggregator"
import { SqlLive } from "../../src/platform/store/Sql"
import { startCrtSh, type FakeCrtSh } from "./crtsh"
import { crtRowsOf, issuanceOf, issueCert, startCertSpotter, type FakeCertSpotter } from "./certspotter"

let crt: FakeCrtSh
let cs: FakeCertSpotter
beforeAll(() => {
  crt = startCrtSh()
  cs = startCertSpotter()
})
afterAll(async () => {
  await crt?.stop()
  await cs?.stop()
})

const layer = (budgetMs: number) =>
  CtAggregator.Live.pipe(
    Layer.provide(SqlLive),
    Layer.provide(AppConfig.make({
      databaseUrl: "sqlite::memory:", ctSources: ["crtsh", "certspotter"], ctAggregatorUrl: crt.url, ctCertspotterUrl: cs.url,
      ctCacheTtlS: 1800, ctBudgetMs: budgetMs
    })),
    Layer.provide(Logger.remove(Logger.defaultLogger))
  )
const run = <A, E>(budgetMs: number, eff: Effect.Effect<A, E, CtAggregator>) =>
  Effect.runPromise(eff.pipe(Effect.provide(layer(budgetMs)), Effect.provide(TestContext.TestContext)))
/** Real time passes for the loopback I/O while the test clock is moved in steps. */
const drive = <A, E>(fiber: Fiber.RuntimeFiber<A, E>, step: Duration.DurationInput) =>
  Effect.gen(function*() {
    for (let i = 0; i < 400 && fiber.unsafePoll() === null; i++) {
      yield* Effect.promise(() => new Promise((r) => setTimeout(r, 10)))
      yield* TestClock.adjust(step)
    }
    return yield* Fiber.join(fiber)
  })

const seed = (domain: string) => {
  const both = issueCert([domain])
  const csOnly = issueCert([`cs.${domain}`])
  crt.set(domain, { kind: "rows", rows: crtRowsOf(both, Date.parse(both.notBefore)) })
  return [issuanceOf(both), issuanceOf(csOnly)]
}

describe("Cert Spotter on TestClock", () => {
  test("a 429 with Retry-After: 5 is waited for on the Clock (5 s of it), within a 10 s budget", async () => {
    const issuances = seed("wait.example")
    cs.set("wait.example", { kind: "ratelimited", count: 1, retryAfter: "5", issuances })
    const r = await run(10_000, Effect.gen(function*() {
      const ct = yield* CtAggregator
      const start = yield* TestClock.currentTimeMillis
      const fiber = yield* Effect.fork(ct.lookup("wait.example"))
      const out = yield* drive(fiber, Duration.millis(250))
      return { out, elapsed: (yield* TestClock.currentTimeMillis) - start }
    }))
    expect(r.out.sources.map((s) => s.status)).toEqual(["ok", "ok"])
    expect(r.out.entries.length).toBe(2)
    expect(r.elapsed).toBeGreaterThanOrEqual(5000)
    expect(r.elapsed).toBeLessThan(10_000)
    expect(cs.queries.get("wait.example")).toBe(3) // the 429, the page, the empty page
  })

  test("a result with a failed source is fresh for DEGRADED_TTL_MS, not the TTL; the failed source's certificates stay from the previous result", async () => {
    const issuances = seed("degraded.example")
    cs.set("degraded.example", { kind: "issuances", issuances })
    const r = await run(1000, Effect.gen(function*() {
      const ct = yield* CtAggregator
      const first = yield* ct.lookup("degraded.example")
      // After the TTL, crt.sh fails: Cert Spotter's fresh answer, crt.sh's certificate kept.
      crt.set("degraded.example", { kind: "status", status: 404 })
      yield* TestClock.adjust(Duration.seconds(1801))
      const second = yield* ct.lookup("degraded.example")
      yield* TestClock.adjust(Duration.millis(DEGRADED_TTL_MS - 1000))
      const third = yield* ct.lookup("degraded.example")
      yield* TestClock.adjust(Duration.seconds(2))
      const queriesBefore = crt.queries.get("degraded.example")
      const fourth = yield* ct.lookup("degraded.example")
      return { first, second, third, fourth, queriesBefore }
    }))
    expect(r.first.outcome).toBe("miss")
    expect(r.first.entries.length).toBe(2)
    expect(r.second.outcome).toBe("miss")
    expect(r.second.entries.map((e) => e.sources)).toEqual(r.first.entries.map((e) => e.sources))
    const crtsh = r.second.sources.find((s) => s.name === "crtsh")!
    expect(crtsh).toMatchObject({ status: "error", certificates: 1, fetched_at: r.first.fetchedAt })
    expect(r.second.limitations[0]).toBe(`crt.sh failed (${crtsh.detail}); its certificate is the one it listed at ${new Date(r.first.fetchedAt).toISOString()}`)
    expect(r.third.outcome).toBe("hit")
    expect(r.fourth.outcome).toBe("miss")
    expect(crt.queries.get("degraded.example")).toBe(r.queriesBefore! + 1)
  })
})
