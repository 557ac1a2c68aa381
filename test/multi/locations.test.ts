/**
 * Monitoring from several locations, end to end: three locations in network namespaces this
 * test creates (test/multi/lab/world.ts), two `serve` instances in location a and one each in b
 * and c, all on one PostgreSQL database; the monitor target in a hub namespace answers 500 to
 * chosen locations' source addresses only; webhook receivers beside it. Covered: the locations
 * and their instances; a never-seen location is 400; each due run made once per location (two
 * instances in a share its runs); one failing location does not alert with quorum 2, two do
 * (with `locations_failing`, in the alert and its webhook), recovery resolves, `quorum: 1`
 * alerts on one; instances killed by PID: a's survivor takes over, c goes stale and a monitor
 * needing it turns `unknown` without alerts; `by_location` agrees with the stored results.
 * Needs root (namespaces); the SQLite twin of the rules is test/monitors/located.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { type PostgresCluster, startPostgres } from "../support/postgres"
import { until } from "../support/process"
import { createKey } from "./support"
import { addressOf, type LabInstance, makeWorld } from "./lab/world"

const isRoot = typeof process.getuid === "function" && process.getuid() === 0
const LOCATIONS = ["a", "b", "c"]
const [A, B, C] = LOCATIONS.map((_, i) => addressOf(i))
/**
 * Short intervals keep the test short; 2 s, not 1: a due run is decided without a location whose
 * result comes after the interval, and on a loaded machine a run stored a second late happens.
 */
const INTERVAL_S = 2

let pg: PostgresCluster
let world: Awaited<ReturnType<typeof makeWorld>>
let db: string
let key: string
const instances: Record<string, LabInstance> = {}
const monitors: Record<string, string> = {}

const json = async (r: Response) => {
  const body = await r.json()
  if (!r.ok) throw new Error(`${r.status}: ${JSON.stringify(body)}`)
  return body as any
}
const api = (path: string, init: RequestInit = {}, via = "b1") =>
  instances[via].call(path, { ...init, key, headers: { "content-type": "application/json", ...init.headers } })
const sqlRows = (query: string) => pg.psql(db, query).trim().split("\n").filter((l) => l !== "").map((l) => l.split("|"))
const alertsOf = async (name: string) =>
  ((await json(await api("/v1/alerts/history?limit=500"))).alerts as Array<any>).filter((a) => a.monitor_id === monitors[name])
const monitor = async (name: string) => (await json(await api(`/v1/monitors/${monitors[name]}`))).monitor

beforeAll(async () => {
  if (!isRoot) return
  pg = await startPostgres()
  world = await makeWorld(LOCATIONS)
  const tcpUrl = await pg.createDatabase()
  db = tcpUrl.slice(tcpUrl.lastIndexOf("/") + 1)
  key = createKey(tcpUrl, "acme", "pro") // also applies the migrations
  // The namespaces reach the cluster through its unix socket only.
  const url = `postgres://postgres@/${db}?host=${encodeURIComponent(pg.socketDir)}&port=${pg.port}`
  const env = { MONITOR_MIN_INTERVAL_S: "1", ALERT_EVAL_INTERVAL_MS: "3600000", OPERATION_DEADLINE_MS: "5000" }
  const started = await Promise.all([["a1", "a"], ["a2", "a"], ["b1", "b"], ["c1", "c"]].map(async ([name, l]) =>
    [name, await world.start(l, url, env)] as const))
  for (const [name, instance] of started) instances[name] = instance
}, 120_000)

afterAll(async () => {
  if (!isRoot) return
  await Promise.all(Object.values(instances).map((i) => i.kill("SIGTERM")))
  world?.cleanup()
  await pg?.stop()
})

