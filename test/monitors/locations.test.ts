/**
 * Locations, the pure rules and the heartbeat: the combined state of a due run (results in,
 * state out) as a table; a location's staleness from its heartbeats with TestClock moving time
 * over a real (in-memory) SQLite store.
 */
import { describe, expect, test } from "bun:test"
import { SqlClient } from "@effect/sql"
import { Effect, Exit, Scope, TestClock } from "effect"
import { AppConfig } from "../../src/platform/Config"
import { beat, heartbeat, listLocations, liveLocations } from "../../src/product/monitors/Locations"
import { combine, combinedSummary, isLive, lastClosedRun, locationsProblem, majority, type RunReports } from "../../src/product/monitors/model/locations"
import { runTest, storeLayer } from "../analytics/support"

const NOW = Date.UTC(2026, 4, 20, 9, 0, 0)

const reports = (r: Record<string, boolean>) => new Map(Object.entries(r))
const run = (over: Partial<RunReports>): RunReports => ({
  locations: ["a", "b", "c"],
  quorum: 2,
  reports: new Map(),
  live: new Set(["a", "b", "c"]),
  closed: false,
  ...over
})

describe("the combined state of a due run", () => {
  const cases: ReadonlyArray<readonly [string, Partial<RunReports>, ReturnType<typeof combine>]> = [
    ["all three ok", { reports: reports({ a: true, b: true, c: true }) }, { decided: true, state: "ok", failing: [] }],
    ["one of three fails, quorum 2: ok", { reports: reports({ a: false, b: true, c: true }) }, { decided: true, state: "ok", failing: ["a"] }],
    ["two of three fail, quorum 2: not ok", { reports: reports({ a: false, b: false, c: true }) }, { decided: true, state: "not_ok", failing: ["a", "b"] }],
    ["one fails, quorum 1: not ok", { quorum: 1, reports: reports({ a: true, b: false, c: true }) }, { decided: true, state: "not_ok", failing: ["b"] }],
    ["a live location has not reported: wait", { reports: reports({ a: false, b: false }) }, { decided: false }],
    ["…until the interval has passed", { reports: reports({ a: false, b: false }), closed: true }, { decided: true, state: "not_ok", failing: ["a", "b"] }],
    ["a stale location is not waited for", { reports: reports({ a: true, b: true }), live: new Set(["a", "b"]) }, { decided: true, state: "ok", failing: [] }],
    ["fewer than quorum live: unknown", { reports: reports({ a: false }), live: new Set(["a"]) }, { decided: true, state: "unknown", failing: ["a"] }],
    ["two listed, one live, default quorum 2: unknown", { locations: ["a", "b"], reports: reports({ a: true }), live: new Set(["a"]) }, { decided: true, state: "unknown", failing: [] }],
    ["a location that reported counts as live for its run", { reports: reports({ a: false, b: false }), live: new Set(["c"]) }, { decided: false }],
    ["nothing reported, all stale, interval passed: unknown", { live: new Set(), closed: true }, { decided: true, state: "unknown", failing: [] }],
    ["nothing reported, all live, interval passed: unknown (a silence resolves nothing)", { closed: true }, { decided: true, state: "unknown", failing: [] }],
    ["one fails, one silent, interval passed, quorum 2: unknown (the silent one could tip it)", { reports: reports({ a: false, b: true }), closed: true }, { decided: true, state: "unknown", failing: ["a"] }],
    ["two ok, one silent, interval passed, quorum 2: ok (one more failure could not reach it)", { reports: reports({ a: true, b: true }), closed: true }, { decided: true, state: "ok", failing: [] }],
    ["a report from an unlisted location is ignored", { locations: ["a", "b"], reports: reports({ a: true, b: true, z: false }) }, { decided: true, state: "ok", failing: [] }]
  ]
  for (const [name, input, expected] of cases) test(name, () => expect(combine(run(input))).toEqual(expected))

  test("summaries name the failing locations and what they saw", () => {
    const r = run({ reports: reports({ a: false, b: false, c: true }) })
    const c = combine(r)
    if (!c.decided) throw new Error("expected a decision")
    expect(combinedSummary(r, c, new Map([["a", "status 500 is not 2xx"], ["b", "status 502 is not 2xx"]])))
      .toBe("not ok in 2 of 3 locations (quorum 2): a: status 500 is not 2xx; b: status 502 is not 2xx")
  })

  test("quorum: a majority by default; locations once each; 1..n", () => {
    expect([1, 2, 3, 4, 5].map(majority)).toEqual([1, 2, 2, 3, 3])
    expect(locationsProblem(["a", "b"], null)).toBeUndefined()
    expect(locationsProblem(["a", "a"], null)).toContain("twice")
    expect(locationsProblem(["a", "b"], 3)).toContain("between 1 and 2")
    expect(locationsProblem([], 1)).toContain("needs locations")
    expect(locationsProblem(["a"], 1)).toBeUndefined()
  })

  test("the last due run whose interval has passed", () => {
    expect(lastClosedRun(1_000, 60_000, 60_999)).toBeNull()
    expect(lastClosedRun(1_000, 60_000, 61_000)).toBe(1_000)
    expect(lastClosedRun(1_000, 60_000, 180_999)).toBe(61_000)
  })
})

describe("staleness", () => {
  test("live while seen within 60 s", () => {
    expect(isLive(NOW, NOW + 59_999)).toBe(true)
    expect(isLive(NOW, NOW + 60_000)).toBe(false)
  })

  test("an instance beats at start and every 15 s; its location turns stale 60 s after the last beat (TestClock)", () =>
    runTest(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const scope = yield* Scope.make()
      yield* Effect.provide(Scope.extend(heartbeat, scope), AppConfig.make({ instanceLocation: "eu-west" }))
      expect([...(yield* liveLocations(sql))]).toEqual(["eu-west"])
      // beats at +15, +30, +45 s
      yield* TestClock.adjust("50 seconds")
      const seen = yield* sql<{ last_seen_at: number }>`SELECT last_seen_at FROM instances`
      expect(Number(seen[0].last_seen_at)).toBe(NOW + 45_000)
      expect((yield* listLocations(sql)).locations).toEqual([
        { name: "eu-west", instances: 1, last_seen_at: new Date(NOW + 45_000).toISOString(), live: true }
      ])
      // a graceful stop forgets the instance; the location stays known and turns stale in time
      yield* Scope.close(scope, Exit.void)
      yield* TestClock.adjust("54 seconds") // +104 s: 59 s after the last beat
      expect((yield* listLocations(sql)).locations).toEqual([
        { name: "eu-west", instances: 0, last_seen_at: new Date(NOW + 45_000).toISOString(), live: true }
      ])
      yield* TestClock.adjust("1 second") // +105 s: 60 s after it
      expect((yield* listLocations(sql)).locations[0].live).toBe(false)
      expect((yield* liveLocations(sql)).size).toBe(0)
    }), { layer: storeLayer(), now: NOW }))

  test("a location's last heartbeat never goes backwards (instances' clocks differ a little)", () =>
    runTest(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* beat("i1", "us-east", NOW)
      yield* TestClock.setTime(NOW - 5_000)
      yield* beat("i2", "us-east", NOW)
      const rows = yield* sql<{ last_seen_at: number }>`SELECT last_seen_at FROM locations WHERE name = 'us-east'`
      expect(Number(rows[0].last_seen_at)).toBe(NOW)
      expect((yield* listLocations(sql)).locations[0].instances).toBe(2)
    }), { layer: storeLayer(), now: NOW }))
})

// The monitor side (claims per location, decisions, alerts, by_location): test/monitors/located.test.ts.
