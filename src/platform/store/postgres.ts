/**
 * The PostgreSQL store (docs/postgres.md): a pool over `@effect/sql-pg`, migrated on start.
 * Loaded by ./Sql.ts only when `DATABASE_URL` names PostgreSQL, so a SQLite deployment never
 * evaluates the driver.
 */
import * as BunContext from "@effect/platform-bun/BunContext"
import { Migrator } from "@effect/sql"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { Duration, Effect, Layer, Redacted, Schedule } from "effect"
import { migrations } from "./migrations"
import { migrateUnlessCurrent } from "./migrateUnlessCurrent"

// int8 (COUNT, BIGINT columns: epoch milliseconds, counters) and numeric (SUM over BIGINT)
// arrive as text from the driver; every such value here is far below 2^53, so numbers they are.
const INT8 = 20
const NUMERIC = 1700
type TypeParser = (oid: number, format?: "text" | "binary") => (value: string) => unknown
// The driver ships no type declarations; only its default parser table is needed.
const driverTypes = (require("pg") as { types: { getTypeParser: TypeParser } }).types
const pgTypes = {
  getTypeParser: ((oid, format) =>
    oid === INT8 || oid === NUMERIC ? (value: string) => Number(value) : driverTypes.getTypeParser(oid, format)) as TypeParser
}

export const postgresLayer = (url: string, poolMax: number) => {
  const client = PgClient.layer({
    url: Redacted.make(url),
    maxConnections: poolMax,
    // A database that does not answer fails a statement (and /readyz) instead of hanging it.
    connectTimeout: Duration.seconds(3),
    idleTimeout: Duration.seconds(30),
    applicationName: "domain-intel",
    types: pgTypes as NonNullable<Parameters<typeof PgClient.layer>[0]["types"]>
  })
  // Instances starting together race to create the migrations table; the loser retries (the
  // migrator itself runs under `LOCK TABLE`, so migrations apply once).
  // The platform services the migrator needs are built only when it runs (./migrateUnlessCurrent.ts).
  const migrator = Layer.effectDiscard(
    migrateUnlessCurrent(PgMigrator.run({ loader: Migrator.fromRecord(migrations) }).pipe(Effect.provide(BunContext.layer))).pipe(
      Effect.retry({ times: 5, schedule: Schedule.spaced(Duration.millis(200)) })
    )
  )
  return migrator.pipe(Layer.provideMerge(client))
}
