/**
 * State shared by several instances on one database, on both databases: two "instances" (each
 * with its own connections and services) race on the same rows.
 */
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { Alerts } from "../../src/product/alerts/Alerts"
import { acquireLease } from "../../src/product/alerts/Lease"
import { claimRows } from "../../src/product/alerts/Outbox"
import { MINUTE } from "../../src/product/metering/rollup"
import * as Sketch from "../../src/product/metering/sketch"
import { Keys, type Organization } from "../../src/product/accounts/Keys"
import { monthStart, Quota } from "../../src/product/metering/Quota"
import type { RequestRecord } from "../../src/product/metering/RequestLog"
import { writeBatch } from "../../src/product/metering/writeBatch"
import { SqlClient } from "@effect/sql"
import { instance, storeKinds } from "./support"

const kinds = storeKinds()

const storeUsed = (db: ReturnType<typeof instance>, org: Organization) =>
  db.sql((sql) => sql<{ used: number }>`SELECT used FROM quota_usage WHERE org_id = ${org.id} AND month = ${monthStart(Date.now())}`)
    .then((rows) => rows[0]?.used ?? 0)

/** Two instances on one new database of `kind`, both stopped after `f`. */
const onTwoInstances = async (
  kind: (typeof kinds)[number],
  f: (a: ReturnType<typeof instance>, b: ReturnType<typeof instance>) => Promise<void>
) => {
  const url = await kind.newDatabase()
  const [a, b] = [instance(url), instance(url)]
  try {
    await f(a, b)
  } finally {
    await Promise.all([a.stop(), b.stop()])
  }
}

