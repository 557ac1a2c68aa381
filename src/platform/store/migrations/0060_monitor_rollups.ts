/**
 * Monitors at scale (issue 25):
 * - `monitors.claimed_for`: the due time a claim is for, set by the claiming UPDATE itself (the
 *   statement moves `next_run_at` on, so the old value is kept here to be returned);
 * - `monitor_rollups`: per monitor and UTC day, runs, ok runs and a duration sketch
 *   (src/product/metering/sketch.ts), so the uptime report over 30 days reads at most 31 rows while raw
 *   results are kept only MONITOR_RESULTS_RETENTION_DAYS;
 * - `monitor_incidents`: each stretch of failed runs (first failed run to the next ok run);
 * - `monitors.rollups_backfill_before`: results stored before this migration are not in the
 *   rollups yet; the monitor maintenance fiber adds them, a few monitors at a time, and clears it.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const blob = sql.onDialectOrElse({ pg: () => "BYTEA", orElse: () => "BLOB" })
  yield* sql`ALTER TABLE monitors ADD COLUMN claimed_for BIGINT`
  yield* sql`ALTER TABLE monitors ADD COLUMN rollups_backfill_before BIGINT`
  yield* sql.unsafe(`CREATE TABLE monitor_rollups (
    monitor_id TEXT NOT NULL,
    day BIGINT NOT NULL,
    runs BIGINT NOT NULL,
    ok_runs BIGINT NOT NULL,
    sketch ${blob} NOT NULL,
    PRIMARY KEY (monitor_id, day)
  )`)
  yield* sql`CREATE INDEX monitor_rollups_day ON monitor_rollups (day)`
  yield* sql`CREATE TABLE monitor_incidents (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    ended_at BIGINT
  )`
  yield* sql`CREATE INDEX monitor_incidents_monitor ON monitor_incidents (monitor_id, started_at)`
  // The results page (newest first by id) and the backfill read one monitor's results by id.
  yield* sql`CREATE INDEX monitor_results_monitor ON monitor_results (monitor_id, id)`
  const now = yield* Clock.currentTimeMillis
  yield* sql`UPDATE monitors SET rollups_backfill_before = ${now}
    WHERE id IN (SELECT DISTINCT monitor_id FROM monitor_results)`
})
