/**
 * The scheduler's claim against a real (in-memory) SQLite store with TestClock moving time:
 * each due run is claimed once, the cadence does not drift, a claimed run is not claimed again
 * while it runs, after a long outage each monitor runs once (missed runs are not replayed) and
 * keeps its phase, paused monitors are never claimed; the run state with its alert transition
 * across runs; retention with the uptime report kept by the rollups.
 */
import { describe, expect, test } from "bun:test"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, TestClock } from "effect"
import { Keys } from "../../src/product/accounts/Keys"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { failedRun, type Verdict } from "../../src/product/monitors/model/analyze"
import { Monitors } from "../../src/product/monitors/Monitors"
import { recordRun } from "../../src/product/monitors/record"
import { claimDue } from "../../src/product/monitors/claim"
import { pruneMonitorData } from "../../src/product/monitors/maintenance"
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

const claimAll = Effect.map(claimDue(1000, 60_000), (c) => c.map((x) => ({ id: x.monitor.id, due: x.due })))
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
      const [a, b] = yield* Effect.all([claimDue(1000, 60_000), claimDue(1000, 60_000)], { concurrency: 2 })
      expect(a.length + b.length).toBe(10)
      expect(new Set([...a, ...b].map((c) => c.monitor.id)).size).toBe(10)
      yield* TestClock.adjust("1 second") // due again, but still claimed (running)
      expect(yield* claimAll).toEqual([])
      yield* release(ids)
      expect((yield* claimAll).length).toBe(10)
    }), { layer, now: NOW }))

  test("after an outage longer than the interval: one run each (no replay of missed runs), then the same phase", () =>
    runTest(Effect.gen(function*() {
      const { ids } = yield* setup(30, 60)
      const sql = yield* SqlClient.SqlClient
      const phase = new Map((yield* sql<{ id: string; next_run_at: number }>`SELECT id, next_run_at FROM monitors`)
        .map((r) => [r.id, Number(r.next_run_at)]))
      yield* TestClock.adjust("1 hour") // the service was down: 60 runs missed per monitor
      const now = NOW + 3_600_000
      const caught = yield* claimAll
      expect(caught.length).toBe(30) // each monitor once, at once, for its oldest missed due time
      for (const c of caught) expect(c.due).toBe(phase.get(c.id)!)
      const next = yield* sql<{ id: string; next_run_at: number }>`SELECT id, next_run_at FROM monitors`
      for (const r of next) {
        const t = Number(r.next_run_at)
        expect(t).toBeGreaterThan(now)
        expect(t).toBeLessThanOrEqual(now + 60_000)
        expect((t - phase.get(r.id)!) % 60_000).toBe(0) // the jittered phase is kept
      }
      yield* release(ids)
      let runs = 0
      for (let s = 0; s < 60; s++) {
        yield* TestClock.adjust("1 second")
        runs += (yield* claimAll).length
        yield* release(ids)
      }
      expect(runs).toBe(30) // once each over the next minute, not 60 × 30
    }), { layer, now: NOW }))

  test("a claim takes at most `limit`; the oldest due first; the rest on the next claim", () =>
    runTest(Effect.gen(function*() {
      yield* setup(25, 1)
      yield* TestClock.adjust("2 seconds")
      const first = yield* claimDue(10, 60_000)
      expect(first.length).toBe(10)
      const rest = yield* claimDue(100, 60_000)
      expect(rest.length).toBe(15)
      expect(Math.max(...first.map((c) => c.due))).toBeLessThanOrEqual(Math.min(...rest.map((c) => c.due)))
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
      // a second result for the same scheduled run is dropped by the store, state untouched
      const before = yield* sql`SELECT * FROM monitors WHERE id = ${id}`
      expect(yield* run(id, bad, t)).toBe("duplicate")
      expect(yield* sql`SELECT * FROM monitors WHERE id = ${id}`).toEqual(before)
      expect((yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM monitor_results WHERE scheduled_for = ${t}`)[0].n).toBe(1)

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
  test("raw results older than MONITOR_RESULTS_RETENTION_DAYS are pruned; the 30d uptime report stays the same", () =>
    runTest(Effect.gen(function*() {
      const { org, ids, monitors } = yield* setup(1, 60)
      const sql = yield* SqlClient.SqlClient
      const ok: Verdict = { ok: true, summary: "fine", report: {}, baseline: null }
      const bad = failedRun("refused", null)
      // one run a day for 10 days, the 4th failing
      for (let d = 0; d < 10; d++) {
        if (d > 0) yield* TestClock.adjust("1 day")
        yield* recordRun({ monitorId: ids[0], scheduledFor: NOW + d, startedAt: NOW + d * 86_400_000, durationMs: 10 + d, verdict: d === 3 ? bad : ok, runner: "t" })
      }
      const before = yield* monitors.uptime(org.id, ids[0], "30d")
      expect(before).toMatchObject({ runs: 10, ok_runs: 9, incidents: [{ started_at: new Date(NOW + 3 * 86_400_000).toISOString(), ended_at: new Date(NOW + 4 * 86_400_000).toISOString() }] })
      const pruned = yield* pruneMonitorData
      expect(pruned.results).toBe(2) // days 0 and 1 are more than 7 days old (retention 7)
      expect((yield* sql<{ scheduled_for: number }>`SELECT scheduled_for FROM monitor_results ORDER BY scheduled_for`).map((r) => Number(r.scheduled_for)))
        .toEqual([2, 3, 4, 5, 6, 7, 8, 9].map((d) => NOW + d))
      expect(yield* monitors.uptime(org.id, ids[0], "30d")).toEqual(before)
      // 7d: today (day 9) and the 6 days before it (from day 3, the failed run)
      expect(yield* monitors.uptime(org.id, ids[0], "7d")).toMatchObject({ runs: 7, ok_runs: 6, incidents: before.incidents })
      yield* TestClock.adjust("45 days") // rollups and ended incidents go after 40 days
      expect(yield* pruneMonitorData).toEqual({ results: 8, rollups: 10, incidents: 1 })
    }), { layer, now: NOW }))
})
