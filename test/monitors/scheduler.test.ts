/**
 * The scheduler's claim against a real (in-memory) SQLite store with TestClock moving time:
 * each due run is claimed once, the cadence does not drift, a claimed run is not claimed again
 * while it runs, a long outage is not caught up (one jittered run instead of a burst), paused
 * monitors are never claimed; and the run state with its alert transition across runs.
 */
import { describe, expect, test } from "bun:test"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, TestClock } from "effect"
import { Keys } from "../../src/product/accounts/Keys"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { failedRun, type Verdict } from "../../src/product/monitors/analyze"
import { Monitors } from "../../src/product/monitors/Monitors"
import { recordRun } from "../../src/product/monitors/record"
import { claimDue, pruneResults } from "../../src/product/monitors/Scheduler"
import { runTest, storeLayer } from "../analytics/support"

const NOW = Date.UTC(2026, 4, 20, 9, 0, 0)
const layer = Layer.mergeAll(Monitors.Default, Keys.Default).pipe(
  Layer.provideMerge(DnsResolver.Live),
  Layer.provideMerge(storeLayer({ dnsResolvers: [], monitorMinIntervalS: 1, allowPrivateTargets: true }, { directLog: true }))
)

const setup = (n: number, interval = 60) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const monitors = yield* Monitors
    const org = yield* keys.upsertOrg("acme", "pro")
    const ids: Array<string> = []
    for (let i = 0; i < n; i++) {
      const { monitor } = yield* monitors.create(org, {
        name: `m${i}`, kind: "http_check", target: "http://127.0.0.1:9/", interval_seconds: interval, cooldown_minutes: 0,
        failures_before_alert: 2
      })
      ids.push(monitor.id)
    }
    return { org, ids, monitors }
  })

