/**
 * The migrator's fast path, shared by both stores (./Sql.ts, ./postgres.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { migrations } from "./migrations"

/** The newest bundled migration's id: the number its name starts with (`0070_…` is 70). */
const NEWEST_MIGRATION = Math.max(...Object.keys(migrations).map((name) => Number(name.split("_")[0])))

/**
 * Runs `migrate` unless the store already records the newest bundled migration. Every start but
 * the first (and the first after an upgrade) then costs one read instead of the migrator's lock
 * and listing, ~9 ms of the binary's start (docs/operating.md, "The binary"). A new store (no
 * migrations table: the read fails) or one behind runs the migrator as before. The table is the
 * migrator's default, `effect_sql_migrations`.
 */
export const migrateUnlessCurrent = <E, R>(migrate: Effect.Effect<unknown, E, R>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: number | null }>`SELECT MAX(migration_id) AS id FROM effect_sql_migrations`.pipe(
      Effect.map((rows) => Number(rows[0]?.id) === NEWEST_MIGRATION),
      Effect.orElseSucceed(() => false),
      Effect.flatMap((current) => (current ? Effect.void : Effect.asVoid(migrate)))
    ))
