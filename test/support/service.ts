/**
 * Runs the real service in-process: the same layers `serve` uses, on a random loopback port,
 * with an in-memory SQLite store unless the test names a file.
 */
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { Keys } from "../../src/product/accounts/Keys"
import { AppConfig, type AppConfigShape } from "../../src/platform/Config"
import type { Plan } from "../../src/kernel/plans"
import { AppLive, serverLayer, ServicesLive } from "../../src/surfaces/server/Http"
import { RequestLog } from "../../src/product/metering/RequestLog"

export interface TestService {
  readonly baseUrl: string
  readonly port: number
  /** An API key of a fresh organization on `plan` (default enterprise). */
  readonly newKey: (plan?: Plan, orgName?: string) => Promise<{ key: string; orgId: string; orgName: string }>
  readonly auditToken: (orgName: string, domain: string) => Promise<string>
  /** GET/POST helper: path relative to baseUrl, Bearer key when given. */
  readonly call: (path: string, init?: RequestInit & { key?: string }) => Promise<Response>
  readonly flushLog: () => Promise<void>
  readonly sql: <A = any>(query: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<A>>
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  readonly stop: () => Promise<void>
}

let counter = 0

export const startService = async (overrides: Partial<AppConfigShape> = {}): Promise<TestService> => {
  const config = AppConfig.make({
    databaseUrl: "sqlite::memory:",
    allowPrivateTargets: true,
    dnsResolvers: [],
    // Upstreams default to a closed loopback port: no test may reach past loopback by accident.
    // CT asks crt.sh alone unless a test names its sources (test/ct covers two).
    ctAggregatorUrl: "http://127.0.0.1:9",
    ctSources: ["crtsh"],
    ctCertspotterUrl: "http://127.0.0.1:9",
    rdapBootstrapUrl: "http://127.0.0.1:9/rdap/dns.json",
    ...overrides
  })
  const logging = process.env.TEST_LOGS ? Layer.empty : Logger.minimumLogLevel(LogLevel.None)
  const layer = AppLive.pipe(
    Layer.provideMerge(serverLayer({ port: 0, hostname: "127.0.0.1" })),
    Layer.provideMerge(ServicesLive),
    Layer.provideMerge(config),
    Layer.provide(logging)
  )
  const runtime = ManagedRuntime.make(layer)
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const baseUrl = `http://127.0.0.1:${address.port}`
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect as Effect.Effect<A, E, never>)
  return {
    baseUrl,
    port: address.port,
    run,
    newKey: async (plan = "enterprise", orgName) => {
      const name = orgName ?? `org-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`
      const issued = await run(Effect.flatMap(Keys, (k) => k.issueKey(name, plan)))
      return { key: issued.key, orgId: issued.org.id, orgName: name }
    },
    auditToken: async (orgName, domain) =>
      (await run(Effect.flatMap(Keys, (k) => k.issueAuditToken(orgName, domain)))).token,
    call: (path, init = {}) => {
      const { key, ...rest } = init
      const headers = new Headers(rest.headers)
      if (key !== undefined) headers.set("authorization", `Bearer ${key}`)
      return fetch(baseUrl + path, { ...rest, headers })
    },
    flushLog: () => run(Effect.flatMap(RequestLog, (l) => l.flush)),
    sql: (query, params = []) =>
      run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(query, params as Array<any>))) as Promise<any>,
    stop: () => runtime.dispose()
  }
}
