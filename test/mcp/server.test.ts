/**
 * McpServer with fake tools, for what a real target cannot produce: a tool that dies (-32603)
 * and proof that a batch runs its calls concurrently. And the RDAP bootstrap cache under
 * TestClock against a real loopback bootstrap server that fails first.
 */
import { describe, expect, test } from "bun:test"
import { Deferred, Effect, Layer, Logger, Option, Ref, Schema, TestClock, TestContext } from "effect"
import { AppConfig } from "../../src/platform/Config"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { McpServer } from "../../src/surfaces/mcp/McpServer"
import { Outbound } from "../../src/adapters/probe/Outbound"
import { BOOTSTRAP_RETRY_MS, Rdap } from "../../src/adapters/rdap/Rdap"
import { inputSchemaOf, type ToolDefinition } from "../../src/surfaces/mcp/tool"
import { Tools } from "../../src/surfaces/mcp/Tools"
import { HttpProbe } from "../../src/adapters/probe/HttpProbe"
import { invalidRequestFromParseError } from "../../src/kernel/decodeFailure"
import { ToolFailure } from "../../src/kernel/ToolFailure"

const runTest = <A, E>(self: Effect.Effect<A, E>) =>
  Effect.runPromise(self.pipe(Effect.provide(TestContext.TestContext), Effect.provide(Logger.remove(Logger.defaultLogger))))

const Args = Schema.Struct({ n: Schema.Number })
const tool = (name: string, run: (args: { n: number }) => Effect.Effect<{ text: string; report: unknown }, any>): ToolDefinition => ({
  name,
  title: name,
  description: `fake tool ${name}`,
  inputSchema: inputSchemaOf(Args),
  outputSchema: inputSchemaOf(Args),
  decode: (u) => Schema.decodeUnknown(Args, { onExcessProperty: "error" })(u).pipe(Effect.mapError((e) => ToolFailure.fromApiError(invalidRequestFromParseError(e)))),
  run: (args) => Effect.map(run(args as { n: number }), (r) => ({ structured: r.report, summary: r.text }))
})

const serverWith = (tools: ReadonlyArray<ToolDefinition>) =>
  McpServer.Live.pipe(Layer.provide(Layer.succeed(Tools, { list: tools, get: (n: string) => tools.find((t) => t.name === n) })))

const call = (id: number, name: string, n = 1) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: { n } } })

describe("McpServer", () => {
  test("a tool that dies is -32603 with its id; the rest of the batch is answered", async () => {
    const tools = [
      tool("boom", () => Effect.die(new Error("kaboom"))),
      tool("ok", ({ n }) => Effect.succeed({ text: `n=${n}`, report: { n } }))
    ]
    const answer = await runTest(Effect.flatMap(McpServer, (s) => s.handle(JSON.stringify([call(1, "boom"), call(2, "ok", 5)]))).pipe(Effect.provide(serverWith(tools))))
    expect(answer._tag).toBe("Json")
    const body = (answer as any).body as Array<any>
    const boom = body.find((r) => r.id === 1)
    expect(boom.error.code).toBe(-32603)
    expect(boom.error.message).not.toContain("kaboom")
    const ok = body.find((r) => r.id === 2)
    expect(ok.result.isError).toBe(false)
    // No version header: the JSON first, then the readable summary.
    expect(JSON.parse(ok.result.content[0].text)).toEqual({ n: 5 })
    expect(ok.result.content[1].text).toBe("n=5")
    expect(ok.result.structuredContent).toEqual({ n: 5 })
  })

  test("a batch runs its calls concurrently: ten calls each wait until all ten have started", async () => {
    const answer = await runTest(Effect.gen(function*() {
      const started = yield* Ref.make(0)
      const allStarted = yield* Deferred.make<void>()
      const tools = [tool("wait", ({ n }) =>
        Effect.gen(function*() {
          const count = yield* Ref.updateAndGet(started, (c) => c + 1)
          if (count === 10) yield* Deferred.succeed(allStarted, undefined)
          yield* Deferred.await(allStarted)
          return { text: `done ${n}`, report: { n } }
        }))]
      const server = yield* Effect.provide(McpServer, serverWith(tools))
      return yield* server.handle(JSON.stringify(Array.from({ length: 10 }, (_, i) => call(i, "wait", i))))
    }))
    const body = (answer as any).body as Array<any>
    expect(body).toHaveLength(10)
    expect(body.map((r) => r.id).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    for (const r of body) expect(r.result.content[1].text).toBe(`done ${r.id}`)
  })
})

describe("RDAP bootstrap cache", () => {
  test("bundled copy while the bootstrap URL fails, the live file once it answers after the retry delay", async () => {
    let up = false
    let hits = 0
    const server: ReturnType<typeof Bun.serve> = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req): Response => {
        const path = new URL(req.url).pathname
        if (path === "/dns.json") {
          hits++
          if (!up) return new Response("unavailable", { status: 503 })
          return Response.json({ services: [[["test"], [`http://127.0.0.1:${server.port}/rdap/`]]] })
        }
        if (path === "/rdap/domain/a.test") return Response.json({ objectClassName: "domain", ldhName: "a.test", status: ["active"] })
        return Response.json({ errorCode: 404 }, { status: 404 })
      }
    })
    try {
      const layer = Rdap.Live.pipe(
        Layer.provide(Outbound.Live),
        Layer.provide(HttpProbe.Live),
        Layer.provide(DnsResolver.Live),
        Layer.provideMerge(AppConfig.make({
          rdapBootstrapUrl: `http://127.0.0.1:${server.port}/dns.json`,
          allowPrivateTargets: true,
          dnsResolvers: [],
          extraCaCerts: Option.none()
        }))
      )
      const results = await runTest(Effect.gen(function*() {
        const rdap = yield* Rdap
        const first = yield* Effect.either(rdap.lookup("a.test"))
        const second = yield* Effect.either(rdap.lookup("a.test"))
        const hitsAfterTwo = hits
        up = true
        const third = yield* Effect.either(rdap.lookup("a.test"))
        yield* TestClock.adjust(BOOTSTRAP_RETRY_MS + 1)
        const fourth = yield* rdap.lookup("a.test")
        const fifth = yield* rdap.lookup("a.test")
        return { first, second, hitsAfterTwo, third, fourth, fifth }
      }).pipe(Effect.provide(layer)))
      // The bundled copy has no .test: the tool fails, naming the TLD.
      expect(results.first._tag).toBe("Left")
      expect((results.first as any).left.message).toContain(".test")
      expect(results.second._tag).toBe("Left")
      expect(results.hitsAfterTwo).toBe(1) // no refetch before the retry delay
      expect(results.third._tag).toBe("Left")
      expect(results.fourth.sources.bootstrap).toBe("fetched")
      expect(results.fourth.status).toEqual(["active"])
      expect(results.fifth.sources.bootstrap).toBe("cached")
      expect(hits).toBe(2)
    } finally {
      server.stop(true)
    }
  })
})

