/**
 * Two service instances on one SQLite file running the same monitors: every due run happens
 * once (the target sees exactly as many requests as there are results, and no scheduled run has
 * two results), and both instances share the work.
 */
import { expect, test } from "bun:test"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { until } from "../support/process"
import { countingOrigin, createHttpMonitors } from "../support/monitors"
import { startService } from "../support/service"

test("each due run happens once across two instances", async () => {
  const dir = mkdtempSync(join(tmpdir(), "di-monitors-"))
  const { server: target, hits } = countingOrigin()
  const config = { databaseUrl: `sqlite:${join(dir, "store.db")}`, monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000 }
  const a = await startService(config)
  const b = await startService(config)
  try {
    const { key } = await a.newKey("pro")
    const ids = await createHttpMonitors(a, key, target.port!, 12)
    await until(async () => {
      const n = await a.sql<{ n: number }>("SELECT COUNT(*) AS n FROM monitor_results")
      return n[0].n >= 60 ? true : undefined
    }, "60 runs", 30_000)
    await a.stop()
    await b.stop()

    const { Database } = await import("bun:sqlite")
    const db = new Database(join(dir, "store.db"), { readonly: true })
    try {
      const perRun = db.query("SELECT monitor_id, scheduled_for, COUNT(*) AS n FROM monitor_results GROUP BY monitor_id, scheduled_for HAVING n > 1").all()
      expect(perRun).toEqual([])
      const perMonitor = db.query("SELECT m.target AS target, COUNT(r.id) AS n FROM monitors m LEFT JOIN monitor_results r ON r.monitor_id = m.id GROUP BY m.id").all() as Array<{ target: string; n: number }>
      for (const m of perMonitor) {
        const path = new URL(m.target).pathname
        // a run stopped by the shutdown may have reached the target without storing its result
        expect(hits.get(path)! - m.n).toBeGreaterThanOrEqual(0)
        expect(hits.get(path)! - m.n).toBeLessThanOrEqual(1)
      }
      const runners = db.query("SELECT runner, COUNT(*) AS n FROM monitor_results GROUP BY runner").all() as Array<{ n: number }>
      expect(runners.length).toBe(2) // both instances ran some
      // a monitor's runs are one interval apart: due times never repeat and never bunch up
      for (const id of ids) {
        const due = (db.query("SELECT scheduled_for FROM monitor_results WHERE monitor_id = ? ORDER BY scheduled_for").all(id) as Array<{ scheduled_for: number }>)
          .map((r) => r.scheduled_for)
        for (let i = 1; i < due.length; i++) expect(due[i] - due[i - 1]).toBeGreaterThanOrEqual(1000)
      }
    } finally {
      db.close()
    }
  } finally {
    await a.stop().catch(() => {})
    await b.stop().catch(() => {})
    target.stop(true)
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
