/**
 * Analytics rollups and the alerting tables (the README (Account analytics and alerting)).
 * - rollup_{minute,hour}: per organization and time bucket, counters plus a latency sketch
 *   (src/analytics/sketch.ts, binary). Written in the same transaction as request_log.
 * - rollup_{minute,hour}_endpoint: the same counters per operation, without a sketch.
 * - alert_rules, alerts, alert_outbox (durable notification queue), leases (one evaluator per DB).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const grain of ["minute", "hour"]) {
    yield* sql.unsafe(`CREATE TABLE rollup_${grain} (
      org_id TEXT NOT NULL,
      ts INTEGER NOT NULL,
      requests INTEGER NOT NULL,
      errors INTEGER NOT NULL,
      latency_sum REAL NOT NULL,
      cache_hits INTEGER NOT NULL,
      cache_misses INTEGER NOT NULL,
      sketch BLOB NOT NULL,
      PRIMARY KEY (org_id, ts)
    ) WITHOUT ROWID`)
    yield* sql.unsafe(`CREATE TABLE rollup_${grain}_endpoint (
      org_id TEXT NOT NULL,
      ts INTEGER NOT NULL,
      operation TEXT NOT NULL,
      category TEXT NOT NULL,
      path TEXT NOT NULL,
      requests INTEGER NOT NULL,
      errors INTEGER NOT NULL,
      latency_sum REAL NOT NULL,
      cache_hits INTEGER NOT NULL,
      cache_misses INTEGER NOT NULL,
      hit_latency_sum REAL NOT NULL,
      miss_latency_sum REAL NOT NULL,
      PRIMARY KEY (org_id, ts, operation)
    ) WITHOUT ROWID`)
  }
  yield* sql`CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  )`
  yield* sql`CREATE TABLE alert_rules (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL,
    name TEXT NOT NULL,
    metric TEXT NOT NULL,
    operator TEXT NOT NULL,
    threshold_value REAL NOT NULL,
    window_minutes INTEGER NOT NULL,
    channels TEXT NOT NULL,
    cooldown_minutes INTEGER NOT NULL,
    enabled INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    last_triggered_at INTEGER
  )`
  yield* sql`CREATE INDEX alert_rules_org ON alert_rules (org_id, created_at)`
  yield* sql`CREATE TABLE alerts (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL,
    rule_id TEXT NOT NULL,
    status TEXT NOT NULL,
    metric TEXT NOT NULL,
    observed_value REAL NOT NULL,
    threshold_value REAL NOT NULL,
    triggered_at INTEGER NOT NULL,
    acknowledged_at INTEGER,
    resolved_at INTEGER,
    resolution_notes TEXT
  )`
  yield* sql`CREATE INDEX alerts_org ON alerts (org_id, triggered_at)`
  yield* sql`CREATE INDEX alerts_rule ON alerts (rule_id, status)`
  yield* sql`CREATE TABLE alert_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    alert_id TEXT NOT NULL,
    org_id TEXT NOT NULL,
    event TEXT NOT NULL,
    channel_type TEXT NOT NULL,
    destination TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    delivered_at INTEGER
  )`
  yield* sql`CREATE INDEX alert_outbox_due ON alert_outbox (status, next_attempt_at)`
})
