/**
 * Outbound waits are Effect timeouts, so TestClock drives them: against a real loopback server
 * that accepts and never answers, a 10-minute deadline passes without any real waiting.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Clock, Duration, Effect, Either, Fiber, Layer, Logger, TestClock, TestContext } from "effect"
import * as net from "node:net"
import { AppConfig } from "../../src/platform/Config"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { CertInspector } from "../../src/adapters/x509/CertInspector"
import { CtHistory } from "../../src/adapters/ct/CtHistory"
import { Outbound } from "../../src/adapters/probe/Outbound"
import { HttpProbe } from "../../src/adapters/probe/HttpProbe"

let silent: net.Server
let port: number
const sockets: Array<net.Socket> = []

beforeAll(async () => {
  silent = net.createServer((s) => { sockets.push(s) })
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()))
  port = (silent.address() as net.AddressInfo).port
})
afterAll(() => {
  for (const s of sockets) s.destroy()
  silent?.close()
})

const base = Layer.mergeAll(DnsResolver.Live).pipe(Layer.provideMerge(AppConfig.make({ allowPrivateTargets: true, dnsResolvers: [] })))

/** Forks `eff`, lets the real connection happen, then moves the test clock past the deadline. */
const pastDeadline = <A, E, R>(eff: Effect.Effect<A, E, R>, layer: Layer.Layer<R>) =>
  Effect.runPromise(Effect.gen(function*() {
    const fiber = yield* Effect.fork(Effect.either(eff))
    yield* Effect.promise(() => new Promise((r) => setTimeout(r, 100)))
    yield* TestClock.adjust(Duration.minutes(11))
    return yield* Fiber.join(fiber)
  }).pipe(Effect.provide(layer), Effect.provide(TestContext.TestContext), Effect.provide(Logger.remove(Logger.defaultLogger))))

describe("TestClock drives outbound deadlines", () => {
  test("http probe: a silent server is a timeout at the TestClock deadline", async () => {
    const r = await pastDeadline(
      Effect.flatMap(HttpProbe, (p) => p.fetch({ url: `http://127.0.0.1:${port}/`, timeoutMs: 600_000 })),
      HttpProbe.Live.pipe(Layer.provideMerge(base))
    )
    expect(Either.isRight(r) && r.right.error?.kind).toBe("timeout")
    // total_ms is read from the clock that enforced the deadline: never less than the limit.
    expect(Either.isRight(r) && r.right.totalMs).toBeGreaterThanOrEqual(600_000)
  }, 5000)

  test("http probe: a timer that fires early does not make the report say less than the limit", async () => {
    // Real timers may fire a fraction of a millisecond early (seen as total_ms 999.84 for a
    // 1000 ms limit); this clock's sleeps end 20 ms early to make that fault certain.
    const real = Clock.make()
    const early: Clock.Clock = Object.assign(Object.create(real), {
      sleep: (d: Duration.Duration) => real.sleep(Duration.millis(Math.max(0, Duration.toMillis(d) - 20)))
    })
    const r = await Effect.runPromise(
      Effect.flatMap(HttpProbe, (p) => p.fetch({ url: `http://127.0.0.1:${port}/`, timeoutMs: 300 })).pipe(
        Effect.withClock(early),
        Effect.provide(HttpProbe.Live.pipe(Layer.provideMerge(base))),
        Effect.provide(Logger.remove(Logger.defaultLogger))
      )
    )
    expect(r.error?.kind).toBe("timeout")
    expect(r.totalMs).toBeGreaterThanOrEqual(300)
  }, 5000)

  test("certificate inspection: a silent TLS handshake times out at the TestClock deadline", async () => {
    const fakes = Layer.mergeAll(
      Layer.succeed(Outbound, { extraCas: [] } as any),
      Layer.succeed(CtHistory, { search: () => Effect.succeed([]) } as any)
    )
    const r = await pastDeadline(
      Effect.flatMap(CertInspector, (c) => c.inspect("127.0.0.1", port)),
      CertInspector.Live.pipe(Layer.provideMerge(Layer.mergeAll(base, fakes)))
    )
    expect(Either.isLeft(r) && r.left.message).toContain("timed out")
  }, 5000)
})
