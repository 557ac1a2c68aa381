/**
 * The store behind one `SqlClient`, chosen by `DATABASE_URL` and migrated on start:
 * - `sqlite:PATH` / `sqlite::memory:` (the default): embedded SQLite through `@effect/sql-sqlite-bun`;
 * - `postgres://…` / `postgresql://…`: PostgreSQL through `@effect/sql-pg`, a pool of
 *   `DATABASE_POOL_MAX` connections, shared by any number of instances (docs/postgres.md).
 *
 * Every statement in src/ runs on both. Where the dialects must differ, the code asks
 * `sql.onDialectOrElse` (pg vs. the rest) at the one place that differs.
 */
import * as BunContext from "@effect/platform-bun/BunContext"
import { Migrator, SqlClient } from "@effect/sql"
import { SqliteClient, SqliteMigrator } from "@effect/sql-sqlite-bun"
import { Effect, Layer } from "effect"
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { AppConfig } from "../Config"
import { migrations } from "./migrations"
import { migrateUnlessCurrent } from "./migrateUnlessCurrent"

export class UnsupportedDatabase extends Error {
  readonly _tag = "UnsupportedDatabase"
}

export type DatabaseKind = "sqlite" | "postgres"

export const isPostgresUrl = (url: string) => url.startsWith("postgres://") || url.startsWith("postgresql://")

export const databaseKind = (url: string): DatabaseKind => (isPostgresUrl(url) ? "postgres" : "sqlite")

/** `sqlite:PATH` or `sqlite::memory:` → the SQLite filename. */
export const sqliteFilename = (url: string): string => {
  if (url === "sqlite::memory:" || url === ":memory:") return ":memory:"
  if (url.startsWith("sqlite:")) return url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "")
  if (isPostgresUrl(url)) throw new UnsupportedDatabase("DATABASE_URL names PostgreSQL, not a SQLite file")
  throw new UnsupportedDatabase(
    `DATABASE_URL: unrecognised scheme in ${JSON.stringify(url)}; use sqlite:PATH, sqlite::memory: or postgres://…`
  )
}

/**
 * Rewrites `?` placeholders to `$1, $2, …` on PostgreSQL, for the few statements kept as text
 * (shared with the SQLite read connection, or prebuilt for speed). The text must hold no `?`
 * other than placeholders.
 */
export const placeholders = (sql: SqlClient.SqlClient, text: string): string =>
  sql.onDialectOrElse({
    pg: () => {
      let i = 0
      return text.replace(/\?/g, () => `$${++i}`)
    },
    orElse: () => text
  })

/** `FOR UPDATE` on PostgreSQL; nothing on SQLite, where a write transaction already holds the lock. */
export const forUpdateText = (sql: SqlClient.SqlClient, skipLocked = false): string =>
  sql.onDialectOrElse({ pg: () => (skipLocked ? "FOR UPDATE SKIP LOCKED" : "FOR UPDATE"), orElse: () => "" })

/** `forUpdateText` as a fragment of a `sql` template. */
export const forUpdate = (sql: SqlClient.SqlClient, skipLocked = false) => sql.literal(forUpdateText(sql, skipLocked))

/** A column type of `valuesTable` (bytes: BYTEA on PostgreSQL, BLOB on SQLite). */
export type ValuesColumnType = "TEXT" | "BIGINT" | "INTEGER" | "DOUBLE PRECISION" | "BYTES"

/**
 * Rows as a derived table with named columns, so a batch takes one statement on both dialects
 * instead of one per row (`UPDATE t SET c = v.c FROM <table> WHERE t.id = v.id`, or
 * `WHERE (a, b) IN (SELECT a, b FROM <table>)`). Both name a VALUES list's columns column1,
 * column2, …; the first row's parameters are cast, as PostgreSQL would otherwise type them text
 * (and refuse text for a BIGINT column). Returns text with `?` placeholders (for `placeholders`)
 * and its parameters in order; `rows` must not be empty.
 */
export const valuesTable = (
  sql: SqlClient.SqlClient,
  alias: string,
  columns: ReadonlyArray<readonly [name: string, type: ValuesColumnType]>,
  rows: ReadonlyArray<ReadonlyArray<unknown>>
): { readonly text: string; readonly params: Array<unknown> } => {
  const bytes = sql.onDialectOrElse({ pg: () => "BYTEA", orElse: () => "BLOB" })
  const first = `(${columns.map(([, t]) => `CAST(? AS ${t === "BYTES" ? bytes : t})`).join(", ")})`
  const rest = `(${columns.map(() => "?").join(", ")})`
  const params: Array<unknown> = []
  for (const r of rows) for (const v of r) params.push(v)
  const names = columns.map(([c], i) => `column${i + 1} AS ${c}`).join(", ")
  const values = [first, ...Array.from({ length: rows.length - 1 }, () => rest)].join(", ")
  return { text: `(SELECT ${names} FROM (VALUES ${values}) AS ${alias}_values) AS ${alias}`, params }
}

const sqliteLayer = (url: string) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const filename = yield* Effect.try({ try: () => sqliteFilename(url), catch: (e) => e as Error })
      if (filename !== ":memory:") mkdirSync(dirname(filename), { recursive: true })
      // The connection's settings, then the migrations: one layer (each layer costs start-up time).
      const setUp = Layer.effectDiscard(
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql.unsafe("PRAGMA busy_timeout = 5000")
          yield* sql.unsafe("PRAGMA synchronous = NORMAL")
          yield* sql.unsafe("PRAGMA foreign_keys = ON")
          // The platform services the migrator needs are built only when it runs: a current store
          // skips it (./migrateUnlessCurrent.ts), and building them cost ~1,600 Effect steps.
          yield* migrateUnlessCurrent(SqliteMigrator.run({ loader: Migrator.fromRecord(migrations) }).pipe(Effect.provide(BunContext.layer)))
        })
      )
      return setUp.pipe(Layer.provideMerge(SqliteClient.layer({ filename })))
    })
  )

/** SqlClient over the configured database, with every migration applied. */
export const SqlLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    isPostgresUrl(config.databaseUrl)
      // The PostgreSQL driver is loaded only when the store is PostgreSQL (./postgres.ts).
      ? Layer.unwrapEffect(Effect.map(Effect.promise(() => import("./postgres")), (pg) => pg.postgresLayer(config.databaseUrl, config.databasePoolMax)))
      : sqliteLayer(config.databaseUrl))
).pipe(Layer.orDie) as Layer.Layer<SqlClient.SqlClient, never, AppConfig>
