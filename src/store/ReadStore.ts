/**
 * A second connection to the SQLite file, for reads on the fast path (src/http/FastPath.ts).
 *
 * A query through @effect/sql costs about 14 µs here (a span, a scope and the connection
 * semaphore around every statement); a prepared statement on bun:sqlite costs about 2 µs. WAL
 * lets this connection read beside the writer, and each statement sees every write committed
 * before it started, so a request that follows a write on the same service reads that write.
 * The connection is `query_only`: nothing can write through it.
 *
 * `version()` is `PRAGMA data_version` on this connection: it moves whenever any other
 * connection (this process's writer, another instance) commits, and costs a fraction of a
 * microsecond, so a caller can keep what it derived from a read until the next commit.
 *
 * On PostgreSQL there is no such reader (each read is a network round trip anyway, and other
 * instances' commits are invisible to `data_version`), so `reader` is undefined there too.
 * An in-memory store cannot be opened twice, so there `reader` is undefined and the fast path
 * stays off; every request then takes the HttpApi path.
 */
import { SqlClient } from "@effect/sql"
import { Database, type SQLQueryBindings } from "bun:sqlite"
import { Effect } from "effect"
import { AppConfig } from "../Config"
import { isPostgresUrl, sqliteFilename } from "./Sql"

export interface Reader {
  /** Every row of a read query; `?` placeholders, prepared once and reused. */
  readonly all: <A>(query: string, ...params: Array<SQLQueryBindings>) => Array<A>
  /** `PRAGMA data_version`: two calls differ when another connection committed in between. */
  readonly version: () => number
}

export class ReadStore extends Effect.Service<ReadStore>()("domain-intel/ReadStore", {
  scoped: Effect.gen(function*() {
    const config = yield* AppConfig
    // The writer connection comes first: it creates the file, turns WAL on and migrates.
    yield* SqlClient.SqlClient
    // PostgreSQL: no second connection; every request takes the HttpApi path.
    if (isPostgresUrl(config.databaseUrl)) return { reader: undefined as Reader | undefined }
    const filename = sqliteFilename(config.databaseUrl)
    if (filename === ":memory:") return { reader: undefined as Reader | undefined }
    const db = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const db = new Database(filename, { readwrite: true, create: false })
        db.run("PRAGMA query_only = ON")
        db.run("PRAGMA busy_timeout = 5000")
        return db
      }),
      (db) => Effect.sync(() => db.close())
    )
    const dataVersion = db.query<{ data_version: number }, []>("PRAGMA data_version")
    const reader: Reader = {
      all: <A>(query: string, ...params: Array<SQLQueryBindings>) => db.query(query).all(...params) as Array<A>,
      version: () => dataVersion.get()!.data_version
    }
    return { reader: reader as Reader | undefined }
  })
}) {}
