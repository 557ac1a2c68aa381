/**
 * The CT aggregator's result cache, shared by every instance on the same database (issue 14):
 * one deduplicated result per domain, its JSON and when the aggregator answered (epoch ms).
 * Portable SQL (SQLite and PostgreSQL).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE ct_cache (
    cache_key TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    fetched_at BIGINT NOT NULL
  )`
  yield* sql`CREATE INDEX ct_cache_fetched_at ON ct_cache (fetched_at)`
})
