/**
 * The store tests run every case on both databases: a SQLite file in a temp directory and a
 * fresh database on a throwaway PostgreSQL cluster (test/support/postgres.ts, one per file).
 * `instance(url)` builds what one service instance holds (its own connection(s), quota, keys,
 * request log, analytics) so a test can put two on one database.
 */
import { afterAll, beforeAll } from "bun:test"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Alerts } from "../../src/product/alerts/Alerts"
import { Analytics } from "../../src/product/analytics/Analytics"
import { Keys } from "../../src/product/accounts/Keys"
import { AppConfig, type AppConfigShape } from "../../src/platform/Config"
import { Quota } from "../../src/product/metering/Quota"
import { RequestLog } from "../../src/product/metering/RequestLog"
import { SqlLive } from "../../src/platform/store/Sql"
import { type PostgresCluster, startPostgres } from "../support/postgres"

export interface StoreKind {
  readonly name: "sqlite" | "postgres"
  /** A fresh, empty database. */
  readonly newDatabase: () => Promise<string>
}

/** Registers the per-file set-up; call at the top of a test file. */
export const storeKinds = (): ReadonlyArray<StoreKind> => {
  let pg: PostgresCluster | undefined
  let dir: string | undefined
  let n = 0
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "di-store-"))
    pg = await startPostgres()
  }, 60_000)
  afterAll(async () => {
    await pg?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })
  return [
    { name: "sqlite", newDatabase: async () => `sqlite:${join(dir!, `db-${++n}.sqlite`)}` },
    { name: "postgres", newDatabase: () => pg!.createDatabase() }
  ]
}

export const instanceLayer = (url: string, overrides: Partial<AppConfigShape> = {}) => {
  const config = AppConfig.make({ databaseUrl: url, databasePoolMax: 8, dnsResolvers: [], ...overrides })
  return Layer.mergeAll(Analytics.Default, Alerts.Default).pipe(
    Layer.provideMerge(Layer.mergeAll(Keys.Default, Quota.Default, RequestLog.Default)),
    Layer.provideMerge(SqlLive),
    Layer.provideMerge(config),
    Layer.provide(process.env.TEST_LOGS ? Layer.empty : Logger.minimumLogLevel(LogLevel.None))
  )
}

export type Instance = ReturnType<typeof instance>

/** One "service instance" on `url`: run effects against it, then `stop` it. */
export const instance = (url: string, overrides: Partial<AppConfigShape> = {}) => {
  const runtime = ManagedRuntime.make(instanceLayer(url, overrides))
  const run = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> =>
    runtime.runPromise(effect as Effect.Effect<A, E, never>)
  return {
    run,
    /** Runs a statement written with the `sql` tag. */
    sql: <A = any>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, any>) =>
      run(Effect.flatMap(SqlClient.SqlClient, f)),
    stop: () => runtime.dispose()
  }
}
