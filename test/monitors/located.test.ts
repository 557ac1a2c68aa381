/**
 * Located monitors against a real (in-memory) SQLite store with TestClock moving time, the
 * locations made live by their heartbeats: `locations` and `quorum` checked (a location never
 * seen is 400); each location claims its own share of a due run, once; the combined state opens
 * and resolves alerts (with `locations_failing`) only when the quorum agrees; a location gone
 * stale turns the monitor `unknown` and opens nothing; a silent location is waited for until the
 * interval has passed; the uptime report's `by_location` counts the stored results. The same
 * with real instances in network namespaces on PostgreSQL: test/multi/locations.test.ts.
 */
import { describe, expect, test } from "bun:test"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, TestClock } from "effect"
import { Keys } from "../../src/product/accounts/Keys"
import { DnsResolver } from "../../src/adapters/dns/DnsResolver"
import { failedRun, type Verdict } from "../../src/product/monitors/model/analyze"
import { Monitors } from "../../src/product/monitors/Monitors"
import { recordRun } from "../../src/product/monitors/record"
import { claimDue, claimShares } from "../../src/product/monitors/claim"
import { beat } from "../../src/product/monitors/Locations"
import { closeRounds } from "../../src/product/monitors/rounds"
import { runTest, storeLayer } from "../analytics/support"

const NOW = Date.UTC(2026, 4, 20, 9, 0, 0)
const layer = Layer.mergeAll(Monitors.Default, Keys.Default).pipe(
  Layer.provideMerge(DnsResolver.Live),
  Layer.provideMerge(storeLayer({ dnsResolvers: [], monitorMinIntervalS: 1, allowPrivateTargets: true }, { directLog: true }))
)

const ok: Verdict = { ok: true, summary: "status 200 in 3 ms", report: {}, baseline: null }
const bad = (why: string): Verdict => failedRun(why, null)

/** Heartbeats of one instance in each of `locations`, now. */
const beatAll = (locations: ReadonlyArray<string>) =>
  Effect.forEach(locations, (l) => Effect.flatMap(TestClock.currentTimeMillis, (now) => beat(`i-${l}`, l, now)), { discard: true })

const setup = (locations: ReadonlyArray<string>, extra: { quorum?: number } = {}) =>
  Effect.gen(function*() {
    yield* beatAll(["a", "b", "c"])
    const org = yield* Effect.flatMap(Keys, (k) => k.upsertOrg("acme", "pro"))
    const monitors = yield* Monitors
    const { monitor } = yield* monitors.create(org, {
      name: "site", kind: "http_check", target: "http://127.0.0.1:9/", interval_seconds: 60, cooldown_minutes: 0,
      locations, ...extra
    })
    const sql = yield* SqlClient.SqlClient
    const anchor = Number((yield* sql<{ next_run_at: number }>`SELECT next_run_at FROM monitors WHERE id = ${monitor.id}`)[0].next_run_at)
    // The first run is jittered up to a minute after creation, as long as a heartbeat stays
    // live: every location beats again at the anchor, as running instances would have.
    yield* TestClock.setTime(anchor)
    yield* beatAll(["a", "b", "c"])
    return { org, monitors, id: monitor.id, anchor }
  })

/** Location `l` stores its run of the due run `due`. */
const report = (id: string, l: string, due: number, v: Verdict) =>
  Effect.flatMap(TestClock.currentTimeMillis, (now) =>
    recordRun({ monitorId: id, scheduledFor: due, startedAt: now, durationMs: 5, verdict: v, runner: `r-${l}`, location: l, share: true }))

const alertsOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; locations_failing: string | null; resolution_notes: string | null }>`
      SELECT status, locations_failing, resolution_notes FROM alerts WHERE monitor_id = ${id} ORDER BY triggered_at`)

