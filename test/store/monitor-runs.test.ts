/**
 * The result writer's batches on both databases: storing runs many at a time (several runs of
 * one monitor in a batch, batches across a UTC day boundary, a second result for one due time)
 * leaves the store exactly as storing the same runs one at a time: run state, leases freed,
 * alerts, incidents, and daily rollups with their duration sketch.
 */
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import * as Sketch from "../../src/product/metering/sketch"
import { failedRun, type Verdict } from "../../src/product/monitors/model/analyze"
import { recordRun, type RunRecord, recordRuns, type RunStep } from "../../src/product/monitors/record"
import { instance, storeKinds } from "./support"

const kinds = storeKinds()

const MONITORS = 6
const RUNS = 12
// Five minutes before a UTC midnight: the runs of each monitor fall on two days.
const T0 = Date.UTC(2026, 4, 20) - 5 * 60_000

const ok = (ms: number): Verdict => ({ ok: true, summary: `fine in ${ms} ms`, report: { ms }, baseline: { answer: [String(ms)] } })
/** Monitor i's run k: failing twice in a row at some k (an alert opens, then recovers). */
const verdictOf = (i: number, k: number): Verdict => ((k + i) % 5 === 1 || (k + i) % 5 === 2 ? failedRun(`refused ${k}`, null) : ok(10 + i * 7 + k * 3))
const runOf = (id: string, i: number, k: number): RunRecord => ({
  monitorId: id,
  scheduledFor: T0 + k * 60_000 + i,
  startedAt: T0 + k * 60_000 + i + 5,
  durationMs: 10 + i * 7 + k * 3.3,
  verdict: verdictOf(i, k),
  runner: "t"
})

const monitorRow = (id: string) => ({
  id, org_id: "org_runs", name: id, kind: "http_check", target: "http://127.0.0.1:9/", interval_seconds: 60,
  conditions: "{}", channels: "[]", enabled: 1, failures_before_alert: 2, cooldown_minutes: 0, created_at: T0,
  updated_at: T0, next_run_at: T0, claimed_until: T0 + 60_000, consecutive_failures: 0
})

for (const kind of kinds) {
  describe(`monitor result batches on ${kind.name}`, () => {
    test("a batch of many runs stores what the same runs stored one at a time store", async () => {
      const db = instance(await kind.newDatabase())
      try {
        const one = Array.from({ length: MONITORS }, (_, i) => `mon_one_${i}`)
        const many = Array.from({ length: MONITORS }, (_, i) => `mon_many_${i}`)
        await db.sql((sql) => sql`INSERT INTO monitors ${sql.insert([...one, ...many].map(monitorRow))}`)

        const stepsOne: Array<RunStep> = []
        for (let k = 0; k < RUNS; k++) {
          for (let i = 0; i < MONITORS; i++) stepsOne.push(await db.run(recordRun(runOf(one[i], i, k))))
        }
        // Three runs of every monitor per batch, then a second result for an already stored due time.
        const stepsMany: Array<RunStep> = []
        for (let k = 0; k < RUNS; k += 3) {
          const batch: Array<RunRecord> = []
          for (let i = 0; i < MONITORS; i++) for (let j = k; j < k + 3; j++) batch.push(runOf(many[i], i, j))
          const steps = await db.run(recordRuns(batch))
          // back in (k, monitor) order, as the one-at-a-time runs were stored
          for (let j = 0; j < 3; j++) for (let i = 0; i < MONITORS; i++) stepsMany.push(steps[i * 3 + j])
        }
        expect(stepsMany).toEqual(stepsOne)
        expect(stepsOne.filter((s) => s === "open").length).toBeGreaterThan(3)
        expect(stepsOne.filter((s) => s === "recover").length).toBeGreaterThan(3)
        expect(await db.run(recordRuns([runOf(many[0], 0, 4), runOf(many[1], 1, RUNS)]))).toEqual(["duplicate", "recover"])
        await db.run(recordRun(runOf(one[1], 1, RUNS)))

        const state = (id: string) =>
          db.sql((sql) => sql<Record<string, unknown>>`SELECT last_run_at, last_ok, last_summary, consecutive_failures, baseline,
            open_alert_id IS NULL AS no_alert, claimed_until FROM monitors WHERE id = ${id}`).then((r) => r[0])
        const rollups = (id: string) =>
          db.sql((sql) => sql<{ day: number; runs: number; ok_runs: number; sketch: Uint8Array }>`SELECT day, runs, ok_runs, sketch
            FROM monitor_rollups WHERE monitor_id = ${id} ORDER BY day`).then((rows) =>
            rows.map((r) => {
              const s = Sketch.decode(r.sketch)
              return { day: Number(r.day), runs: Number(r.runs), ok_runs: Number(r.ok_runs), count: s.count, p50: Sketch.quantile(s, 0.5), max: s.max }
            }))
        const incidents = (id: string) =>
          db.sql((sql) => sql`SELECT started_at - ${T0} AS s, ended_at - ${T0} AS e FROM monitor_incidents WHERE monitor_id = ${id} ORDER BY started_at`)
        const alerts = (id: string) =>
          db.sql((sql) => sql`SELECT status, observed_value, resolution_notes FROM alerts WHERE monitor_id = ${id} ORDER BY triggered_at, status`)
        for (let i = 0; i < MONITORS; i++) {
          const s = await state(many[i])
          expect(s).toEqual(await state(one[i]))
          expect(s.claimed_until).toBeNull()
          const r = await rollups(many[i])
          expect(r).toEqual(await rollups(one[i]))
          expect(r.map((d) => d.runs)).toEqual(i === 1 ? [5, 8] : [5, 7]) // monitor 1 ran once more
          for (const d of r) expect(d.count).toBe(d.runs)
          expect(await incidents(many[i])).toEqual(await incidents(one[i]))
          expect(await alerts(many[i])).toEqual(await alerts(one[i]))
        }
        // the first monitor's duplicate run was not counted anywhere
        expect((await rollups(many[0])).reduce((n, d) => n + d.runs, 0)).toBe(RUNS)
      } finally {
        await db.stop()
      }
    }, 60_000)
  })
}