describe.skipIf(!isRoot)("three locations on one PostgreSQL", () => {
  test("GET /v1/locations: every location live, a with two instances; a location never seen is 400", async () => {
    const listed = await until(async () => {
      const { locations } = await json(await api("/v1/locations"))
      return locations.length === 3 && locations.every((l: any) => l.live) && locations[0].instances === 2 ? locations : undefined
    }, "three live locations", 30_000)
    expect(listed.map((l: any) => [l.name, l.instances, l.live])).toEqual([["a", 2, true], ["b", 1, true], ["c", 1, true]])
    for (const l of listed) expect(Date.now() - Date.parse(l.last_seen_at)).toBeLessThan(30_000)
    const refused = await api("/v1/monitors", {
      method: "POST",
      body: JSON.stringify({ name: "x", kind: "http_check", target: world.target("x"), interval_seconds: 60, locations: ["a", "mars"] })
    })
    expect(refused.status).toBe(400)
    const body = (await refused.json()) as any
    expect(body.error.code).toBe("invalid_request")
    expect(body.error.message).toContain("mars")
    for (const bad of [{ locations: ["EU"] }, { locations: ["a", "b"], quorum: 3 }, { locations: ["a", "a"] }]) {
      const r = await api("/v1/monitors", { method: "POST", body: JSON.stringify({ name: "x", kind: "http_check", target: world.target("x"), interval_seconds: 60, ...bad }) })
      expect(r.status).toBe(400)
      expect(((await r.json()) as any).error.code).toBe("invalid_request")
    }
    // GET /v1/locations counts in the category `monitors`
    await until(() => (sqlRows("SELECT category FROM request_log WHERE operation = 'listLocations' LIMIT 1")[0]?.[0] === "monitors" ? true : undefined), "the request log", 10_000)
  }, 60_000)

  test("quorum 2: one failing location opens nothing, two open an alert naming them; quorum 1 alerts on one", async () => {
    await world.failFor("one", [A])
    await world.failFor("two", [A, B])
    await world.failFor("q1", [C])
    await world.failFor("pair", [B])
    const create = async (name: string, locations: ReadonlyArray<string>, extra: Record<string, unknown> = {}) => {
      const { monitor } = await json(await api("/v1/monitors", {
        method: "POST",
        body: JSON.stringify({
          name, kind: "http_check", target: world.target(name), interval_seconds: INTERVAL_S, cooldown_minutes: 0, locations,
          channels: [{ type: "webhook", url: world.hook(name) }], ...extra
        })
      }))
      expect(monitor.locations).toEqual(locations)
      monitors[name] = monitor.id
      return monitor
    }
    expect((await create("steady", LOCATIONS)).quorum).toBe(2)
    await create("one", LOCATIONS)
    await create("two", LOCATIONS)
    expect((await create("q1", LOCATIONS, { quorum: 1 })).quorum).toBe(1)
    await create("pair", ["b", "c"])

    const [two] = await until(async () => ((await alertsOf("two")).length > 0 ? alertsOf("two") : undefined), "the alert of two", 30_000)
    expect(two.locations_failing).toEqual(["a", "b"])
    const [q1] = await until(async () => ((await alertsOf("q1")).length > 0 ? alertsOf("q1") : undefined), "the alert of q1", 30_000)
    expect(q1.locations_failing).toEqual(["c"])
    const [hook] = await until(async () => ((await world.hooks("two")).length > 0 ? world.hooks("two") : undefined), "the webhook of two", 30_000)
    expect(hook.body.event).toBe("monitor.failed")
    expect(hook.body.locations_failing).toEqual(["a", "b"])
    expect(hook.headers["webhook-signature"]).toMatch(/^v1,/)

    // some more runs everywhere, then: one failing location alerted nobody
    await until(() => (Number(sqlRows(`SELECT COUNT(*) FROM monitor_results WHERE monitor_id = '${monitors.one}' AND location = 'c'`)[0][0]) >= 6 ? true : undefined), "runs of one", 30_000)
    expect(await alertsOf("one")).toEqual([])
    expect(await world.hooks("one")).toEqual([])
    const one = await until(async () => {
      const m = await monitor("one")
      return m.state === "ok" ? m : undefined
    }, "one ok", 10_000)
    expect(sqlRows(`SELECT COUNT(*) FROM monitors WHERE id = '${monitors.one}' AND state = 'not_ok'`)[0][0]).toBe("0")
    expect(one.location_status.map((s: any) => [s.location, s.live, s.ok])).toEqual([["a", true, false], ["b", true, true], ["c", true, true]])
    await until(async () => ((await monitor("two")).state === "not_ok" ? true : undefined), "two not ok", 10_000)
    const results = (await json(await api(`/v1/monitors/${monitors.one}/results?limit=60`))).results as Array<any>
    for (const r of results) expect(r.ok).toBe(r.location !== "a")
  }, 90_000)

  test("recovery resolves the alert, once, and its webhook still names the failing locations", async () => {
    await world.failFor("two", [])
    const resolved = await until(async () => {
      const alerts = await alertsOf("two")
      return alerts.every((a) => a.status === "resolved") ? alerts : undefined
    }, "the recovery of two", 30_000)
    expect(resolved.map((a) => [a.resolution_notes, a.locations_failing])).toEqual([["recovered", ["a", "b"]]])
    const hooks = await until(async () => {
      const got = await world.hooks("two")
      return got.some((h) => h.body.event === "monitor.recovered") ? got : undefined
    }, "the recovered webhook", 30_000)
    expect(hooks.map((h) => h.body.event)).toEqual(["monitor.failed", "monitor.recovered"])
    expect(hooks[1].body.locations_failing).toEqual(["a", "b"])
    await until(async () => ((await monitor("two")).state === "ok" ? true : undefined), "two ok", 10_000)
  }, 60_000)

  test("instances killed mid-run: a's other instance takes over its runs; c goes stale and a monitor needing it is unknown, without alerts", async () => {
    const before = Number(sqlRows(`SELECT COUNT(DISTINCT runner) FROM monitor_results WHERE location = 'a'`)[0][0])
    expect(before).toBe(2) // both instances of a made runs
    const killedAt = Date.now()
    await instances.a1.kill("SIGKILL")
    await instances.c1.kill("SIGKILL")
    // c goes stale, and a counts one instance, 60 s after each one's last heartbeat before the kill
    const stale = await until(async () => {
      const { locations } = await json(await api("/v1/locations"))
      const [a, c] = ["a", "c"].map((n) => locations.find((l: any) => l.name === n))
      return c?.live === false && a?.instances === 1 ? locations : undefined
    }, "c stale, a down to one instance", 90_000)
    // stale 60 s after its last heartbeat, which came before the kill
    const lastSeen = Date.parse(stale.find((l: any) => l.name === "c").last_seen_at)
    expect(lastSeen).toBeLessThanOrEqual(killedAt)
    expect(Date.now() - lastSeen).toBeGreaterThanOrEqual(59_000)
    expect(stale.map((l: any) => [l.name, l.instances, l.live])).toEqual([["a", 1, true], ["b", 1, true], ["c", 0, false]])
    // pair lists b and c (quorum 2): with c stale it is unknown, and b's failures alerted nobody
    await until(async () => ((await monitor("pair")).state === "unknown" ? true : undefined), "pair unknown", 10_000)
    const pair = await monitor("pair")
    expect(pair.location_status.map((s: any) => [s.location, s.live])).toEqual([["b", true], ["c", false]])
    expect(await alertsOf("pair")).toEqual([])
    // one (a failing, quorum 2) never alerted, before, while c died, or after
    expect(await alertsOf("one")).toEqual([])
    // a's survivor makes a's runs: after the dead instance's leases lapsed, a's results go on
    const recentA = await until(() => {
      const n = Number(sqlRows(`SELECT COUNT(*) FROM monitor_results WHERE monitor_id = '${monitors.steady}' AND location = 'a'
        AND started_at > ${Date.now() - 5_000}`)[0][0])
      return n >= 2 ? n : undefined
    }, "a's runs after the kill", 60_000)
    expect(recentA).toBeGreaterThanOrEqual(2)
    // a and b still agree that steady is ok (c's silence is below its quorum of 2)
    await until(async () => ((await monitor("steady")).state === "ok" ? true : undefined), "steady ok", 10_000)
  }, 150_000)

  test("exactly once per location, target hits = results, and by_location agrees with the stored results", async () => {
    for (const name of Object.keys(monitors)) await json(await api(`/v1/monitors/${monitors[name]}`, { method: "PATCH", body: JSON.stringify({ enabled: false }) }))
    await Bun.sleep(3_000) // runs in flight are stored
    // one result per monitor, due time and location (the unique key would refuse a second),
    // and per location the due times whole intervals apart
    const gaps = sqlRows(`SELECT scheduled_for - LAG(scheduled_for) OVER (PARTITION BY monitor_id, location ORDER BY scheduled_for) FROM monitor_results`)
      .map(([g]) => g).filter((g) => g !== "").map(Number)
    expect(gaps.length).toBeGreaterThan(100)
    for (const g of gaps) expect(g > 0 && g % (INTERVAL_S * 1000) === 0).toBe(true)
    // the target saw each location as often as that location stored a result (a run cut by a
    // kill may have reached it without storing: at most one per monitor and killed instance)
    const hits = await world.hits()
    const address: Record<string, string> = { a: A, b: B, c: C }
    for (const [name, id] of Object.entries(monitors)) {
      for (const [location, n] of sqlRows(`SELECT location, COUNT(*) FROM monitor_results WHERE monitor_id = '${id}' GROUP BY location`)) {
        const served = hits[`${name}|${address[location]}`] ?? 0
        expect(served - Number(n)).toBeGreaterThanOrEqual(0)
        expect(served - Number(n)).toBeLessThanOrEqual(location === "b" ? 0 : 1)
      }
    }
    const uptime = await json(await api(`/v1/monitors/${monitors.steady}/uptime?period=7d`))
    const stored = sqlRows(`SELECT location, COUNT(*), SUM(ok) FROM monitor_results WHERE monitor_id = '${monitors.steady}' GROUP BY location ORDER BY location`)
    expect(uptime.by_location.map((l: any) => [l.location, String(l.runs), String(l.ok_runs)])).toEqual(stored)
    expect(uptime.runs).toBe(stored.reduce((n, [, c]) => n + Number(c), 0))
    const one = await json(await api(`/v1/monitors/${monitors.one}/uptime?period=7d`))
    expect(one.by_location.find((l: any) => l.location === "a").ok_runs).toBe(0)
    expect(one.by_location.find((l: any) => l.location === "b").uptime_percentage).toBe(100)
  }, 60_000)
})
