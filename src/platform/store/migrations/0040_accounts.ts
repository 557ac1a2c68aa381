/**
 * Key and audit-token lifecycle (docs/cli.md, "Keys", "Audit tokens"): names, expiry,
 * revocation, last use, and one store-wide revision that every revocation, rotation and plan
 * change advances, so each instance drops its memoised key lookups within a second.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE api_keys ADD COLUMN name TEXT`
  yield* sql`ALTER TABLE api_keys ADD COLUMN expires_at BIGINT`
  yield* sql`ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT`
  yield* sql`ALTER TABLE audit_tokens ADD COLUMN expires_at BIGINT`
  yield* sql`ALTER TABLE audit_tokens ADD COLUMN revoked_at BIGINT`
  yield* sql`CREATE INDEX api_keys_org ON api_keys (org_id)`
  yield* sql`CREATE TABLE auth_revision (id INTEGER PRIMARY KEY, revision BIGINT NOT NULL)`
  yield* sql`INSERT INTO auth_revision (id, revision) VALUES (1, 0)`
})
