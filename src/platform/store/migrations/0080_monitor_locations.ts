/**
 * Monitoring from several locations (docs/monitors.md, "Several locations"):
 * - `locations` and `instances`: every instance's heartbeat (its id, its INSTANCE_LOCATION, when
 *   last seen); a location's row stays after its instances are gone, so "never seen" is exact;
 * - `monitors.locations` (JSON array, '[]': any one location, as before) and `quorum` (null: a
 *   majority of the locations); `state` and `decided_for`: the combined state of the last decided
 *   run and its due time; `last_location`: where a monitor's last run was made;
 * - `monitor_shares`: one row per monitor and listed location, claimed by that location's
 *   instances as `monitors` rows are by any instance (its own due time, lease and last run);
 * - results, rollups and alerts: `monitor_results.location` (every result before this ran in the
 *   one location there was, `default`) and the unique run key with it; `monitor_rollups` keyed by
 *   location too (a rebuild: SQLite cannot change a primary key in place); `alerts.locations_failing`.
 * The claim of any-location monitors reads a partial index of exactly those rows, so located
 * monitors never lengthen its scan.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const blob = sql.onDialectOrElse({ pg: () => "BYTEA", orElse: () => "BLOB" })
  yield* sql`CREATE TABLE locations (
    name TEXT PRIMARY KEY,
    first_seen_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
  )`
  yield* sql`CREATE TABLE instances (
    id TEXT PRIMARY KEY,
    location TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
  )`
  yield* sql`CREATE INDEX instances_location ON instances (location, last_seen_at)`

  yield* sql`ALTER TABLE monitors ADD COLUMN locations TEXT NOT NULL DEFAULT '[]'`
  yield* sql`ALTER TABLE monitors ADD COLUMN quorum INTEGER`
  yield* sql`ALTER TABLE monitors ADD COLUMN state TEXT`
  yield* sql`ALTER TABLE monitors ADD COLUMN decided_for BIGINT`
  yield* sql`ALTER TABLE monitors ADD COLUMN last_location TEXT`
  yield* sql`DROP INDEX monitors_due`
  yield* sql`CREATE INDEX monitors_due ON monitors (next_run_at) WHERE enabled = 1 AND locations = '[]'`
  // The located monitors alone, for the pass that decides due runs whose interval has passed.
  yield* sql`CREATE INDEX monitors_located ON monitors (id) WHERE enabled = 1 AND locations <> '[]'`
  yield* sql`CREATE TABLE monitor_shares (
    monitor_id TEXT NOT NULL,
    location TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    interval_seconds BIGINT NOT NULL,
    next_run_at BIGINT NOT NULL,
    claimed_for BIGINT,
    claimed_until BIGINT,
    last_for BIGINT,
    last_run_at BIGINT,
    last_ok INTEGER,
    last_summary TEXT,
    baseline TEXT,
    PRIMARY KEY (monitor_id, location)
  )`
  yield* sql`CREATE INDEX monitor_shares_due ON monitor_shares (location, next_run_at) WHERE enabled = 1`

  yield* sql`ALTER TABLE monitor_results ADD COLUMN location TEXT NOT NULL DEFAULT 'default'`
  yield* sql`DROP INDEX monitor_results_run`
  yield* sql`CREATE UNIQUE INDEX monitor_results_run ON monitor_results (monitor_id, scheduled_for, location)`

  yield* sql.unsafe(`CREATE TABLE monitor_rollups_v2 (
    monitor_id TEXT NOT NULL,
    day BIGINT NOT NULL,
    location TEXT NOT NULL,
    runs BIGINT NOT NULL,
    ok_runs BIGINT NOT NULL,
    sketch ${blob} NOT NULL,
    PRIMARY KEY (monitor_id, day, location)
  )`)
  yield* sql`INSERT INTO monitor_rollups_v2 (monitor_id, day, location, runs, ok_runs, sketch)
    SELECT monitor_id, day, 'default', runs, ok_runs, sketch FROM monitor_rollups`
  yield* sql`DROP TABLE monitor_rollups`
  yield* sql`ALTER TABLE monitor_rollups_v2 RENAME TO monitor_rollups`
  yield* sql`CREATE INDEX monitor_rollups_day ON monitor_rollups (day)`

  yield* sql`ALTER TABLE alerts ADD COLUMN locations_failing TEXT`
})