describe("locations and quorum", () => {
  test("checked on create and patch: a never-seen location, a name twice, a quorum out of range are 400", () =>
    runTest(Effect.gen(function*() {
      const { org, monitors, id } = yield* setup(["a", "b"])
      const base = { name: "x", kind: "http_check" as const, target: "http://127.0.0.1:9/", interval_seconds: 60 }
      const refused = <R>(e: Effect.Effect<unknown, unknown, R>) => Effect.map(Effect.flip(e), (err) => (err as { _tag: string; message: string }))
      const never = yield* refused(monitors.create(org, { ...base, locations: ["a", "mars"] }))
      expect(never._tag).toBe("InvalidRequest")
      expect(never.message).toContain("mars")
      expect((yield* refused(monitors.create(org, { ...base, locations: ["a", "a"] })))._tag).toBe("InvalidRequest")
      expect((yield* refused(monitors.create(org, { ...base, locations: ["a", "b"], quorum: 3 })))._tag).toBe("InvalidRequest")
      expect((yield* refused(monitors.create(org, { ...base, quorum: 1 })))._tag).toBe("InvalidRequest")
      expect((yield* refused(monitors.update(org.id, id, { locations: ["b", "mars"] })))._tag).toBe("InvalidRequest")
      // a quorum set before must fit a shorter list
      yield* monitors.update(org.id, id, { locations: ["a", "b", "c"], quorum: 3 })
      expect((yield* refused(monitors.update(org.id, id, { locations: ["a", "b"] })))._tag).toBe("InvalidRequest")
      const m = yield* monitors.update(org.id, id, { locations: ["a", "b"], quorum: 1 })
      expect({ locations: m.locations, quorum: m.quorum }).toEqual({ locations: ["a", "b"], quorum: 1 })
      // the default quorum follows the list: a majority
      const d = yield* monitors.create(org, { ...base, locations: ["a", "b", "c"] })
      expect(d.monitor.quorum).toBe(2)
      const any = yield* monitors.create(org, base)
      expect({ locations: any.monitor.locations, quorum: any.monitor.quorum, state: any.monitor.state }).toEqual({ locations: [], quorum: 1, state: "unknown" })
    }), { layer, now: NOW }))
})

describe("claims per location", () => {
  test("each location claims its own share of a due run once; no other location and no any-location claim takes it", () =>
    runTest(Effect.gen(function*() {
      const { id, anchor } = yield* setup(["a", "b"])
      yield* TestClock.setTime(anchor)
      const a = yield* claimShares("a", 100, 60_000)
      expect(a.map((c) => [c.monitor.id, c.due, c.share])).toEqual([[id, anchor, "a"]])
      expect(yield* claimShares("a", 100, 60_000)).toEqual([])
      expect(yield* claimShares("c", 100, 60_000)).toEqual([])
      expect(yield* claimDue(100, 60_000)).toEqual([])
      const b = yield* claimShares("b", 100, 60_000)
      expect(b.map((c) => [c.monitor.id, c.due])).toEqual([[id, anchor]])
      // one interval on, each location's next due run, on the same cadence
      yield* TestClock.setTime(anchor + 60_000)
      yield* report(id, "a", anchor, ok)
      yield* report(id, "b", anchor, ok)
      expect((yield* claimShares("a", 100, 60_000)).map((c) => c.due)).toEqual([anchor + 60_000])
      expect((yield* claimShares("b", 100, 60_000)).map((c) => c.due)).toEqual([anchor + 60_000])
      // a second result of one due run in one location is dropped
      expect(yield* report(id, "a", anchor, bad("late twin"))).toBe("duplicate")
    }), { layer, now: NOW }))
})

