/**
 * The store-backed CT result cache (table `ct_cache`, migration 0010): every instance on the
 * same database shares it. A row is one domain's merged result, each source's status in it, and
 * when the sources answered; rows older than the stale limit are pruned on write. A store that
 * fails is a miss, never an error of the lookup.
 *
 * Keys are `v2:<domain>`: rows of the single-source layout (the bare domain) are not read, so an
 * instance never serves a result without its sources; they age out with the stale limit.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CT_SOURCE_NAMES } from "../../platform/Config"

export const SourceState = Schema.Struct({
  name: Schema.Literal(...CT_SOURCE_NAMES),
  status: Schema.Literal("ok", "error", "skipped"),
  /** Certificates of the result this source listed. */
  certificates: Schema.Number,
  /** Why it failed or was skipped; for `ok`, null. */
  detail: Schema.NullOr(Schema.String),
  /** Epoch ms when this source's certificates in the result were fetched. */
  fetched_at: Schema.Number
})
export type SourceState = typeof SourceState.Type

export const CachedResult = Schema.Struct({
  entries: Schema.Array(Schema.Unknown),
  duplicates: Schema.Number,
  dropped: Schema.Number,
  overlap: Schema.Number,
  sources: Schema.Array(SourceState),
  limitations: Schema.Array(Schema.String),
  scts: Schema.Record({ key: Schema.String, value: Schema.Number })
})
const decode = Schema.decodeUnknownOption(Schema.parseJson(CachedResult))

export type CachedRow = Omit<typeof CachedResult.Type, "entries"> & {
  readonly entries: ReadonlyArray<unknown>
  readonly fetchedAt: number
}

const keyOf = (domain: string) => `v2:${domain}`

export const makeCtCache = (staleMaxMs: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const read = (domain: string): Effect.Effect<Option.Option<CachedRow>> =>
      sql<{ body: string; fetched_at: number | string | bigint }>`SELECT body, fetched_at FROM ct_cache WHERE cache_key = ${keyOf(domain)}`.pipe(
        Effect.map((rows) =>
          Option.fromNullable(rows[0]).pipe(
            Option.flatMap((r) => Option.map(decode(r.body), (b) => ({ ...b, fetchedAt: Number(r.fetched_at) })))
          )
        ),
        Effect.catchAll((e) => Effect.logWarning("ct_cache read failed", e).pipe(Effect.as(Option.none())))
      )

    const write = (domain: string, row: CachedRow): Effect.Effect<void> =>
      Effect.gen(function*() {
        const { fetchedAt, ...rest } = row
        const body = JSON.stringify(rest)
        yield* sql`INSERT INTO ct_cache (cache_key, body, fetched_at) VALUES (${keyOf(domain)}, ${body}, ${fetchedAt})
          ON CONFLICT (cache_key) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at`
        yield* sql`DELETE FROM ct_cache WHERE fetched_at < ${fetchedAt - staleMaxMs}`
      }).pipe(Effect.catchAll((e) => Effect.logWarning("ct_cache write failed", e)))

    return { read, write }
  })
