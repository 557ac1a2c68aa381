/**
 * What running instances need to know about keys between lookups:
 * - the store-wide `auth_revision`, polled every 500 ms: when it moves (a revocation, rotation,
 *   plan change or audit-token revocation by any instance or by the CLI), the bearer check drops
 *   its memoised lookups, so a revoked key is refused everywhere within a second;
 * - `last_used_at`, batched: a request only records its key id and time in memory, and the
 *   latest time per key is written every few seconds (and at shutdown), never once per request.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schedule } from "effect"

/** How often the revision is read; revocation reaches the memo within this plus one lookup. */
export const REVISION_POLL_MS = 500
const USAGE_FLUSH_MS = 5_000

export class KeyActivity extends Effect.Service<KeyActivity>()("domain-intel/KeyActivity", {
  scoped: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    let revision = -1
    let pending = new Map<string, number>()

    const readRevision = sql<{ revision: number }>`SELECT revision FROM auth_revision WHERE id = 1`.pipe(
      Effect.map((rows) => {
        revision = Number(rows[0]?.revision ?? 0)
      }),
      Effect.catchAllCause((cause) => Effect.logWarning("auth revision poll failed", cause))
    )

    const flush = Effect.suspend(() => {
      if (pending.size === 0) return Effect.void
      const batch = pending
      pending = new Map()
      return Effect.forEach(batch, ([id, at]) =>
        sql`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at})`, {
        discard: true
      }).pipe(
        sql.withTransaction,
        Effect.catchAllCause((cause) => Effect.logWarning("last_used_at flush failed", cause))
      )
    })

    yield* readRevision
    yield* Effect.forkScoped(Effect.repeat(readRevision, Schedule.spaced(REVISION_POLL_MS)))
    yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced(USAGE_FLUSH_MS)))
    yield* Effect.addFinalizer(() => flush)

    return {
      /** The last revision seen; memoised key lookups made under another one are stale. */
      revision: (): number => revision,
      /** Records a use of key `id` at `now` (written with the next batch). */
      touch: (id: string, now: number): void => {
        pending.set(id, now)
      },
      /** Writes the pending uses now (tests, shutdown). */
      flush
    } as const
  })
}) {}
