/**
 * The `monitor_status` tool lists the caller's own monitors (and no other organization's) with
 * the REST monitor fields, validated against its outputSchema.
 */
import Ajv from "ajv"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { startService, type TestService } from "../support/service"

let svc: TestService
beforeAll(async () => {
  svc = await startService({ monitorMinIntervalS: 60 })
})
afterAll(() => svc.stop())

const rpc = async (key: string, body: unknown) => {
  const r = await svc.call("/v1/advanced/mcp", {
    method: "POST",
    key,
    headers: { "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify(body)
  })
  expect(r.status).toBe(200)
  return (await r.json()) as any
}

describe("monitor_status", () => {
  test("lists the caller's monitors with their state, not another organization's", async () => {
    const a = await svc.newKey("pro")
    const b = await svc.newKey("pro")
    const created = await svc.call("/v1/monitors", {
      method: "POST",
      key: a.key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "paused site", kind: "http_check", target: "http://127.0.0.1:9/", interval_seconds: 60, enabled: false })
    })
    expect(created.status).toBe(201)
    const { monitor } = (await created.json()) as any

    const list = await rpc(a.key, { jsonrpc: "2.0", id: 1, method: "tools/list" })
    const tool = list.result.tools.find((t: any) => t.name === "monitor_status")
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true })

    const mine = await rpc(a.key, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "monitor_status", arguments: {} } })
    expect(mine.result.isError).toBe(false)
    const validate = new Ajv({ strict: false }).compile(tool.outputSchema)
    expect(validate(mine.result.structuredContent)).toBe(true)
    expect(mine.result.structuredContent.monitors).toHaveLength(1)
    expect(mine.result.structuredContent.monitors[0]).toMatchObject({ id: monitor.id, name: "paused site", status: "paused", enabled: false })
    expect(JSON.parse(mine.result.content[0].text)).toEqual(mine.result.structuredContent)

    const theirs = await rpc(b.key, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "monitor_status", arguments: {} } })
    expect(theirs.result.structuredContent.monitors).toEqual([])
  })
})

describe("monitor_status filter", () => {
  test("status narrows the list; an unknown status is an isError result", async () => {
    const a = await svc.newKey("pro")
    await svc.call("/v1/monitors", {
      method: "POST",
      key: a.key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "p", kind: "http_check", target: "http://127.0.0.1:9/", interval_seconds: 60, enabled: false })
    })
    const paused = await rpc(a.key, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "monitor_status", arguments: { status: "paused" } } })
    expect(paused.result.structuredContent.monitors).toHaveLength(1)
    const down = await rpc(a.key, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "monitor_status", arguments: { status: "down" } } })
    expect(down.result.structuredContent.monitors).toEqual([])
    const bad = await rpc(a.key, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "monitor_status", arguments: { status: "sideways" } } })
    expect(bad.result.isError).toBe(true)
  })
})
