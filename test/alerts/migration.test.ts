/**
 * Migration 0020: a store holding rules and queued notifications from before per-rule secrets
 * gets a fresh `whsec_` secret for every rule, and its queued rows a signer and a webhook id.
 */
import { expect, test } from "bun:test"
import { BunContext } from "@effect/platform-bun"
import { Migrator, SqlClient } from "@effect/sql"
import { SqliteClient, SqliteMigrator } from "@effect/sql-sqlite-bun"
import { Effect } from "effect"
import { migrations } from "../../src/platform/store/migrations"

const migrate = (record: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>) =>
  SqliteMigrator.run({ loader: Migrator.fromRecord(record) }).pipe(Effect.provide(BunContext.layer))

test("existing rules get fresh secrets; queued rows get their signer and a stable webhook id", async () => {
  const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => Number(name.slice(0, 4)) < 20))
  const program = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* migrate(before as any)
    expect(yield* sql`SELECT name FROM sqlite_master WHERE name = 'webhook_secrets'`).toEqual([])
    for (const id of ["rule_a", "rule_b"]) {
      yield* sql`INSERT INTO alert_rules (id, org_id, name, metric, operator, threshold_value, window_minutes, channels,
        cooldown_minutes, enabled, created_at, updated_at) VALUES (${id}, 'org', 'n', 'request_count', 'gt', 1, 5, '[]', 0, 1, 0, 0)`
    }
    yield* sql`INSERT INTO alerts (id, org_id, rule_id, status, metric, observed_value, threshold_value, triggered_at)
      VALUES ('alert_1', 'org', 'rule_b', 'pending', 'request_count', 2, 1, 0)`
    yield* sql`INSERT INTO alert_outbox (alert_id, org_id, event, channel_type, destination, payload, status, next_attempt_at, created_at)
      VALUES ('alert_1', 'org', 'alert.triggered', 'webhook', 'https://hooks.example.com/', '{}', 'pending', 0, 0)`
    yield* migrate(migrations as any)
    const secrets = yield* sql<{ owner_id: string; secret: string }>`SELECT owner_id, secret FROM webhook_secrets ORDER BY owner_id`
    expect(secrets.map((s) => s.owner_id)).toEqual(["rule_a", "rule_b"])
    for (const s of secrets) expect(Buffer.from(s.secret.replace(/^whsec_/, ""), "base64").length).toBe(32)
    expect(secrets[0].secret).not.toBe(secrets[1].secret)
    const rows = yield* sql<{ owner_id: string; webhook_id: string; claimed_until: number | null }>`
      SELECT owner_id, webhook_id, claimed_until FROM alert_outbox`
    expect(rows).toEqual([{ owner_id: "rule_b", webhook_id: expect.stringMatching(/^msg_\d+$/), claimed_until: null }])
    // 0050 kept the alert, now a rule's
    expect(yield* sql`SELECT id, source, rule_id, monitor_id FROM alerts`).toEqual([
      { id: "alert_1", source: "rule", rule_id: "rule_b", monitor_id: null }
    ])
  })
  await Effect.runPromise(program.pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" })), Effect.scoped))
})
