/**
 * Entry of bench/binary/steps.ts (built with `bun build --compile`): what each start-up step of
 * `domain-intel serve` costs in the binary. Modules are imported one after another with dynamic
 * `import()`, so each line is what that module adds on top of the ones above it; then the
 * layers are built as `serve` builds them. One JSON line per step on stdout: name, ms since the
 * process started, RSS in MB.
 */
import { readFileSync } from "node:fs"

const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? NaN) / 1024
const mark = (step: string) => console.log(JSON.stringify({ step, ms: performance.now(), rss: rss() }))

// No top-level await: `--bytecode` builds compile the bundle as CommonJS.
const main = async () => {
mark("runtime + bundle loaded")
await import("effect")
mark("effect")
await import("@effect/platform")
await import("@effect/platform-bun/BunContext")
await import("@effect/platform-bun/BunRuntime")
await import("@effect/platform-bun/BunHttpServer")
mark("@effect/platform, platform-bun")
await import("@effect/cli")
mark("@effect/cli")
await import("@effect/sql-sqlite-bun")
mark("@effect/sql-sqlite-bun")
await import("@effect/sql-pg")
mark("@effect/sql-pg")
await import("reflect-metadata")
await import("@peculiar/x509")
await import("@peculiar/asn1-schema")
mark("x509 stack (reflect-metadata, @peculiar/x509, asn1)")
await import("parse5")
mark("parse5")
await import("prom-client")
mark("prom-client")
await import("tldts")
mark("tldts")
await import("dns-packet")
await import("ipaddr.js")
mark("dns-packet, ipaddr.js")
await import("../../src/surfaces/console/generated/assets")
mark("console assets")
await import("../../src/adapters/rdap/rdapData")
await import("../../src/adapters/rdap/Rdap")
mark("RDAP (bootstrap JSON)")
await import("../../src/surfaces/mcp/http")
mark("MCP server modules")
const Http = await import("../../src/surfaces/server/Http")
mark("rest of serve's modules")
const { AppConfig } = await import("../../src/platform/Config")
const { SqlLive } = await import("../../src/platform/store/Sql")
const { Keys } = await import("../../src/product/accounts/Keys")
const { Context, Effect, Layer } = await import("effect")
await Effect.runPromise(
  Effect.scoped(Effect.gen(function*() {
    const config = yield* Layer.build(AppConfig.Live)
    mark("layers: AppConfig (environment)")
    yield* Effect.scoped(Layer.build(SqlLive)).pipe(Effect.provide(config))
    mark("layers: SQLite store + migrator (built alone)")
    const services = yield* Layer.build(Http.ServicesLive).pipe(Effect.provide(config))
    mark("layers: ServicesLive (store again, auth, resolvers, DNSSEC, CT, …)")
    yield* Layer.build(Http.ServerLive).pipe(Effect.provide(Context.merge(config, services)))
    mark("layers: ServerLive (routers, API, workers, listener)")
    yield* Effect.flatMap(Keys, (keys) => keys.bootstrap()).pipe(Effect.provide(services))
    mark("bootstrap key check")
    Bun.gc(true)
    mark("full GC")
    yield* Effect.sleep("3 seconds")
    mark("after 3 s idle")
  }))
)
process.exit(0)
}
void main()
