/**
 * One instance on SQLite is one location, `default`: the whole service (its scheduler, writer
 * and heartbeat) runs a monitor listed in it and one with no locations; both show `state`,
 * `location_status`, results with their location and `by_location`; the MCP `monitor_status`
 * tool carries the same fields (checked against its outputSchema); a never-seen location is 400;
 * a bad INSTANCE_LOCATION stops the service at start, in one line.
 */
import Ajv from "ajv"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { resolve } from "node:path"
import { until } from "../support/process"
import { countingOrigin } from "../support/monitors"
import { startService, type TestService } from "../support/service"

let svc: TestService
let key: string
const origin = countingOrigin()
beforeAll(async () => {
  svc = await startService({ monitorMinIntervalS: 1, alertEvalIntervalMs: 3_600_000 })
  key = (await svc.newKey("pro")).key
})
afterAll(async () => {
  await svc.stop()
  origin.server.stop(true)
})

const call = async (path: string, init: RequestInit = {}) => {
  const r = await svc.call(path, { ...init, key, headers: { "content-type": "application/json" } })
  return { status: r.status, body: (await r.json()) as any }
}
const create = (body: Record<string, unknown>) =>
  call("/v1/monitors", {
    method: "POST",
    body: JSON.stringify({ kind: "http_check", target: `http://127.0.0.1:${origin.server.port}/${body.name}`, interval_seconds: 1, ...body })
  })

describe("one instance, one location", () => {
  test("GET /v1/locations lists `default`, live, with this instance", async () => {
    const { locations } = await until(async () => {
      const r = await call("/v1/locations")
      return r.body.locations?.length === 1 ? r.body : undefined
    }, "the first heartbeat", 10_000)
    expect(locations.map((l: any) => [l.name, l.instances, l.live])).toEqual([["default", 1, true]])
  })

  test("a monitor listed in `default` and one with no locations both run here; state, location_status, results and by_location", async () => {
    expect((await create({ name: "mars", locations: ["mars"] })).status).toBe(400)
    const listed = (await create({ name: "listed", locations: ["default"] })).body.monitor
    expect({ locations: listed.locations, quorum: listed.quorum, state: listed.state }).toEqual({ locations: ["default"], quorum: 1, state: "unknown" })
    expect(listed.location_status).toEqual([{ location: "default", live: true, last_run_at: null, ok: null }])
    const anywhere = (await create({ name: "anywhere" })).body.monitor
    expect(anywhere.location_status).toEqual([])
    for (const m of [listed, anywhere]) {
      const shown = await until(async () => {
        const { body } = await call(`/v1/monitors/${m.id}`)
        return body.monitor.state === "ok" && body.monitor.location_status[0]?.ok === true ? body.monitor : undefined
      }, `${m.name} ok`, 15_000)
      expect(shown.location_status.map((s: any) => [s.location, s.live, s.ok])).toEqual([["default", true, true]])
      expect(shown.status).toBe("up")
      const { results } = (await call(`/v1/monitors/${m.id}/results`)).body
      expect(results.length).toBeGreaterThan(0)
      for (const r of results) expect(r.location).toBe("default")
    }
    const uptime = (await call(`/v1/monitors/${listed.id}/uptime?period=7d`)).body
    expect(uptime.by_location.length).toBe(1)
    expect(uptime.by_location[0]).toMatchObject({ location: "default", runs: uptime.runs, ok_runs: uptime.ok_runs, uptime_percentage: 100 })
  }, 40_000)

  test("MCP monitor_status carries locations, quorum, state and location_status", async () => {
    const rpc = async (body: unknown, version = "2025-06-18") => {
      const r = await svc.call("/v1/advanced/mcp", {
        method: "POST",
        key,
        headers: { "content-type": "application/json", "mcp-protocol-version": version },
        body: JSON.stringify(body)
      })
      return ((await r.json()) as any).result
    }
    const tool = (await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" })).tools.find((t: any) => t.name === "monitor_status")
    const result = await rpc({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "monitor_status", arguments: {} } })
    expect(new Ajv({ strict: false }).compile(tool.outputSchema)(result.structuredContent)).toBe(true)
    const listed = result.structuredContent.monitors.find((m: any) => m.name === "listed")
    expect(listed).toMatchObject({ locations: ["default"], quorum: 1, state: "ok" })
    expect(listed.location_status[0]).toMatchObject({ location: "default", live: true, ok: true })
    // older clients read the text summary instead: each location's last run in it
    const older = await rpc({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "monitor_status", arguments: {} } }, "2025-03-26")
    expect(older.content.map((c: any) => c.text).join("\n")).toContain("listed (http_check")
    expect(older.content.map((c: any) => c.text).join("\n")).toContain("state ok [default ok]")
  })
})

describe("INSTANCE_LOCATION", () => {
  test("a name that is not 1-32 characters of a-z, 0-9 and - stops `serve` at start with one line", () => {
    for (const bad of ["EU-West", "eu west", "", "x".repeat(33), "eu_west"]) {
      const r = spawnSync(process.execPath, ["src/main.ts", "serve"], {
        cwd: resolve(import.meta.dir, "../.."),
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: "sqlite::memory:", PORT: "0", INSTANCE_LOCATION: bad },
        encoding: "utf8",
        timeout: 30_000
      })
      expect([bad, r.status]).toEqual([bad, 1])
      expect(r.stderr.trim()).toBe("domain-intel: INSTANCE_LOCATION must be 1-32 characters of a-z, 0-9 and -")
    }
  }, 60_000)
})
