/**
 * The schema and every statement family of src/ on both databases: migrations (twice, and by two
 * instances starting at once), numbers that stay numbers, keys, alert rules (text statements
 * with placeholders), rollups with their binary sketch, reports and retention.
 */
import { describe, expect, test } from "bun:test"
import { Effect, Option } from "effect"
import { Alerts } from "../../src/product/alerts/Alerts"
import { Analytics } from "../../src/product/analytics/Analytics"
import { pruneOnce } from "../../src/product/analytics/Pruning"
import { DAY } from "../../src/product/metering/rollup"
import { Keys } from "../../src/product/accounts/Keys"
import { RequestLog, type RequestRecord } from "../../src/product/metering/RequestLog"
import { instance, storeKinds } from "./support"

const kinds = storeKinds()

const rec = (orgId: string, ts: number, latencyMs: number, p: Partial<RequestRecord> = {}): RequestRecord => ({
  orgId, operation: "dnsLookup", category: "dns", method: "GET", path: "/v1/dns/lookup", status: 200, latencyMs, cache: "miss", ts, ...p
})

for (const kind of kinds) {
  describe(`store on ${kind.name}`, () => {
    test("migrations apply once, also when two instances start together", async () => {
      const url = await kind.newDatabase()
      const [a, b] = [instance(url), instance(url)]
      try {
        await Promise.all([a.run(Effect.void), b.run(Effect.void)])
        const applied = await a.sql((sql) => sql<{ name: string }>`SELECT name FROM effect_sql_migrations ORDER BY migration_id`)
        expect(applied.map((r) => r.name)).toEqual(["init", "analytics", "quota_usage", ...applied.slice(3).map((r) => r.name)])
        expect(new Set(applied.map((r) => r.name)).size).toBe(applied.length)
      } finally {
        await Promise.all([a.stop(), b.stop()])
      }
      // and a restart finds nothing to do
      const c = instance(url)
      try {
        expect((await c.sql((sql) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM organizations`))[0].n).toBe(0)
      } finally {
        await c.stop()
      }
    }, 30_000)

    test("counts, epoch milliseconds and sums come back as numbers", async () => {
      const db = instance(await kind.newDatabase())
      try {
        const ts = Date.UTC(2026, 10, 23, 12, 0, 0, 123)
        await db.sql((sql) => sql`INSERT INTO leases (name, holder, expires_at) VALUES ('x', 'h', ${ts})`)
        const [row] = await db.sql((sql) => sql<{ expires_at: number; n: number; s: number }>`
          SELECT expires_at, COUNT(*) AS n, SUM(expires_at) AS s FROM leases GROUP BY expires_at`)
        expect(row).toEqual({ expires_at: ts, n: 1, s: ts })
      } finally {
        await db.stop()
      }
    })

    test("keys: issue, authenticate, audit tokens, bootstrap", async () => {
      const db = instance(await kind.newDatabase())
      try {
        const created = await db.run(Effect.flatMap(Keys, (k) => k.bootstrap()))
        expect(Option.isSome(created)).toBe(true)
        const org = await db.run(Effect.flatMap(Keys, (k) => k.authenticate(Option.getOrThrow(created))))
        expect(Option.getOrThrow(org).org).toMatchObject({ name: "default", plan: "enterprise" })
        expect(Option.isNone(await db.run(Effect.flatMap(Keys, (k) => k.bootstrap())))).toBe(true)
        const token = (await db.run(Effect.flatMap(Keys, (k) => k.issueAuditToken("default", "Example.test")))).token
        expect(await db.run(Effect.flatMap(Keys, (k) => k.verifyAuditToken(token, "www.example.test")))).toBe(true)
        expect(Option.isSome(await db.run(Effect.flatMap(Keys, (k) => k.auditTokenOrg(token))))).toBe(true)
      } finally {
        await db.stop()
      }
    })

    test("alert rules: create, list, get, update, delete", async () => {
      const db = instance(await kind.newDatabase())
      try {
        const { rule } = await db.run(Effect.flatMap(Alerts, (a) => a.createRule("org_1", {
          name: "busy", metric: "request_count", operator: "gte", threshold_value: 2.5, window_minutes: 5,
          channels: [{ type: "webhook", url: "http://127.0.0.1:1/h" }], cooldown_minutes: 10, enabled: true
        })))
        expect(await db.run(Effect.flatMap(Alerts, (a) => a.listRules("org_1")))).toEqual([rule])
        expect(await db.run(Effect.flatMap(Alerts, (a) => a.getRule("org_1", rule.id)))).toEqual(rule)
        const updated = await db.run(Effect.flatMap(Alerts, (a) => a.updateRule("org_1", rule.id, { enabled: false })))
        expect(updated.enabled).toBe(false)
        await db.run(Effect.flatMap(Alerts, (a) => a.deleteRule("org_1", rule.id)))
        expect(await db.run(Effect.flatMap(Alerts, (a) => a.listRules("org_1")))).toEqual([])
      } finally {
        await db.stop()
      }
    })

    test("request log → rollups → reports; retention keeps the reports", async () => {
      const db = instance(await kind.newDatabase())
      try {
        const org = await db.run(Effect.flatMap(Keys, (k) => k.upsertOrg("acme", "pro")))
        const now = Date.now()
        const old = now - 200 * DAY
        const latencies = Array.from({ length: 100 }, (_, i) => i + 1)
        await db.run(Effect.flatMap(RequestLog, (l) =>
          Effect.zipRight(
            Effect.forEach([rec(org.id, old, 5), ...latencies.map((ms) => rec(org.id, now - 1000, ms))], (r) => l.record(r)),
            l.flush
          )))
        const usage = await db.run(Effect.flatMap(Analytics, (a) => a.usage(org, "30d")))
        expect(usage.total_requests).toBe(100)
        const perf = await db.run(Effect.flatMap(Analytics, (a) => a.performance(org, "30d")))
        expect(Math.abs(perf.p50 - 50) / 50).toBeLessThanOrEqual(0.02)
        const cache = await db.run(Effect.flatMap(Analytics, (a) => a.cache(org, "30d")))
        expect(cache.misses).toBe(100)
        const pruned = await db.run(pruneOnce)
        expect(pruned.raw).toBe(1)
        expect((await db.run(Effect.flatMap(Analytics, (a) => a.usage(org, "30d")))).total_requests).toBe(100)
      } finally {
        await db.stop()
      }
    }, 30_000)
  })
}