for (const kind of kinds) {
  describe(`shared state on ${kind.name}`, () => {
    test("quota: two instances racing on a free organization allow exactly 1,000", async () => {
      await onTwoInstances(kind, async (a, b) => {
        const org = await a.run(Effect.flatMap(Keys, (k) => k.upsertOrg("free-org", "free")))
        const wave = (db: typeof a, n: number) =>
          db.run(Effect.forEach(Array.from({ length: n }), () => Effect.flatMap(Quota, (q) => q.consume(org)), { concurrency: 50 }))
        // 1,300 requests over both, in waves so both instances keep reserving blocks.
        let allowed = 0
        let refused = 0
        for (let i = 0; i < 13; i++) {
          for (const d of (await Promise.all([wave(a, 50), wave(b, 50)])).flat()) {
            if (d._tag === "Allowed") allowed++
            else refused++
          }
        }
        expect(allowed).toBe(1000)
        expect(refused).toBe(300)
        expect(await storeUsed(a, org)).toBe(1000)
        expect((await a.run(Effect.flatMap(Quota, (q) => q.used(org)))).used).toBe(1000)
      })
    }, 60_000)

    test("quota: units are counted together; held units go back at shutdown and when idle", async () => {
      const url = await kind.newDatabase()
      const a = instance(url)
      let b: ReturnType<typeof instance> | undefined
      try {
        const org = await a.run(Effect.flatMap(Keys, (k) => k.upsertOrg("big", "enterprise")))
        const d = await a.run(Effect.flatMap(Quota, (q) => q.consume(org, 5)))
        expect(d).toMatchObject({ _tag: "Allowed", remaining: 10_000_000 - 5 })
        // a block was reserved in the store, more than was used
        expect(await storeUsed(a, org)).toBeGreaterThan(5)
        expect((await a.run(Effect.flatMap(Quota, (q) => q.used(org)))).used).toBe(5)
        await a.stop()
        b = instance(url)
        expect(await storeUsed(b, org)).toBe(5)
        await b.run(Effect.flatMap(Quota, (q) => q.consume(org, 2)))
        expect(await storeUsed(b, org)).toBeGreaterThan(7)
        // idle for over a second: the block goes back
        const end = Date.now() + 5_000
        while (Date.now() < end && (await storeUsed(b, org)) !== 7) await Bun.sleep(100)
        expect(await storeUsed(b, org)).toBe(7)
      } finally {
        await a.stop().catch(() => {})
        await b?.stop()
      }
    }, 30_000)

    test("quota: a request for more units than remain is refused whole", async () => {
      const db = instance(await kind.newDatabase())
      try {
        const org = await db.run(Effect.flatMap(Keys, (k) => k.upsertOrg("f", "free")))
        expect((await db.run(Effect.flatMap(Quota, (q) => q.consume(org, 998))))._tag).toBe("Allowed")
        expect((await db.run(Effect.flatMap(Quota, (q) => q.consume(org, 3))))._tag).toBe("Exceeded")
        expect((await db.run(Effect.flatMap(Quota, (q) => q.consume(org, 2))))._tag).toBe("Allowed")
        expect((await db.run(Effect.flatMap(Quota, (q) => q.consume(org, 1))))._tag).toBe("Exceeded")
        expect(await storeUsed(db, org)).toBe(1000)
      } finally {
        await db.stop()
      }
    })

    test("rollups written by two instances at once add up, latency sketch included", async () => {
      await onTwoInstances(kind, async (a, b) => {
        const ts = Math.floor(Date.now() / MINUTE) * MINUTE
        const batch = (i: number, lat: number): Array<RequestRecord> =>
          Array.from({ length: 50 }, (_, j) => ({
            orgId: `org_${j % 3}`, operation: j % 2 ? "dnsLookup" : "ctLogs", category: "dns", method: "GET",
            path: "/v1/x", status: j % 10 === 0 ? 500 : 200, latencyMs: lat + j, cache: j % 4 === 0 ? "hit" : "miss",
            ts: ts + i
          }))
        const write = (db: typeof a, i: number) =>
          db.run(Effect.flatMap(SqlClient.SqlClient, (sql) => writeBatch(sql, batch(i, 10 * i))))
        await Promise.all(Array.from({ length: 20 }, (_, i) => write(i % 2 ? a : b, i)))
        const rows = await a.sql((sql) => sql<{ requests: number; errors: number; sketch: Uint8Array }>`
          SELECT requests, errors, sketch FROM rollup_minute WHERE ts = ${ts}`)
        expect(rows.reduce((n, r) => n + r.requests, 0)).toBe(1000)
        expect(rows.reduce((n, r) => n + r.errors, 0)).toBe(100)
        expect(rows.reduce((n, r) => n + Sketch.decode(r.sketch).count, 0)).toBe(1000)
        const ep = await a.sql((sql) => sql<{ n: number; hits: number }>`
          SELECT SUM(requests) AS n, SUM(cache_hits) AS hits FROM rollup_hour_endpoint`)
        expect(ep[0]).toEqual({ n: 1000, hits: 260 })
        const raw = await a.sql((sql) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM request_log`)
        expect(raw[0].n).toBe(1000)
      })
    }, 60_000)

    test("accounts: instances bootstrapping one empty store at once create one organization and one key", async () => {
      await onTwoInstances(kind, async (a, b) => {
        const boot = (db: typeof a) =>
          db.run(Effect.forEach(Array.from({ length: 4 }), () => Effect.flatMap(Keys, (k) => k.bootstrap()), { concurrency: 4 }))
        const keys = (await Promise.all([boot(a), boot(b)])).flat().filter((o) => o._tag === "Some")
        expect(keys.length).toBe(1)
        expect(await a.sql((sql) => sql`SELECT name, plan FROM organizations`)).toEqual([{ name: "default", plan: "enterprise" }])
        expect((await a.sql((sql) => sql`SELECT id FROM api_keys`)).length).toBe(1)
        // a later start finds the store bootstrapped
        expect((await b.run(Effect.flatMap(Keys, (k) => k.bootstrap())))._tag).toBe("None")
      })
    }, 30_000)

    test("accounts: upserts racing for one new organization all answer with it", async () => {
      await onTwoInstances(kind, async (a, b) => {
        const upsert = (db: typeof a) =>
          db.run(Effect.forEach(Array.from({ length: 6 }), () => Effect.flatMap(Keys, (k) => k.upsertOrg("racing", "pro")), { concurrency: 6 }))
        const orgs = (await Promise.all([upsert(a), upsert(b)])).flat()
        expect(new Set(orgs.map((o) => o.id)).size).toBe(1)
        expect((await a.sql((sql) => sql`SELECT id FROM organizations WHERE name = 'racing'`)).map((r) => r.id)).toEqual([orgs[0].id])
        // another plan is still refused, not silently taken
        const refused = await a.run(Effect.flip(Effect.flatMap(Keys, (k) => k.upsertOrg("racing", "free"))))
        expect(refused._tag).toBe("AccountRefused")
      })
    }, 30_000)

    test("lease: of twenty concurrent takers across two instances exactly one holds it", async () => {
      await onTwoInstances(kind, async (a, b) => {
        const won = await Promise.all(Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).run(acquireLease("job", `holder-${i}`, 60_000))))
        expect(won.filter(Boolean).length).toBe(1)
        const winner = won.indexOf(true)
        // the holder renews; nobody else takes it
        expect(await a.run(acquireLease("job", `holder-${winner}`, 60_000))).toBe(true)
        expect(await b.run(acquireLease("job", "someone-else", 60_000))).toBe(false)
      })
    }, 30_000)

    test("outbox: concurrent claims take disjoint rows", async () => {
      await onTwoInstances(kind, async (a, b) => {
        const now = Date.now()
        await a.sql((sql) => sql`INSERT INTO alert_outbox ${sql.insert(Array.from({ length: 50 }, (_, i) => ({
          alert_id: `alert_${i}`, org_id: "org", event: "alert.triggered", channel_type: "webhook",
          destination: "http://127.0.0.1:1/", payload: "{}", status: "pending", attempts: 0, next_attempt_at: now, created_at: now
        })))}`)
        const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).run(claimRows(10, () => true))))
        const ids = claims.flat().map((r) => r.id)
        expect(ids.length).toBe(50)
        expect(new Set(ids).size).toBe(50)
        // nothing left to claim until the claim window passes
        expect((await a.run(claimRows(10, () => true))).length).toBe(0)
      })
    }, 30_000)

    test("alerts: of twenty concurrent resolves across two instances exactly one wins", async () => {
      const url = await kind.newDatabase()
      const [a, b] = [instance(url), instance(url)]
      try {
        const { rule } = await a.run(Effect.flatMap(Alerts, (al) => al.createRule("org_1", {
          name: "r", metric: "request_count", operator: "gte", threshold_value: 1, window_minutes: 5,
          channels: [{ type: "webhook", url: "http://127.0.0.1:1/h" }], cooldown_minutes: 0, enabled: true
        })))
        const ruleRow = (await a.sql((sql) => sql<any>`SELECT * FROM alert_rules WHERE id = ${rule.id}`))[0]
        const alert = await a.run(Effect.flatMap(Alerts, (al) => al.trigger(ruleRow, 3)))
        const id = alert.pipe((o) => (o._tag === "Some" ? o.value.id : ""))
        const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).run(Effect.either(Effect.flatMap(Alerts, (al) => al.resolve("org_1", id, `by ${i}`))))))
        expect(outcomes.filter((o) => o._tag === "Right").length).toBe(1)
        expect(outcomes.filter((o) => o._tag === "Left" && (o.left as any)._tag === "AlertAlreadyResolved").length).toBe(19)
        const resolvedNotes = await a.sql((sql) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM alert_outbox WHERE event = 'alert.resolved'`)
        expect(resolvedNotes[0].n).toBe(1)
      } finally {
        await Promise.all([a.stop(), b.stop()])
      }
    }, 30_000)
  })
}
