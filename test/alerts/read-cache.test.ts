/**
 * The rule-list read cache (src/platform/store/readCache.ts): a write on this instance is seen by the
 * next list at once; a write by another instance on the same database within
 * READ_CACHE_MAX_AGE_MS.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { join } from "node:path"
import { READ_CACHE_MAX_AGE_MS } from "../../src/platform/store/readCache"
import { startService, type TestService } from "../support/service"
import { tempDir } from "../support/tmp"

let a: TestService
let b: TestService
beforeAll(async () => {
  const db = `sqlite:${join(tempDir("di-readcache-"), "db")}`
  a = await startService({ databaseUrl: db })
  b = await startService({ databaseUrl: db })
})
afterAll(async () => {
  await a.stop()
  await b.stop()
})

const rule = (name: string) => ({
  name,
  metric: "error_rate",
  operator: "gt",
  threshold_value: 5,
  window_minutes: 15,
  channels: [{ type: "email", address: "ops@example.com" }],
  cooldown_minutes: 30,
  enabled: true
})
const post = (svc: TestService, key: string, body: unknown) =>
  svc.call("/v1/alerts/rules", { method: "POST", key, headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
const names = async (svc: TestService, key: string) =>
  (((await (await svc.call("/v1/alerts/rules", { key })).json()) as any).rules as Array<{ name: string; threshold_value: number }>)

describe("alert rule list cache", () => {
  test("this instance's create, patch and delete show in the very next list", async () => {
    const { key } = await a.newKey("developer")
    expect(await names(a, key)).toEqual([])
    const created = ((await (await post(a, key, rule("one"))).json()) as any).rule
    expect((await names(a, key)).map((r) => r.name)).toEqual(["one"])
    await a.call(`/v1/alerts/rules/${created.id}`, {
      method: "PATCH", key, headers: { "content-type": "application/json" }, body: JSON.stringify({ threshold_value: 9 })
    })
    expect((await names(a, key))[0].threshold_value).toBe(9)
    expect((await a.call(`/v1/alerts/rules/${created.id}`, { method: "DELETE", key })).status).toBe(204)
    expect(await names(a, key)).toEqual([])
  })

  test("another instance's write is seen within READ_CACHE_MAX_AGE_MS", async () => {
    const { key } = await a.newKey("developer")
    expect(await names(a, key)).toEqual([]) // cached on a
    const written = performance.now()
    expect((await post(b, key, rule("from b"))).status).toBe(201)
    let seen: number | undefined
    while (seen === undefined && performance.now() - written < READ_CACHE_MAX_AGE_MS + 2_000) {
      if ((await names(a, key)).length === 1) seen = performance.now()
      else await Bun.sleep(50)
    }
    // Polled up to the bound plus a margin for a busy machine.
    expect(seen).toBeDefined()
  })
})
