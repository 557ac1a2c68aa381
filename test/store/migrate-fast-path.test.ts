/**
 * The migrator's fast path on both databases (src/platform/store/migrateUnlessCurrent.ts): a store
 * that records the newest bundled migration is not migrated again; a new store, or one behind
 * the newest migration, is.
 */
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { migrateUnlessCurrent } from "../../src/platform/store/migrateUnlessCurrent"
import { migrations } from "../../src/platform/store/migrations"
import { instance, storeKinds } from "./support"

const kinds = storeKinds()
const newest = Math.max(...Object.keys(migrations).map((n) => Number(n.split("_")[0])))

for (const kind of kinds) {
  describe(`migrations on ${kind.name}`, () => {
    test("a current store is left alone; one behind the newest migration, or without the table, is migrated", async () => {
      const db = instance(await kind.newDatabase()) // migrated by its layer
      try {
        let ran = 0
        const migrate = Effect.sync(() => void ran++)
        await db.run(migrateUnlessCurrent(migrate))
        expect(ran).toBe(0)
        // the newest migration not recorded: behind
        await db.sql((sql) => sql`DELETE FROM effect_sql_migrations WHERE migration_id = ${newest}`)
        await db.run(migrateUnlessCurrent(migrate))
        expect(ran).toBe(1)
        // no migrations table at all: a new store
        await db.sql((sql) => sql`DROP TABLE effect_sql_migrations`)
        await db.run(migrateUnlessCurrent(migrate))
        expect(ran).toBe(2)
      } finally {
        await db.stop()
      }
    }, 30_000)
  })
}
