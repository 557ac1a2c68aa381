/**
 * Monitors (issue 17): the monitor definitions with their schedule and run state, their results,
 * and alert records that a monitor (not only a rule) can own: `alerts` is rebuilt with
 * `rule_id` nullable, `source` ('rule' | 'monitor') and `monitor_id` (a table rebuild, because
 * SQLite cannot drop a NOT NULL constraint in place).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE monitors (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    interval_seconds BIGINT NOT NULL,
    conditions TEXT NOT NULL,
    channels TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    failures_before_alert INTEGER NOT NULL,
    cooldown_minutes INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    next_run_at BIGINT NOT NULL,
    claimed_until BIGINT,
    last_run_at BIGINT,
    last_ok INTEGER,
    last_summary TEXT,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    baseline TEXT,
    open_alert_id TEXT,
    last_alert_at BIGINT
  )`
  yield* sql`CREATE INDEX monitors_org ON monitors (org_id, created_at)`
  yield* sql`CREATE INDEX monitors_due ON monitors (enabled, next_run_at)`
  yield* sql`CREATE TABLE monitor_results (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL,
    org_id TEXT NOT NULL,
    scheduled_for BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    duration_ms DOUBLE PRECISION NOT NULL,
    ok INTEGER NOT NULL,
    summary TEXT NOT NULL,
    report TEXT NOT NULL,
    runner TEXT NOT NULL
  )`
  // One result per scheduled run: a second runner of the same due run could not even store it.
  yield* sql`CREATE UNIQUE INDEX monitor_results_run ON monitor_results (monitor_id, scheduled_for)`
  yield* sql`CREATE INDEX monitor_results_time ON monitor_results (started_at)`

  yield* sql`CREATE TABLE alerts_v2 (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL,
    source TEXT NOT NULL,
    rule_id TEXT,
    monitor_id TEXT,
    status TEXT NOT NULL,
    metric TEXT NOT NULL,
    observed_value DOUBLE PRECISION NOT NULL,
    threshold_value DOUBLE PRECISION NOT NULL,
    triggered_at BIGINT NOT NULL,
    acknowledged_at BIGINT,
    resolved_at BIGINT,
    resolution_notes TEXT
  )`
  yield* sql`INSERT INTO alerts_v2 (id, org_id, source, rule_id, monitor_id, status, metric, observed_value,
      threshold_value, triggered_at, acknowledged_at, resolved_at, resolution_notes)
    SELECT id, org_id, 'rule', rule_id, NULL, status, metric, observed_value, threshold_value, triggered_at,
      acknowledged_at, resolved_at, resolution_notes FROM alerts`
  yield* sql`DROP TABLE alerts`
  yield* sql`ALTER TABLE alerts_v2 RENAME TO alerts`
  yield* sql`CREATE INDEX alerts_org ON alerts (org_id, triggered_at)`
  yield* sql`CREATE INDEX alerts_rule ON alerts (rule_id, status)`
  yield* sql`CREATE INDEX alerts_monitor ON alerts (monitor_id, status)`
})
