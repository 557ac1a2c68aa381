/**
 * The MCP tool `domain_audit` against the audit world, through the official MCP SDK client:
 * its structuredContent is the REST report of the same input (apart from the times: checked_at
 * and timings_ms, at every level), and the same failures carry the same codes and messages.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { connectHttp } from "../../mcp/client"
import { type AuditWorld, sharedAuditWorld } from "./world/world"

let world: AuditWorld
let client: Client
let broken: Client

/** The report without its times, at every level (the embedded reports have their own). */
const timeless = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(timeless)
    : typeof v === "object" && v !== null
    ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== "checked_at" && k !== "timings_ms").map(([k, x]) => [k, timeless(x)]))
    : v

/** A list in canonical order: the zone report lists the name servers' addresses in the order the resolver gave them (it rotates them). */
const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
    : typeof v === "object" && v !== null
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sorted(x)]))
    : v
const comparable = (report: any) => timeless({ ...report, reports: { ...report.reports, zone_hygiene: sorted(report.reports.zone_hygiene) } })

beforeAll(async () => {
  world = await sharedAuditWorld()
  client = (await connectHttp(world.url.main, world.keys.pro, "2025-06-18")).client
  // The broken service's own key is developer: MCP needs pro, so a pro key of that service.
  broken = (await connectHttp(world.url.broken, world.keys.brokenPro, "2025-06-18")).client
}, 240_000)

afterAll(async () => {
  await client?.close()
  await broken?.close()
})

describe("domain_audit equals GET /v1/domain/audit", () => {
  test.each([
    ["full.lab", null],
    ["bare.lab", null],
    ["weak.lab", ["web", "exposure"]]
  ] as const)("%s, sections %j (null: all)", async (domain, sections) => {
    const query = `domain=${domain}${sections ? `&sections=${sections.join(",")}` : ""}`
    const rest = (await (await world.call("main", `/v1/domain/audit?${query}`, world.keys.pro)).json()) as any
    const mcp = (await client.callTool({ name: "domain_audit", arguments: { domain, ...(sections ? { sections: [...sections] } : {}) } })) as any
    expect(mcp.isError).toBe(false)
    expect(comparable(mcp.structuredContent)).toEqual(comparable(rest))
    expect(JSON.parse(mcp.content[0].text)).toEqual(mcp.structuredContent)
  }, 120_000)
})

describe("the same failures, the same codes", () => {
  test.each([
    [{ domain: "nowhere.lab" }, "domain=nowhere.lab", "not_found"],
    [{ domain: "192.0.2.1" }, "domain=192.0.2.1", "invalid_request"],
    [{ domain: "full.lab", sections: ["web", "nope"] }, "domain=full.lab&sections=web,nope", "invalid_request"],
    [{ domain: "full.lab", starttls: true }, null, "invalid_request"]
  ] as const)("%j: %s", async (args, query, code) => {
    const mcp = (await client.callTool({ name: "domain_audit", arguments: args as Record<string, unknown> })) as any
    expect(mcp.isError).toBe(true)
    expect(mcp.structuredContent.error.code).toBe(code)
    if (query !== null) {
      const rest = (await (await world.call("main", `/v1/domain/audit?${query}`, world.keys.pro)).json()) as any
      expect(mcp.structuredContent.error).toEqual(rest.error)
    } else {
      // The tool offers domain and sections only: starttls is REST's.
      expect(mcp.structuredContent.error.message).toContain("starttls")
    }
  }, 60_000)

  test("the service's own resolver down: upstream_unavailable, as REST answers", async () => {
    const mcp = (await broken.callTool({ name: "domain_audit", arguments: { domain: "full.lab" } })) as any
    const rest = (await (await world.call("broken", "/v1/domain/audit?domain=full.lab", world.keys.broken)).json()) as any
    expect(mcp.isError).toBe(true)
    expect(mcp.structuredContent.error).toEqual(rest.error)
    expect(rest.error.code).toBe("upstream_unavailable")
  }, 60_000)
})
