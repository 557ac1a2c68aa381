/**
 * The store-backed CT result cache (table `ct_cache`, migration 0010): every instance on the
 * same database shares it. A row is one domain's deduplicated result and when the aggregator
 * answered; rows older than the stale limit are pruned on write. A store that fails is a miss,
 * never an error of the lookup.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"

export const CachedResult = Schema.Struct({
  entries: Schema.Array(Schema.Unknown),
  duplicates: Schema.Number,
  dropped: Schema.Number
})
const decode = Schema.decodeUnknownOption(Schema.parseJson(CachedResult))

export interface CachedRow {
  readonly entries: ReadonlyArray<unknown>
  readonly duplicates: number
  readonly dropped: number
  readonly fetchedAt: number
}

export const makeCtCache = (staleMaxMs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const read = (key: string): Effect.Effect<Option.Option<CachedRow>> =>
      sql<{ body: string; fetched_at: number | string | bigint }>`SELECT body, fetched_at FROM ct_cache WHERE cache_key = ${key}`.pipe(
        Effect.map((rows) =>
          Option.fromNullable(rows[0]).pipe(
            Option.flatMap((r) => Option.map(decode(r.body), (b) => ({ ...b, fetchedAt: Number(r.fetched_at) })))
          )
        ),
        Effect.catchAll((e) => Effect.logWarning("ct_cache read failed", e).pipe(Effect.as(Option.none())))
      )

    const write = (key: string, row: CachedRow): Effect.Effect<void> =>
      Effect.gen(function*() {
        const body = JSON.stringify({ entries: row.entries, duplicates: row.duplicates, dropped: row.dropped })
        yield* sql`INSERT INTO ct_cache (cache_key, body, fetched_at) VALUES (${key}, ${body}, ${row.fetchedAt})
          ON CONFLICT (cache_key) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at`
        yield* sql`DELETE FROM ct_cache WHERE fetched_at < ${row.fetchedAt - staleMaxMs}`
      }).pipe(Effect.catchAll((e) => Effect.logWarning("ct_cache write failed", e)))

    return { read, write }
  })
