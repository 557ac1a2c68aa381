/**
 * Standard Webhooks (issue 11, item 6): one signing secret per rule (later per monitor) in
 * `webhook_secrets`, stored as issued (`whsec_<base64>`) because the service must sign with it;
 * every existing rule gets a fresh one. Outbox rows gain the signer (`owner_id`), a
 * `webhook_id` stable across retries, and `claimed_until` (a row is delivered by one sender at a time).
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { randomBytes } from "node:crypto"

/** Frozen here: a migration must keep doing what it did when it first ran, whatever the app does later. */
const newSigningSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const now = yield* Clock.currentTimeMillis
  yield* sql`CREATE TABLE webhook_secrets (
    owner_id TEXT PRIMARY KEY,
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL
  )`
  const rules = yield* sql<{ id: string }>`SELECT id FROM alert_rules`
  for (const r of rules) {
    yield* sql`INSERT INTO webhook_secrets (owner_id, secret, created_at) VALUES (${r.id}, ${newSigningSecret()}, ${now})`
  }
  yield* sql`ALTER TABLE alert_outbox ADD COLUMN owner_id TEXT`
  yield* sql`ALTER TABLE alert_outbox ADD COLUMN webhook_id TEXT`
  yield* sql`ALTER TABLE alert_outbox ADD COLUMN claimed_until BIGINT`
  yield* sql`UPDATE alert_outbox SET owner_id = (SELECT a.rule_id FROM alerts a WHERE a.id = alert_outbox.alert_id),
    webhook_id = 'msg_' || CAST(id AS TEXT)`
})
