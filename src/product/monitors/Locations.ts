/**
 * Where instances run (docs/monitors.md, "Several locations"): every instance records a heartbeat
 * (its id, its INSTANCE_LOCATION, the time) when it starts and every 15 s, into the shared store;
 * a location is live while one of its instances was seen within the last 60 s
 * (src/product/monitors/model/locations.ts). The location's row outlives its instances, so a
 * monitor naming a location that never ran is told apart from one naming a location that is down.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect } from "effect"
import { randomBytes } from "node:crypto"
import { AppConfig } from "../../platform/Config"
import { FORGET_INSTANCE_AFTER_MS, HEARTBEAT_EVERY_MS, isLive, STALE_AFTER_MS } from "./model/locations"

export interface LocationRow {
  readonly name: string
  readonly last_seen_at: number
}

const iso = (ms: number) => new Date(ms).toISOString()

/** The names of the live locations, at the store's last heartbeats. */
export const liveLocations = (sql: SqlClient.SqlClient) => Effect.gen(function*() {
  const now = yield* Clock.currentTimeMillis
  const rows = yield* sql<LocationRow>`SELECT name, last_seen_at FROM locations WHERE last_seen_at > ${now - STALE_AFTER_MS}`
  return new Set(rows.filter((r) => isLive(Number(r.last_seen_at), now)).map((r) => r.name))
})

/** The names among `names` that no instance has ever run in. */
export const neverSeen = (sql: SqlClient.SqlClient, names: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (names.length === 0) return [] as Array<string>
    const rows = yield* sql<{ name: string }>`SELECT name FROM locations WHERE name IN ${sql.in(names as Array<string>)}`
    const known = new Set(rows.map((r) => r.name))
    return names.filter((n) => !known.has(n))
  })

/** Every location ever seen: its live instances, when it was last seen, whether it is live. */
export const listLocations = (sql: SqlClient.SqlClient) => Effect.gen(function*() {
  const now = yield* Clock.currentTimeMillis
  const locations = yield* sql<LocationRow>`SELECT name, last_seen_at FROM locations ORDER BY name`
  const counts = yield* sql<{ location: string; n: number }>`SELECT location, COUNT(*) AS n FROM instances
    WHERE last_seen_at > ${now - STALE_AFTER_MS} GROUP BY location`
  const live = new Map(counts.map((c) => [c.location, Number(c.n)]))
  return {
    locations: locations.map((l) => ({
      name: l.name,
      instances: live.get(l.name) ?? 0,
      last_seen_at: iso(Number(l.last_seen_at)),
      live: isLive(Number(l.last_seen_at), now)
    }))
  }
})

/** One heartbeat of instance `id` in `location`: its row and its location's, both upserted. */
export const beat = (id: string, location: string, startedAt: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    yield* sql`INSERT INTO instances (id, location, started_at, last_seen_at) VALUES (${id}, ${location}, ${startedAt}, ${now})
      ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at`
    // Never backwards: instances of one location may disagree by a little on the time.
    yield* sql`INSERT INTO locations (name, first_seen_at, last_seen_at) VALUES (${location}, ${now}, ${now})
      ON CONFLICT (name) DO UPDATE SET last_seen_at = CASE WHEN excluded.last_seen_at > locations.last_seen_at
        THEN excluded.last_seen_at ELSE locations.last_seen_at END`
    yield* sql`DELETE FROM instances WHERE last_seen_at < ${now - FORGET_INSTANCE_AFTER_MS}`
  })

/**
 * This instance's heartbeat, scoped: one at once (so the location is known before the first
 * claim), then every HEARTBEAT_EVERY_MS on Effect's clock; a failed beat is logged and the next
 * one comes on time. On a graceful stop the instance's row is removed (its location stays; it
 * turns stale when no other instance of it beats).
 */
export const heartbeat = Effect.gen(function*() {
  const config = yield* AppConfig
  const id = `${process.pid}-${randomBytes(6).toString("hex")}`
  const startedAt = yield* Clock.currentTimeMillis
  const one = beat(id, config.instanceLocation, startedAt).pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("instance heartbeat failed", cause))
  )
  yield* one
  yield* Effect.addFinalizer(() =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM instances WHERE id = ${id}`).pipe(Effect.ignore)
  )
  yield* Effect.sleep(Duration.millis(HEARTBEAT_EVERY_MS)).pipe(Effect.zipRight(one), Effect.forever, Effect.forkScoped)
  return { id, location: config.instanceLocation } as const
})