describe("a located monitor's shares follow its edits", () => {
  test("a new interval or a resume moves every share to the new anchor; an added location joins the cadence; a pause stops all", () =>
    runTest(Effect.gen(function*() {
      const { org, monitors, id, anchor } = yield* setup(["a", "b"])
      const sql = yield* SqlClient.SqlClient
      const state = Effect.gen(function*() {
        const m = (yield* sql<{ next_run_at: number; interval_seconds: number }>`SELECT next_run_at, interval_seconds FROM monitors WHERE id = ${id}`)[0]
        const shares = yield* sql<{ location: string; next_run_at: number; enabled: number; interval_seconds: number }>`
          SELECT location, next_run_at, enabled, interval_seconds FROM monitor_shares WHERE monitor_id = ${id} ORDER BY location`
        return { anchor: Number(m.next_run_at), shares: shares.map((s) => [s.location, Number(s.next_run_at), Number(s.enabled), Number(s.interval_seconds)]) }
      })
      expect(yield* state).toEqual({ anchor, shares: [["a", anchor, 1, 60], ["b", anchor, 1, 60]] })
      // the same interval again changes nothing
      yield* monitors.update(org.id, id, { interval_seconds: 60, name: "renamed" })
      expect((yield* state).anchor).toBe(anchor)
      // a new interval: a new anchor for all
      yield* monitors.update(org.id, id, { interval_seconds: 120 })
      const moved = yield* state
      expect(moved.anchor).not.toBe(anchor)
      expect(moved.shares).toEqual([["a", moved.anchor, 1, 120], ["b", moved.anchor, 1, 120]])
      // an added location joins at the next due time on the cadence
      yield* TestClock.setTime(moved.anchor + 5 * 120_000 + 7_000)
      yield* monitors.update(org.id, id, { locations: ["a", "b", "c"] })
      expect((yield* state).shares[2]).toEqual(["c", moved.anchor + 6 * 120_000, 1, 120])
      // paused: no share is claimed; resumed: all on a fresh anchor
      yield* monitors.update(org.id, id, { enabled: false })
      yield* TestClock.setTime(moved.anchor + 10 * 120_000)
      expect(yield* claimShares("a", 100, 60_000)).toEqual([])
      yield* monitors.update(org.id, id, { enabled: true })
      const resumed = yield* state
      expect(resumed.shares.map((s) => s[1])).toEqual([resumed.anchor, resumed.anchor, resumed.anchor])
      // back to any one location: the shares go, the any-location claim takes it
      yield* monitors.update(org.id, id, { locations: [] })
      expect((yield* state).shares).toEqual([])
      yield* TestClock.setTime((yield* state).anchor)
      expect((yield* claimDue(100, 60_000)).map((c) => c.monitor.id)).toEqual([id])
    }), { layer, now: NOW }))
})

describe("the combined state drives the alerts", () => {
  test("quorum 2 of 3: one failing location opens nothing; two do, naming them; recovery resolves", () =>
    runTest(Effect.gen(function*() {
      const { org, monitors, id, anchor } = yield* setup(["a", "b", "c"])
      let due = anchor
      yield* TestClock.setTime(due + 1_000)
      expect(yield* report(id, "a", due, bad("status 500"))).toBe("none")
      expect(yield* report(id, "b", due, ok)).toBe("none")
      expect(yield* report(id, "c", due, ok)).toBe("none")
      expect(yield* alertsOf(id)).toEqual([])
      let m = yield* monitors.get(org.id, id)
      expect(m.state).toBe("ok")
      expect(m.location_status.map((s) => [s.location, s.live, s.ok])).toEqual([["a", true, false], ["b", true, true], ["c", true, true]])

      due += 60_000
      yield* TestClock.setTime(due + 1_000)
      yield* beatAll(["a", "b", "c"])
      yield* report(id, "a", due, bad("status 500"))
      // b's failure makes two, but c is live and has not reported: the run waits for it
      expect(yield* report(id, "b", due, bad("status 502"))).toBe("none")
      expect(yield* alertsOf(id)).toEqual([])
      expect(yield* report(id, "c", due, ok)).toBe("open")
      const [alert] = yield* alertsOf(id)
      expect(alert.status).toBe("pending")
      expect(JSON.parse(alert.locations_failing!)).toEqual(["a", "b"])
      m = yield* monitors.get(org.id, id)
      expect({ state: m.state, status: m.status }).toEqual({ state: "not_ok", status: "down" })

      due += 60_000
      yield* TestClock.setTime(due + 1_000)
      yield* beatAll(["a", "b", "c"])
      yield* report(id, "a", due, ok)
      yield* report(id, "b", due, ok)
      expect(yield* report(id, "c", due, ok)).toBe("recover")
      expect((yield* alertsOf(id)).map((a) => [a.status, a.resolution_notes])).toEqual([["resolved", "recovered"]])
      expect((yield* monitors.get(org.id, id)).state).toBe("ok")
    }), { layer, now: NOW }))

  test("quorum 1 alerts on one location's failure", () =>
    runTest(Effect.gen(function*() {
      const { id, anchor } = yield* setup(["a", "b", "c"], { quorum: 1 })
      yield* TestClock.setTime(anchor + 1_000)
      yield* report(id, "a", anchor, ok)
      yield* report(id, "b", anchor, bad("timeout"))
      expect(yield* report(id, "c", anchor, ok)).toBe("open")
      expect((yield* alertsOf(id)).map((a) => JSON.parse(a.locations_failing!))).toEqual([["b"]])
    }), { layer, now: NOW }))

  test("a location gone stale: fewer than the quorum live makes the monitor unknown, and no alert opens or resolves", () =>
    runTest(Effect.gen(function*() {
      const { org, monitors, id, anchor } = yield* setup(["a", "b"]) // quorum 2
      yield* TestClock.setTime(anchor + 1_000)
      yield* report(id, "a", anchor, bad("status 500"))
      expect(yield* report(id, "b", anchor, bad("status 500"))).toBe("open")
      // b stops beating; a goes on
      for (let k = 1; k <= 3; k++) {
        yield* TestClock.setTime(anchor + k * 60_000 + 1_000)
        yield* beatAll(["a"])
        yield* report(id, "a", anchor + k * 60_000, k === 3 ? ok : bad("status 500"))
      }
      const m = yield* monitors.get(org.id, id)
      expect(m.state).toBe("unknown")
      expect(m.location_status.map((s) => [s.location, s.live])).toEqual([["a", true], ["b", false]])
      // the open alert was neither resolved by a's ok run nor doubled by its failures
      expect((yield* alertsOf(id)).map((a) => a.status)).toEqual(["pending"])
      const sql = yield* SqlClient.SqlClient
      const row = (yield* sql<{ state: string; last_summary: string }>`SELECT state, last_summary FROM monitors WHERE id = ${id}`)[0]
      expect(row.state).toBe("unknown")
      expect(row.last_summary).toContain("fewer than the quorum of 2")
    }), { layer, now: NOW }))

  test("a live location that never reports is waited for until the interval has passed, then the run is decided", () =>
    runTest(Effect.gen(function*() {
      const { id, anchor } = yield* setup(["a", "b", "c"])
      yield* TestClock.setTime(anchor + 1_000)
      yield* report(id, "a", anchor, bad("status 500"))
      yield* report(id, "b", anchor, bad("status 500"))
      expect(yield* closeRounds()).toBe(0) // the interval has not passed
      expect(yield* alertsOf(id)).toEqual([])
      yield* TestClock.setTime(anchor + 60_000)
      yield* beatAll(["a", "b", "c"])
      expect(yield* closeRounds()).toBe(1)
      expect((yield* alertsOf(id)).map((a) => JSON.parse(a.locations_failing!))).toEqual([["a", "b"]])
      expect(yield* closeRounds()).toBe(0) // decided once
    }), { layer, now: NOW }))

  test("no location reports at all: the run closes unknown, nothing opens or resolves", () =>
    runTest(Effect.gen(function*() {
      const { org, monitors, id, anchor } = yield* setup(["a", "b"])
      yield* TestClock.setTime(anchor + 5 * 60_000)
      expect(yield* closeRounds()).toBe(1)
      expect((yield* monitors.get(org.id, id)).state).toBe("unknown")
      expect(yield* alertsOf(id)).toEqual([])
    }), { layer, now: NOW }))
})

