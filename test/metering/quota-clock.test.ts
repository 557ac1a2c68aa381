/**
 * The quota's idle give-back runs on Effect's Clock (src/product/metering/Quota.ts):
 * under TestClock, held units go back once an organization has been idle for a second, not
 * before, and a request in between keeps them. In-memory SQLite; the real-time counterpart on
 * both databases is test/store/shared.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, test } from "bun:test"
import { Effect, Layer, TestClock } from "effect"
import { Keys } from "../../src/product/accounts/Keys"
import { monthStart, Quota } from "../../src/product/metering/Quota"
import { runTest, storeLayer } from "../analytics/support"

const NOW = Date.UTC(2025, 5, 10, 12)

const stored = (orgId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ used: number }>`SELECT used FROM quota_usage WHERE org_id = ${orgId} AND month = ${monthStart(NOW)}`)
    .pipe(Effect.map((rows) => rows[0]?.used ?? 0), Effect.orDie)

/** Lets the forked give-back and its statement run after the clock moved. */
const settle = Effect.promise(() => Bun.sleep(20))

describe("quota give-back under TestClock", () => {
  test("held units go back after a second idle, not before; a request in between keeps them", () =>
    runTest(Effect.gen(function*() {
      const quota = yield* Quota
      const keys = yield* Keys
      const idle = yield* keys.upsertOrg("idle", "enterprise")
      const busy = yield* keys.upsertOrg("busy", "enterprise")
      expect((yield* quota.consume(idle, 1))._tag).toBe("Allowed")
      expect((yield* quota.consume(busy, 1))._tag).toBe("Allowed")
      expect(yield* stored(idle.id)).toBeGreaterThan(1) // a block is held

      yield* TestClock.adjust("600 millis")
      yield* settle
      expect(yield* stored(idle.id)).toBeGreaterThan(1)
      yield* quota.consume(busy, 1)

      yield* TestClock.adjust("400 millis") // idle 1 s, busy 0.4 s
      yield* settle
      expect(yield* stored(idle.id)).toBe(1)
      expect(yield* stored(busy.id)).toBeGreaterThan(2)
      expect((yield* quota.used(idle)).used).toBe(1)

      yield* TestClock.adjust("1 second") // busy idle 1.4 s
      yield* settle
      expect(yield* stored(busy.id)).toBe(2)
    }), { now: NOW, layer: Keys.Default.pipe(Layer.provideMerge(storeLayer())) as Layer.Layer<any> }))
})
