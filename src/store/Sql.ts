/**
 * The embedded store: SQLite through `@effect/sql-sqlite-bun`, chosen by `DATABASE_URL`,
 * migrated on start.
 */
import { BunContext } from "@effect/platform-bun"
import { SqlClient } from "@effect/sql"
import { Migrator } from "@effect/sql"
import { SqliteClient, SqliteMigrator } from "@effect/sql-sqlite-bun"
import { Effect, Layer } from "effect"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { AppConfig } from "../Config"
import { migrations } from "./migrations"

export class UnsupportedDatabase extends Error {
  readonly _tag = "UnsupportedDatabase"
}

/** `sqlite:PATH` or `sqlite::memory:` → the SQLite filename. */
export const sqliteFilename = (url: string): string => {
  if (url === "sqlite::memory:" || url === ":memory:") return ":memory:"
  if (url.startsWith("sqlite:")) return url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "")
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    throw new UnsupportedDatabase("DATABASE_URL: postgres is not supported yet; use sqlite:PATH or sqlite::memory:")
  }
  throw new UnsupportedDatabase(`DATABASE_URL: unrecognised scheme in ${JSON.stringify(url)}`)
}

const clientLayer = Layer.unwrapEffect(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const filename = yield* Effect.try({ try: () => sqliteFilename(config.databaseUrl), catch: (e) => e as Error })
    if (filename !== ":memory:") mkdirSync(dirname(filename), { recursive: true })
    return SqliteClient.layer({ filename })
  }).pipe(Effect.orDie)
)

const pragmas = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe("PRAGMA busy_timeout = 5000")
    yield* sql.unsafe("PRAGMA synchronous = NORMAL")
    yield* sql.unsafe("PRAGMA foreign_keys = ON")
  })
)

const migratorLayer = SqliteMigrator.layer({ loader: Migrator.fromRecord(migrations) }).pipe(
  Layer.provide(BunContext.layer)
)

/** SqlClient over the configured database, with every migration applied. */
export const SqlLive = Layer.mergeAll(migratorLayer, pragmas).pipe(
  Layer.provideMerge(clientLayer),
  Layer.orDie
)
