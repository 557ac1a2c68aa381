/**
 * Retention: raw request_log rows older than REQUEST_LOG_RETENTION_DAYS, minute rollups older
 * than MINUTE_ROLLUP_RETENTION (enough for the 30-day window's edge minutes and alert windows),
 * hour rollups older than HOUR_ROLLUP_RETENTION. Deletes in small chunks so no write waits long.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import { AppConfig } from "../../platform/Config"
import { DAY } from "../metering/rollup"

export const MINUTE_ROLLUP_RETENTION_DAYS = 32
export const HOUR_ROLLUP_RETENTION_DAYS = 400
const CHUNK = 5_000

export const pruneOnce = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const now = yield* Clock.currentTimeMillis
  const rawCutoff = now - config.requestLogRetentionDays * DAY
  let raw = 0
  // Rows are appended in time order, so the oldest ids hold the oldest timestamps: look at the
  // oldest row only (no scan), delete a chunk from the front, repeat.
  while (true) {
    const oldest = yield* sql<{ id: number; ts: number }>`SELECT id, ts FROM request_log ORDER BY id LIMIT 1`
    if (oldest.length === 0 || oldest[0].ts >= rawCutoff) break
    const deleted = (yield* sql`DELETE FROM request_log WHERE id IN (
      SELECT id FROM request_log ORDER BY id LIMIT ${CHUNK}) AND ts < ${rawCutoff} RETURNING id`).length
    raw += deleted
    if (deleted === 0) break
  }
  const minuteCutoff = now - MINUTE_ROLLUP_RETENTION_DAYS * DAY
  const hourCutoff = now - HOUR_ROLLUP_RETENTION_DAYS * DAY
  yield* sql`DELETE FROM rollup_minute WHERE ts < ${minuteCutoff}`
  yield* sql`DELETE FROM rollup_minute_endpoint WHERE ts < ${minuteCutoff}`
  yield* sql`DELETE FROM rollup_hour WHERE ts < ${hourCutoff}`
  yield* sql`DELETE FROM rollup_hour_endpoint WHERE ts < ${hourCutoff}`
  return { raw }
}).pipe(Effect.withSpan("Analytics.prune"))

/** Background pruning, once at start and hourly. Wired in src/surfaces/server/Http.ts. */
export const AnalyticsWorkers = Layer.scopedDiscard(
  pruneOnce.pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("request log pruning failed", cause)),
    Effect.repeat(Schedule.spaced(Duration.hours(1))),
    Effect.forkScoped
  )
)
