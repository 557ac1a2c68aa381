/**
 * Keeping monitor storage bounded without stalling the scheduler: raw results older than
 * MONITOR_RESULTS_RETENTION_DAYS, rollups and ended incidents older than ROLLUP_RETENTION_DAYS
 * (enough for the longest uptime period, a 31-day month) are deleted in small batches with a
 * pause between them, so the writer and the claims get the store between batches. Results
 * stored before the rollups existed are added to them here, a few monitors per pass.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect } from "effect"
import { AppConfig } from "../../platform/Config"
import { recordRollupsOf } from "./backfill"

export const ROLLUP_RETENTION_DAYS = 40
export const PRUNE_BATCH = 2_000
const PAUSE = Duration.millis(50)
const DAY = 86_400_000

/** Deletes batch after batch of `select`ed ids until a batch comes back short; the rows deleted. */
const inBatches = (remove: Effect.Effect<number, unknown, SqlClient.SqlClient>) =>
  Effect.gen(function*() {
    let total = 0
    for (;;) {
      const n = yield* remove
      total += n
      if (n < PRUNE_BATCH) return total
      yield* Effect.sleep(PAUSE)
    }
  })

export const pruneMonitorData = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const now = yield* Clock.currentTimeMillis
  const resultsBefore = now - config.monitorResultsRetentionDays * DAY
  const rollupsBefore = now - ROLLUP_RETENTION_DAYS * DAY
  const results = yield* inBatches(Effect.map(
    sql`DELETE FROM monitor_results WHERE id IN (
      SELECT id FROM monitor_results WHERE started_at < ${resultsBefore} ORDER BY started_at LIMIT ${PRUNE_BATCH}) RETURNING id`,
    (rows) => rows.length
  ))
  const rollups = yield* inBatches(Effect.map(
    sql`DELETE FROM monitor_rollups WHERE (monitor_id, day, location) IN (
      SELECT monitor_id, day, location FROM monitor_rollups WHERE day < ${rollupsBefore} LIMIT ${PRUNE_BATCH}) RETURNING day`,
    (rows) => rows.length
  ))
  const incidents = yield* inBatches(Effect.map(
    sql`DELETE FROM monitor_incidents WHERE id IN (
      SELECT id FROM monitor_incidents WHERE ended_at IS NOT NULL AND ended_at < ${rollupsBefore} LIMIT ${PRUNE_BATCH}) RETURNING id`,
    (rows) => rows.length
  ))
  return { results, rollups, incidents }
})

/** Adds pre-rollup results of up to `n` monitors to the rollups; how many were done. */
export const backfillRollups = (n = 20) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const pending = yield* sql<{ id: string; rollups_backfill_before: number }>`SELECT id, rollups_backfill_before
      FROM monitors WHERE rollups_backfill_before IS NOT NULL LIMIT ${n}`
    for (const p of pending) yield* recordRollupsOf(p.id, Number(p.rollups_backfill_before))
    return pending.length
  })
