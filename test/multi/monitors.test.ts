/**
 * Monitors on PostgreSQL with two instances (in-process services on one database): every due
 * run happens once, both instances share the work (the SQLite twin is
 * test/monitors/instances.test.ts); creates racing at the plan limit never pass it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test"
import { type PostgresCluster, startPostgres } from "../support/postgres"
import { until } from "../support/process"
import { countingOrigin, createHttpMonitors } from "../support/monitors"
import { startService } from "../support/service"

let pg: PostgresCluster
beforeAll(async () => {
  pg = await startPostgres()
}, 60_000)
afterAll(() => pg?.stop())

/** Two services on a fresh database (monitors due every second may run; alert evaluation idles). */
const twoInstances = async () => {
  const url = await pg.createDatabase()
  const config = { databaseUrl: url, monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000 }
  return { db: url.split("/").pop()!, a: await startService(config), b: await startService(config) }
}

test("each due run happens once across two instances on PostgreSQL", async () => {
  const { server: target, hits } = countingOrigin()
  const { db, a, b } = await twoInstances()
  try {
    const { key } = await a.newKey("pro")
    await createHttpMonitors(a, key, target.port!, 24)
    await until(() => (Number(pg.psql(db, "SELECT COUNT(*) FROM monitor_results")) >= 150 ? true : undefined), "150 runs", 60_000)
    await a.stop()
    await b.stop()
    expect(pg.psql(db, "SELECT monitor_id, scheduled_for FROM monitor_results GROUP BY 1, 2 HAVING COUNT(*) > 1").trim()).toBe("")
    const perMonitor = pg.psql(db, "SELECT m.target, COUNT(r.id) FROM monitors m LEFT JOIN monitor_results r ON r.monitor_id = m.id GROUP BY m.id, m.target")
      .trim().split("\n").map((l) => l.split("|"))
    expect(perMonitor.length).toBe(24)
    for (const [t, n] of perMonitor) {
      const served = hits.get(new URL(t).pathname) ?? 0
      // a run stopped by the shutdown may have reached the target without storing its result
      expect(served - Number(n)).toBeGreaterThanOrEqual(0)
      expect(served - Number(n)).toBeLessThanOrEqual(1)
    }
    expect(pg.psql(db, "SELECT COUNT(DISTINCT runner) FROM monitor_results").trim()).toBe("2")
    // each monitor's runs keep its cadence: due times one interval apart, or whole intervals when
    // a run was late enough that missed ones were skipped (never replayed, never off the phase)
    const gaps = pg.psql(db, `SELECT scheduled_for - LAG(scheduled_for) OVER (PARTITION BY monitor_id ORDER BY scheduled_for) FROM monitor_results`)
      .trim().split("\n").filter((l) => l.trim() !== "").map(Number)
    expect(gaps.length).toBeGreaterThan(100)
    for (const g of gaps) expect(g > 0 && g % 1000 === 0).toBe(true)
    // the rollups the uptime report reads agree with the raw results, written by both instances
    const fromResults = pg.psql(db, "SELECT monitor_id, COUNT(*), SUM(ok) FROM monitor_results GROUP BY monitor_id ORDER BY monitor_id")
    const fromRollups = pg.psql(db, "SELECT monitor_id, SUM(runs), SUM(ok_runs) FROM monitor_rollups GROUP BY monitor_id ORDER BY monitor_id")
    expect(fromRollups).toBe(fromResults)
  } finally {
    await a.stop().catch(() => {})
    await b.stop().catch(() => {})
    target.stop(true)
  }
}, 90_000)

test("creates racing through two instances at the plan limit: exactly the limit is kept", async () => {
  const { db, a, b } = await twoInstances()
  try {
    const { key, orgId } = await a.newKey("free") // 5 monitors
    const create = (svc: typeof a, i: number) =>
      svc.call("/v1/monitors", {
        method: "POST",
        key,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: `r${i}`, kind: "http_check", target: `http://127.0.0.1:9/r${i}`, interval_seconds: 3600, enabled: false })
      }).then((r) => r.status)
    for (let round = 0; round < 3; round++) {
      pg.psql(db, `DELETE FROM monitors WHERE org_id = '${orgId}'`)
      const statuses = await Promise.all(Array.from({ length: 24 }, (_, i) => create(i % 2 === 0 ? a : b, round * 100 + i)))
      expect(statuses.filter((s) => s === 201).length).toBe(5)
      expect(statuses.filter((s) => s === 403).length).toBe(19)
      expect(pg.psql(db, `SELECT COUNT(*) FROM monitors WHERE org_id = '${orgId}'`).trim()).toBe("5")
    }
  } finally {
    await a.stop().catch(() => {})
    await b.stop().catch(() => {})
  }
}, 90_000)
