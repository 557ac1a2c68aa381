/**
 * Two service processes on one PostgreSQL database (docs/postgres.md, "Tests"): requests spread
 * over both add up, a free organization gets exactly its quota through both, an alert resolved
 * concurrently through both is resolved once, the evaluator fires once per condition, /readyz
 * follows the database, and a killed instance loses nothing committed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { type FakeCrtSh, makeRows, startCrtSh } from "../ct/crtsh"
import { type PostgresCluster, startPostgres } from "../support/postgres"
import { until } from "../support/process"
import { spawnSync } from "node:child_process"
import { baseEnv, createKey, type Instance, root, spread, startInstance } from "./support"

let pg: PostgresCluster
let url: string
let a: Instance
let b: Instance
let crt: FakeCrtSh

beforeAll(async () => {
  pg = await startPostgres()
  url = await pg.createDatabase()
  crt = startCrtSh()
  const env = { ALERT_EVAL_INTERVAL_MS: "200", CT_AGGREGATOR_URL: crt.url }
  // Started together: they race to migrate the empty database.
  ;[a, b] = await Promise.all([startInstance(url, env), startInstance(url, env)])
}, 90_000)

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
  await crt?.stop()
  await pg?.stop()
})

const both = () => [a, b]
const count = (org: string, where = "") =>
  Number(pg.psql(url.split("/").pop()!, `SELECT COUNT(*) FROM request_log r JOIN organizations o ON o.id = r.org_id WHERE o.name = '${org}' ${where}`).trim())

describe("two instances on one PostgreSQL database", () => {
  test("started together on the empty database: both stay up, and only one creates and prints the bootstrap key", async () => {
    for (const x of both()) expect((await x.call("/readyz")).status).toBe(200)
    expect([a, b].map((x) => x.child.exitCode)).toEqual([null, null])
    // The key is printed once the listener is bound (src/surfaces/server/serve.ts): just after
    // the instance answers, so it is awaited; then the other had as long to print one too.
    const hasKey = (x: Instance) => /^di_[0-9a-f]{16}_/m.test(x.stdout())
    await until(() => (both().some(hasKey) ? true : undefined), "a bootstrap key on either instance's stdout")
    await Bun.sleep(500)
    const printed = both().filter(hasKey)
    expect(printed.length).toBe(1)
    const db = url.split("/").pop()!
    expect(pg.psql(db, "SELECT name || ':' || plan FROM organizations").trim()).toBe("default:enterprise")
    expect(pg.psql(db, "SELECT COUNT(*) FROM api_keys").trim()).toBe("1")
    // and the key it printed works on both
    const key = /^(di_[0-9a-f]{16}_\S+)$/m.exec(printed[0].stdout())![1]
    for (const x of both()) expect((await x.call("/v1/alerts/rules", { key })).status).toBe(200)
  })

  test("keys create racing for one new organization: every call succeeds, on one organization", async () => {
    const runs = await Promise.all(Array.from({ length: 4 }, () =>
      new Promise<number | null>((done) =>
        Bun.spawn([process.execPath, "src/main.ts", "keys", "create", "--org", "racing", "--plan", "pro"], {
          cwd: root, env: baseEnv(url), stdout: "ignore", stderr: "inherit", onExit: (_p, code) => done(code)
        }))))
    expect(runs).toEqual([0, 0, 0, 0])
    const db = url.split("/").pop()!
    expect(pg.psql(db, "SELECT COUNT(*) FROM organizations WHERE name = 'racing'").trim()).toBe("1")
    expect(pg.psql(db, "SELECT COUNT(*) FROM api_keys k JOIN organizations o ON o.id = k.org_id WHERE o.name = 'racing'").trim()).toBe("4")
  }, 60_000)

  test("requests spread over both: the usage report and the log count every one", async () => {
    const key = createKey(url, "spread", "developer")
    const statuses = await spread(300, 16, (i) => both()[i % 2].call("/v1/alerts/rules", { key }).then((r) => r.status))
    expect(statuses.every((s) => s === 200)).toBe(true)
    // Each instance writes its log every 200 ms: the totals agree once both have.
    const total = await until(async () => {
      const r = await a.call("/v1/analytics/usage?period=current", { key })
      const body = (await r.json()) as { by_category: Record<string, number>; quota: { used: number } }
      return body.by_category.alerts === 300 ? body : undefined
    }, "the usage report to count all 300 requests")
    expect(total.quota.used).toBeGreaterThanOrEqual(300)
    // (a report counts its own instance's records not yet written; the table catches up within 200 ms)
    await until(() => (count("spread", "AND r.operation = 'listAlertRules'") === 300 ? true : undefined), "300 logged rows")
    await Bun.sleep(500)
    expect(count("spread", "AND r.operation = 'listAlertRules'")).toBe(300)
  }, 60_000)

  test("a free organization driven through both gets exactly 1,000 requests, not one more", async () => {
    const key = createKey(url, "free-org", "free")
    const statuses = await spread(1_150, 24, (i) => both()[i % 2].call("/v1/analytics/usage", { key }).then((r) => r.status))
    // Every request past the quota gate counts, whatever it then answers (200 here; a deadline
    // on a starved machine would answer 503 and still have counted).
    expect(statuses.filter((s) => s !== 429).length).toBe(1_000)
    expect(statuses.filter((s) => s === 429).length).toBe(150)
    // and still refused afterwards, on both
    for (const x of both()) expect((await x.call("/v1/analytics/usage", { key })).status).toBe(429)
    const used = Number(pg.psql(url.split("/").pop()!, `SELECT used FROM quota_usage q JOIN organizations o ON o.id = q.org_id WHERE o.name = 'free-org'`).trim())
    expect(used).toBe(1_000)
  }, 120_000)

  test("twenty concurrent resolves of one alert across both: exactly one wins", async () => {
    const key = createKey(url, "resolver", "developer")
    const rule = await a.call("/v1/alerts/rules", {
      method: "POST", key, headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "any", metric: "request_count", operator: "gte", threshold_value: 1, window_minutes: 5, cooldown_minutes: 60 })
    })
    expect(rule.status).toBe(201)
    const alert = await until(async () =>
      ((await (await b.call("/v1/alerts/history", { key })).json()) as any).alerts[0], "an alert from the evaluator")
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      both()[i % 2].call(`/v1/alerts/history/${alert.id}/resolve`, {
        method: "POST", key, headers: { "content-type": "application/json" }, body: JSON.stringify({ notes: `by ${i}` })
      }).then((r) => r.status)))
    expect(statuses.filter((s) => s === 200).length).toBe(1)
    expect(statuses.filter((s) => s === 409).length).toBe(19)
  }, 60_000)

  test("the evaluator fires once per condition with both running", async () => {
    const key = createKey(url, "evaluated", "developer")
    const created = await b.call("/v1/alerts/rules", {
      method: "POST", key, headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "busy", metric: "request_count", operator: "gte", threshold_value: 3, window_minutes: 5, cooldown_minutes: 0 })
    })
    expect(created.status).toBe(201)
    await spread(6, 2, (i) => both()[i % 2].call("/v1/alerts/rules", { key }))
    await until(async () =>
      ((await (await a.call("/v1/alerts/history", { key })).json()) as any).alerts[0], "the alert")
    // many evaluation passes later (200 ms each, on both instances) still one alert
    await Bun.sleep(2_000)
    const alerts = ((await (await a.call("/v1/alerts/history", { key })).json()) as any).alerts
    expect(alerts.length).toBe(1)
  }, 60_000)

  test("the CT cache is shared: the second instance answers from it without calling the aggregator", async () => {
    const key = createKey(url, "ct-user", "developer")
    crt.set("shared.example", { kind: "rows", rows: makeRows("shared.example", 4) })
    const first = (await (await a.call("/v1/domain/ct-logs?domain=shared.example", { key })).json()) as any
    expect(first.cache.outcome).toBe("miss")
    const second = (await (await b.call("/v1/domain/ct-logs?domain=shared.example", { key })).json()) as any
    expect(second.cache.outcome).toBe("hit")
    expect(second.count).toBe(first.count)
    expect(crt.queries.get("shared.example")).toBe(1)
  }, 30_000)

  test("a key revoked through one instance's store is refused by both within a second", async () => {
    const key = createKey(url, "revoked-org", "developer")
    for (const x of both()) expect((await x.call("/v1/alerts/rules", { key })).status).toBe(200)
    const id = /^di_([0-9a-f]{16})_/.exec(key)![1]
    const r = spawnSync(process.execPath, ["src/main.ts", "keys", "revoke", id], { cwd: root, env: baseEnv(url), encoding: "utf8", timeout: 30_000 })
    expect(r.status).toBe(0)
    // the revision is polled every 500 ms: a second covers it with room
    await Bun.sleep(1_000)
    for (const x of both()) expect((await x.call("/v1/alerts/rules", { key })).status).toBe(401)
  }, 60_000)

  test("/readyz fails while the database is down and recovers when it returns", async () => {
    for (const x of both()) expect((await x.call("/readyz")).status).toBe(200)
    await pg.pause()
    try {
      for (const x of both()) {
        const r = await until(async () => {
          const res = await x.call("/readyz")
          return res.status === 503 ? res : undefined
        }, "/readyz to fail", 10_000)
        expect(((await r.json()) as any).error.code).toBeDefined()
      }
      // liveness is not readiness
      expect((await a.call("/healthz")).status).toBe(200)
    } finally {
      await pg.resume()
    }
    for (const x of both()) {
      await until(async () => ((await x.call("/readyz")).status === 200 ? true : undefined), "/readyz to recover", 15_000)
    }
  }, 60_000)

  test("SIGTERM: the instance writes its buffered request log to PostgreSQL before it exits", async () => {
    const key = createKey(url, "terminated", "enterprise")
    const c = await startInstance(url)
    const statuses = await spread(150, 8, () => c.call("/v1/alerts/rules", { key }).then((r) => r.status))
    expect(statuses.every((s) => s === 200)).toBe(true)
    expect(await c.stop()).toBe(0)
    expect(count("terminated")).toBe(150)
    // and the block of quota it held went back: the count is what it served
    const used = Number(pg.psql(url.split("/").pop()!, `SELECT used FROM quota_usage q JOIN organizations o ON o.id = q.org_id WHERE o.name = 'terminated'`).trim())
    expect(used).toBe(150)
  }, 60_000)

  test("one instance killed mid-load: the other keeps answering and nothing committed is lost", async () => {
    const key = createKey(url, "survivor", "enterprise")
    const c = await startInstance(url)
    const answered = { a: 0, c: 0, refused: 0 }
    let stop = false
    const load = (x: Instance, name: "a" | "c") => (async () => {
      while (!stop) {
        const r = await x.call("/v1/alerts/rules", { key }).catch(() => undefined)
        if (r?.status === 200) answered[name]++
        else if (name === "a") answered.refused++
        else if (r === undefined) return
      }
    })()
    const loads = [load(a, "a"), load(a, "a"), load(c, "c"), load(c, "c")]
    await until(() => (answered.c > 200 ? true : undefined), "load on the doomed instance")
    const committedBefore = count("survivor")
    c.child.kill("SIGKILL")
    await c.exited
    const afterKill = answered.a
    await until(() => (answered.a > afterKill + 200 ? true : undefined), "the survivor to keep answering")
    stop = true
    await Promise.all(loads)
    expect(answered.refused).toBe(0)
    // the survivor's requests are all logged (after its next write), and the rows the killed
    // instance had committed are still there
    const logged = await until(() => {
      const n = count("survivor")
      return n >= committedBefore && n >= answered.a ? n : undefined
    }, "the survivor's log to be written")
    expect(logged).toBeLessThanOrEqual(answered.a + answered.c)
    expect((await a.call("/readyz")).status).toBe(200)
  }, 90_000)
})