const claimAll = Effect.map(claimDue(1000), (c) => c.map((x) => ({ id: x.monitor.id, due: x.due })))
const release = (ids: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE monitors SET claimed_until = NULL WHERE id IN ${sql.in(ids as Array<string>)}`)

describe("claimDue", () => {
  test("first runs spread over the first interval; each due run is claimed once; cadence does not drift", () =>
    runTest(Effect.gen(function*() {
      const { ids } = yield* setup(20, 60)
      const seen = new Map<string, number>()
      // over the first minute every monitor becomes due exactly once, at different times
      for (let s = 0; s < 60; s++) {
        yield* TestClock.adjust("1 second")
        for (const c of yield* claimAll) {
          expect(seen.has(c.id)).toBe(false)
          seen.set(c.id, c.due)
        }
        yield* release([...seen.keys()])
      }
      expect(seen.size).toBe(20)
      expect(new Set([...seen.values()]).size).toBeGreaterThan(5) // spread, not one burst
      // the next round: due exactly one interval after the first
      const second = new Map<string, number>()
      for (let s = 0; s < 60; s++) {
        yield* TestClock.adjust("1 second")
        for (const c of yield* claimAll) second.set(c.id, c.due)
        yield* release(ids)
      }
      expect(second.size).toBe(20)
      for (const id of ids) expect(second.get(id)! - seen.get(id)!).toBe(60_000)
    }), { layer, now: NOW }))

  test("a claimed run is not claimed again while it runs; two claimers never get the same run", () =>
    runTest(Effect.gen(function*() {
      const { ids } = yield* setup(10, 1)
      yield* TestClock.adjust("1 second") // everything due (first runs fall within the first interval)
      const [a, b] = yield* Effect.all([claimDue(1000), claimDue(1000)], { concurrency: 2 })
      expect(a.length + b.length).toBe(10)
      expect(new Set([...a, ...b].map((c) => c.monitor.id)).size).toBe(10)
      yield* TestClock.adjust("1 second") // due again, but still claimed (running)
      expect(yield* claimAll).toEqual([])
      yield* release(ids)
      expect((yield* claimAll).length).toBe(10)
    }), { layer, now: NOW }))

  test("after an outage longer than the interval: no catch-up burst, one jittered run each", () =>
    runTest(Effect.gen(function*() {
      const { ids } = yield* setup(30, 60)
      yield* TestClock.adjust("1 hour") // the service was down: 60 runs missed per monitor
      const now = NOW + 3_600_000
      expect(yield* claimAll).toEqual([]) // none run now; all rescheduled
      const sql = yield* SqlClient.SqlClient
      const next = (yield* sql<{ next_run_at: number }>`SELECT next_run_at FROM monitors`).map((r) => Number(r.next_run_at))
      for (const t of next) {
        expect(t).toBeGreaterThanOrEqual(now)
        expect(t).toBeLessThan(now + 60_000)
      }
      let runs = 0
      for (let s = 0; s < 60; s++) {
        yield* TestClock.adjust("1 second")
        runs += (yield* claimAll).length
        yield* release(ids)
      }
      expect(runs).toBe(30) // once each over the next minute, not 60 × 30
    }), { layer, now: NOW }))

  test("paused monitors are never claimed; re-enabled they run within their interval", () =>
    runTest(Effect.gen(function*() {
      const { org, ids, monitors } = yield* setup(1, 5)
      yield* monitors.update(org.id, ids[0], { enabled: false })
      yield* TestClock.adjust("1 minute")
      expect(yield* claimAll).toEqual([])
      yield* monitors.update(org.id, ids[0], { enabled: true })
      yield* TestClock.adjust("5 seconds")
      expect((yield* claimAll).map((c) => c.id)).toEqual(ids)
    }), { layer, now: NOW }))
})

describe("run state and alert transitions", () => {
  const ok: Verdict = { ok: true, summary: "fine", report: {}, baseline: null }
  const bad = failedRun("connection refused", null)
  const run = (monitorId: string, v: Verdict, scheduledFor: number) =>
    Effect.flatMap(Effect.clockWith((c) => c.currentTimeMillis), (now) =>
      recordRun({ monitorId, scheduledFor, startedAt: now, durationMs: 5, verdict: v, runner: "t" }))

  test("N consecutive failures open one alert; ok resolves it as recovered; a hand-resolved alert stays resolved", () =>
    runTest(Effect.gen(function*() {
      const { ids } = yield* setup(1, 60)
      const id = ids[0]
      const sql = yield* SqlClient.SqlClient
      const steps: Array<string> = []
      let t = NOW
      for (const v of [ok, bad, ok, bad, bad, bad, ok]) {
        yield* TestClock.adjust("1 minute")
        steps.push(yield* run(id, v, (t += 60_000)))
      }
      // failures_before_alert = 2: the single failure pages nobody; the second in a row opens
      expect(steps).toEqual(["none", "none", "none", "none", "open", "none", "recover"])
      const alerts = yield* sql<{ status: string; resolution_notes: string; source: string; monitor_id: string }>`
        SELECT status, resolution_notes, source, monitor_id FROM alerts`
      expect(alerts).toEqual([{ status: "resolved", resolution_notes: "recovered", source: "monitor", monitor_id: id }])
      // a duplicate result for the same scheduled run is refused by the store
      const dup = yield* Effect.either(run(id, ok, t))
      expect(dup._tag).toBe("Left")

      // resolved by hand while still failing: no second alert until it recovers and fails again
      for (const v of [bad, bad]) {
        yield* TestClock.adjust("1 minute")
        yield* run(id, v, (t += 60_000))
      }
      yield* sql`UPDATE alerts SET status = 'resolved', resolution_notes = 'by hand' WHERE status = 'pending'`
      for (const v of [bad, bad, ok]) {
        yield* TestClock.adjust("1 minute")
        steps.push(yield* run(id, v, (t += 60_000)))
      }
      expect(steps.slice(-3)).toEqual(["none", "none", "recover"])
      const notes = (yield* sql<{ resolution_notes: string }>`SELECT resolution_notes FROM alerts ORDER BY triggered_at`)
        .map((r) => r.resolution_notes)
      expect(notes).toEqual(["recovered", "by hand"])
      // failed / recovered are queued for the monitor's channels (none here) — nothing in the outbox
      expect(yield* sql`SELECT * FROM alert_outbox`).toEqual([])
    }), { layer, now: NOW }))

  test("cooldown: a new incident within cooldown_minutes of the last alert pages nobody", () =>
    runTest(Effect.gen(function*() {
      const { org, ids, monitors } = yield* setup(1, 60)
      const id = ids[0]
      yield* monitors.update(org.id, id, { cooldown_minutes: 10, failures_before_alert: 1 })
      let t = NOW
      const steps: Array<string> = []
      for (const v of [bad, ok, bad, ok]) {
        yield* TestClock.adjust("1 minute")
        steps.push(yield* run(id, v, (t += 60_000)))
      }
      yield* TestClock.adjust("10 minutes")
      steps.push(yield* run(id, bad, (t += 60_000)))
      expect(steps).toEqual(["open", "recover", "none", "none", "open"])
    }), { layer, now: NOW }))
})

describe("retention", () => {
  test("results older than MONITOR_RESULT_RETENTION_DAYS are pruned", () =>
    runTest(Effect.gen(function*() {
      const { ids } = yield* setup(1, 60)
      const ok: Verdict = { ok: true, summary: "fine", report: {}, baseline: null }
      yield* recordRun({ monitorId: ids[0], scheduledFor: NOW, startedAt: NOW, durationMs: 1, verdict: ok, runner: "t" })
      yield* TestClock.adjust("34 days")
      yield* recordRun({ monitorId: ids[0], scheduledFor: NOW + 1, startedAt: NOW + 34 * 86_400_000, durationMs: 1, verdict: ok, runner: "t" })
      yield* pruneResults
      const sql = yield* SqlClient.SqlClient
      expect((yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM monitor_results`)[0].n).toBe(2)
      yield* TestClock.adjust("2 days") // the first is now 36 days old (retention 35)
      yield* pruneResults
      expect((yield* sql<{ scheduled_for: number }>`SELECT scheduled_for FROM monitor_results`).map((r) => r.scheduled_for)).toEqual([NOW + 1])
    }), { layer, now: NOW }))
})