describe("results and uptime by location", () => {
  test("each result names its location; by_location counts what each stored", () =>
    runTest(Effect.gen(function*() {
      const { org, monitors, id, anchor } = yield* setup(["a", "b", "c"])
      const sent = { a: 0, b: 0, c: 0, okA: 0 }
      for (let k = 0; k < 5; k++) {
        const due = anchor + k * 60_000
        yield* TestClock.setTime(due + 1_000)
        yield* beatAll(["a", "b", "c"])
        const aOk = k % 2 === 0
        yield* report(id, "a", due, aOk ? ok : bad("status 500"))
        sent.a++
        if (aOk) sent.okA++
        yield* report(id, "b", due, ok)
        sent.b++
        if (k < 3) {
          yield* report(id, "c", due, ok)
          sent.c++
        }
      }
      const { results } = yield* monitors.results(org.id, id, { limit: 100 })
      expect(results.length).toBe(sent.a + sent.b + sent.c)
      expect(new Set(results.map((r) => r.location))).toEqual(new Set(["a", "b", "c"]))
      const uptime = yield* monitors.uptime(org.id, id, "7d")
      expect(uptime.runs).toBe(sent.a + sent.b + sent.c)
      expect(uptime.by_location.map((l) => [l.location, l.runs, l.ok_runs])).toEqual([
        ["a", sent.a, sent.okA],
        ["b", sent.b, sent.b],
        ["c", sent.c, sent.c]
      ])
      expect(uptime.by_location[0].uptime_percentage).toBe(60)
    }), { layer, now: NOW }))
})
