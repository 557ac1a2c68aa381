/**
 * Results stored before migration 0060 (no rollups, no incidents) are added to the rollups and
 * incidents by the maintenance pass, once, and the uptime report then counts them; a run stored
 * after the migration ends an incident the old results left open.
 */
import { expect, test } from "bun:test"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, TestClock } from "effect"
import { Keys } from "../../src/product/accounts/Keys"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import type { Verdict } from "../../src/product/monitors/model/analyze"
import { Monitors } from "../../src/product/monitors/Monitors"
import { recordRun } from "../../src/product/monitors/record"
import { backfillRollups } from "../../src/product/monitors/maintenance"
import { runTest, storeLayer } from "../analytics/support"

const NOW = Date.UTC(2026, 4, 20, 9, 0, 0)
const DAY = 86_400_000
const layer = Layer.mergeAll(Monitors.Default, Keys.Default).pipe(
  Layer.provideMerge(DnsResolver.Live),
  Layer.provideMerge(storeLayer({ dnsResolvers: [], monitorMinIntervalS: 1, allowPrivateTargets: true }, { directLog: true }))
)

test("old results become rollups and incidents once; the uptime report counts them", () =>
  runTest(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const keys = yield* Keys
    const monitors = yield* Monitors
    const org = yield* keys.upsertOrg("old", "pro")
    const { monitor } = yield* monitors.create(org, { name: "old", kind: "http_check", target: "http://127.0.0.1:9/", interval_seconds: 60 })
    // As a store migrated from 0050 holds them: results only, the monitor marked for backfill.
    const old = [[-3, 1, 10], [-2, 0, 20], [-2, 0, 30], [-1, 1, 40], [0, 0, 50]] as const
    for (const [d, ok, ms] of old) {
      const at = NOW + d * DAY + ms
      yield* sql`INSERT INTO monitor_results ${sql.insert({
        id: `res_${String(at).padStart(15, "0")}_aa`, monitor_id: monitor.id, org_id: org.id, scheduled_for: at, started_at: at,
        duration_ms: ms, ok, summary: "old", report: "{}", runner: "old"
      })}`
    }
    // migrated at NOW + 1 s: every older result is to be added, later ones are written with their rollups
    yield* sql`UPDATE monitors SET rollups_backfill_before = ${NOW + 1000}, last_ok = 0 WHERE id = ${monitor.id}`
    yield* TestClock.adjust("1 hour")
    // a run after the migration, ok: ends the incident the last old result began
    const ok: Verdict = { ok: true, summary: "fine", report: {}, baseline: null }
    yield* recordRun({ monitorId: monitor.id, scheduledFor: NOW + 3_600_000, startedAt: NOW + 3_600_000, durationMs: 60, verdict: ok, runner: "new" })

    expect(yield* backfillRollups()).toBe(1)
    expect(yield* backfillRollups()).toBe(0) // once
    const rollups = yield* sql<{ day: number; runs: number; ok_runs: number }>`SELECT day, runs, ok_runs FROM monitor_rollups ORDER BY day`
    expect(rollups.map((r) => [Number(r.day), Number(r.runs), Number(r.ok_runs)])).toEqual([
      [NOW - 3 * DAY - 9 * 3_600_000, 1, 1],
      [NOW - 2 * DAY - 9 * 3_600_000, 2, 0],
      [NOW - DAY - 9 * 3_600_000, 1, 1],
      [NOW - 9 * 3_600_000, 2, 1] // the old failed run and the new ok one
    ])
    const u = yield* monitors.uptime(org.id, monitor.id, "7d")
    expect(u).toMatchObject({
      runs: 6,
      ok_runs: 3,
      incidents: [
        { started_at: new Date(NOW - 2 * DAY + 20).toISOString(), ended_at: new Date(NOW - DAY + 40).toISOString() },
        { started_at: new Date(NOW + 50).toISOString(), ended_at: new Date(NOW + 3_600_000).toISOString() }
      ]
    })
  }), { layer, now: NOW }))
