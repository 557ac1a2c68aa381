import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, TestClock, TestContext } from "effect"
import { Analytics } from "../../src/product/analytics/Analytics"
import { AppConfig, type AppConfigShape } from "../../src/platform/Config"
import { Quota } from "../../src/product/metering/Quota"
import { RequestLog, type RequestRecord } from "../../src/product/metering/RequestLog"
import { writeBatch } from "../../src/product/metering/writeBatch"
import { SqlLive } from "../../src/platform/store/Sql"

/**
 * The request log without its 200 ms flush schedule (records are written at once): under
 * TestClock, moving time by minutes would otherwise replay every tick of that schedule.
 */
const DirectRequestLog = Layer.effect(
  RequestLog,
  Effect.map(SqlClient.SqlClient, (sql) => {
    // Every record is a batch written: readers caching by the batch count see each one.
    let version = 0
    const write = (r: RequestRecord) => Effect.orDie(writeBatch(sql, [r])).pipe(Effect.tap(() => Effect.sync(() => { version++ })))
    return RequestLog.make({
      record: write,
      unsafeRecord: (r: RequestRecord) => Effect.runSync(write(r)),
      flush: Effect.void,
      unwrittenBuckets: () => ({ org: [], endpoint: [], version }),
      eachUnwrittenCount: () => version,
      version: () => version,
      stats: Effect.succeed({ buffered: 0, written: 0 })
    })
  })
)

/** The store (in-memory SQLite, migrated) with the request log, quota and analytics services. */
export const storeLayer = (overrides: Partial<AppConfigShape> = {}, opts: { directLog?: boolean } = {}) => {
  const config = AppConfig.make({ databaseUrl: "sqlite::memory:", ...overrides })
  const sql = SqlLive.pipe(Layer.provide(config))
  return Analytics.Default.pipe(
    Layer.provideMerge(Layer.mergeAll(opts.directLog ? DirectRequestLog : RequestLog.Default, Quota.Default)),
    Layer.provideMerge(sql),
    Layer.provideMerge(config)
  )
}

/**
 * Runs under TestContext with the clock set to `now` before the layer is built (setting it
 * afterwards would replay every 200 ms tick of the request log's flush schedule).
 */
export const runTest = <A, E>(self: Effect.Effect<A, E, any>, opts: { layer?: Layer.Layer<any, any, never>; now?: number } = {}) =>
  Effect.runPromise(
    TestClock.setTime(opts.now ?? 0).pipe(
      Effect.zipRight((self as Effect.Effect<A, E, never>).pipe(Effect.provide((opts.layer ?? storeLayer()) as Layer.Layer<never>))),
      Effect.scoped,
      Effect.provide(TestContext.TestContext),
      Effect.provide(Logger.remove(Logger.defaultLogger))
    ) as Effect.Effect<A, E, never>
  )

export const write = (records: ReadonlyArray<RequestRecord>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => writeBatch(sql, records))

export const rec = (p: Partial<RequestRecord> & { ts: number }): RequestRecord => ({
  orgId: "org_a",
  operation: "usageSummary",
  category: "analytics",
  method: "GET",
  path: "/v1/analytics/usage",
  status: 200,
  latencyMs: 10,
  cache: null,
  ...p
})

export const mulberry32 = (seed: number) => () => {
  seed |= 0
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
