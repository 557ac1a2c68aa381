/**
 * One contract for REST and MCP (docs/mcp.md, "One contract"), checked through the real service
 * with the official MCP SDK client: for every tool that mirrors a REST operation,
 * - the same bad input gives the same error through both: the code (and REST's HTTP status is
 *   the one that code's error class declares), the message and the details;
 * - the published inputSchema is valid JSON Schema (ajv) and states the limits, enums and
 *   defaults the OpenAPI document states for the operation's query parameters;
 * and the JSON-RPC errors carry the catalogue code in `error.data.code`.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import Ajv from "ajv"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { InvalidRequest, NotFound, TargetForbidden, UpstreamUnavailable } from "../../src/kernel/errors"
import { startService, type TestService } from "../support/service"
import { connectHttp } from "./client"
import { type Fixtures, startFixtures } from "./fixtures"

let fx: Fixtures
let svc: TestService
let key: string
let client: Client

beforeAll(async () => {
  fx = await startFixtures()
  svc = await startService({ ...fx.config, zoneAuditCacheTtlS: 0 })
  key = (await svc.newKey("enterprise")).key
  client = (await connectHttp(svc.baseUrl, key, "2025-11-25")).client
})
afterAll(async () => {
  await client?.close()
  await svc?.stop()
  await fx?.stop()
})

/** The status each code's error class declares (the catalogue, not a copy of it). */
const statusOf = new Map(
  [InvalidRequest, TargetForbidden, NotFound, UpstreamUnavailable].map((cls) => {
    const e = new cls({ message: "" }, true)
    return [e.code as string, e.status] as const
  })
)

/** Each mirrored tool and its REST operation. */
const mirrors = {
  http_check: "/v1/network/http-check",
  waf_detection: "/v1/domain/waf",
  content_freshness: "/v1/domain/content-freshness",
  zone_hygiene: "/v1/dns/zone-hygiene",
  ct_logs: "/v1/domain/ct-logs",
  email_security: "/v1/security/email",
  tls_scan: "/v1/security/tls",
  security_headers: "/v1/security/headers",
  subdomain_takeover: "/v1/security/takeover",
  lookalike_domains: "/v1/security/lookalikes",
  domain_audit: "/v1/domain/audit",
  blocklist: "/v1/security/blocklist"
} as const
type Tool = keyof typeof mirrors

/** The JSON value of an argument in a query string, as a REST client writes it. */
const queryOf = (args: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [k, Array.isArray(v) ? v.join(",") : String(v)]))

const metadata = "169.254.169.254"
const selectors = Array.from({ length: 21 }, (_, i) => `s${i}`)

const badInputs = (): ReadonlyArray<readonly [Tool, Record<string, unknown>, string]> => [
  ["http_check", {}, "invalid_request"],
  ["http_check", { url: "http://good.test/", timeout: 50 }, "invalid_request"],
  ["http_check", { url: "http://good.test/", max_redirects: 11 }, "invalid_request"],
  ["http_check", { url: "http://good.test/", method: "POST" }, "invalid_request"],
  ["http_check", { url: "ftp://good.test/" }, "target_forbidden"],
  ["http_check", { url: `http://${metadata}/latest/` }, "target_forbidden"],
  ["waf_detection", { domain: "ftp://x.example" }, "invalid_request"],
  ["waf_detection", { domain: "x.example/path" }, "invalid_request"],
  ["waf_detection", { domain: `http://${metadata}/` }, "target_forbidden"],
  ["content_freshness", { domain: "user@x.example" }, "invalid_request"],
  ["content_freshness", { domain: `http://${metadata}/` }, "target_forbidden"],
  ["zone_hygiene", { domain: "192.0.2.1" }, "invalid_request"],
  ["zone_hygiene", { domain: "https://x.example:8443/" }, "invalid_request"],
  ["zone_hygiene", { domain: "missing.test" }, "not_found"],
  ["ct_logs", { domain: "good.test", limit: 0 }, "invalid_request"],
  ["ct_logs", { domain: "good.test", offset: 2_000_000 }, "invalid_request"],
  ["ct_logs", { domain: "good.test", since: "yesterday" }, "invalid_request"],
  ["ct_logs", { domain: "ftp://good.test" }, "invalid_request"],
  ["ct_logs", { domain: "self.test" }, "upstream_unavailable"],
  ["email_security", { domain: "good.test", dkim_selectors: selectors }, "invalid_request"],
  ["email_security", { domain: "x.example?q=1" }, "invalid_request"],
  ["email_security", { domain: "missing.test" }, "not_found"],
  ["tls_scan", { host: "good.test", port: 0 }, "invalid_request"],
  ["tls_scan", { host: "" }, "invalid_request"],
  ["tls_scan", { host: metadata }, "target_forbidden"],
  ["security_headers", { url: "" }, "invalid_request"],
  ["security_headers", { url: "ftp://good.test/" }, "target_forbidden"],
  ["security_headers", { url: `http://${metadata}/` }, "target_forbidden"],
  ["subdomain_takeover", { domain: "192.0.2.1" }, "invalid_request"],
  ["subdomain_takeover", { domain: "good.test", names: ["x.other.test"] }, "invalid_request"],
  ["subdomain_takeover", { domain: "good.test", names: Array.from({ length: 101 }, (_, i) => `n${i}.good.test`) }, "invalid_request"],
  ["subdomain_takeover", { domain: "missing.test" }, "not_found"],
  ["lookalike_domains", { domain: "192.0.2.1" }, "invalid_request"],
  ["lookalike_domains", { domain: "good.test/path" }, "invalid_request"],
  ["lookalike_domains", { domain: "under_score.test" }, "invalid_request"],
  ["domain_audit", { domain: "192.0.2.1" }, "invalid_request"],
  ["domain_audit", { domain: "good.test", sections: ["web", "nope"] }, "invalid_request"],
  ["domain_audit", { domain: "good.test", sections: [] }, "invalid_request"],
  ["domain_audit", { domain: "good.test", sections: ["web", "mail", "dns", "exposure", "web"] }, "invalid_request"],
  ["domain_audit", { domain: "missing.test" }, "not_found"],
  ["blocklist", {}, "invalid_request"],
  ["blocklist", { target: "0x7f.1" }, "invalid_request"],
  ["blocklist", { target: "good.test:25" }, "invalid_request"],
  ["blocklist", { target: metadata }, "target_forbidden"],
  ["blocklist", { target: "missing.test" }, "not_found"]
]

describe("the same bad input, the same error", () => {
  test.each(badInputs())("%s %j: %s through REST and MCP", async (tool, args, code) => {
    const res = await svc.call(`${mirrors[tool]}?${queryOf(args)}`, { key })
    const rest = (await res.json()) as any
    expect(rest.error?.code).toBe(code)
    expect(res.status).toBe(statusOf.get(code)!)

    const mcp = (await client.callTool({ name: tool, arguments: args })) as any
    expect(mcp.isError).toBe(true)
    expect(mcp.structuredContent.error.code).toBe(code)
    expect(mcp.structuredContent.error).toEqual(rest.error)
    expect(mcp.content[0].text).toContain(rest.error.message)
  }, 30_000)
})

describe("the same good input, decoded alike", () => {
  test("any letter case of an enum, a host spelled as a URL, a comma list as an array", async () => {
    const a = (await (await svc.call(`/v1/security/email?${queryOf({ domain: "https://GOOD.test/", dkim_selectors: " s1 ,,s2" })}`, { key })).json()) as any
    const b = (await client.callTool({ name: "email_security", arguments: { domain: "https://GOOD.test/", dkim_selectors: ["s1", "s2"] } })) as any
    expect(b.isError).toBe(false)
    expect(a.domain).toBe("good.test")
    expect(b.structuredContent.domain).toBe("good.test")
    expect(b.structuredContent.dkim.selectors_checked).toEqual(a.dkim.selectors_checked)

    const url = `https://good.test:${fx.good.port}/`
    const c = (await (await svc.call(`/v1/network/http-check?${queryOf({ url, method: "get" })}`, { key })).json()) as any
    const d = (await client.callTool({ name: "http_check", arguments: { url, method: "Get" } })) as any
    expect(c.method).toBe("GET")
    expect(d.structuredContent.method).toBe("GET")
  })
})

describe("published inputSchemas", () => {
  test("valid JSON Schema with the limits, enums and defaults of the REST operation's parameters", async () => {
    const tools = (await client.listTools()).tools
    const doc = (await (await svc.call("/openapi.json")).json()) as any
    const ajv = new Ajv({ strict: false, allErrors: true })
    for (const tool of tools) {
      expect({ tool: tool.name, input: ajv.validateSchema(tool.inputSchema), output: ajv.validateSchema(tool.outputSchema!) })
        .toEqual({ tool: tool.name, input: true, output: true })
      ajv.compile(tool.inputSchema)
    }
    const compared = ["type", "minimum", "maximum", "minLength", "maxLength", "enum", "default"]
    const pick = (s: Record<string, unknown>) => Object.fromEntries(compared.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]))
    for (const [name, path] of Object.entries(mirrors)) {
      const tool = tools.find((t) => t.name === name)!
      const params = new Map<string, any>(doc.paths[path].get.parameters.map((p: any) => [p.name, p]))
      const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>
      expect(Object.keys(properties).length).toBeGreaterThan(0)
      for (const [arg, schema] of Object.entries(properties)) {
        const param = params.get(arg)
        expect({ tool: name, arg, inRest: param !== undefined }).toEqual({ tool: name, arg, inRest: true })
        expect({ tool: name, arg, required: (tool.inputSchema.required ?? []).includes(arg) }).toEqual({ tool: name, arg, required: param.required })
        if (schema.type === "array") {
          // A list: an array with maxItems in JSON, a comma list in the query string, the same limit said in both.
          expect(param.schema.type).toBe("string")
          expect(param.description).toContain(`at most ${schema.maxItems}`)
          expect(schema.description).toContain(`at most ${schema.maxItems}`)
        } else {
          expect({ tool: name, arg, ...pick(schema) }).toEqual({ tool: name, arg, ...pick(param.schema) })
        }
        expect(schema.description).toBe(param.description)
      }
    }
  })

  test("a failed call's structuredContent is one of the shapes the outputSchema admits", async () => {
    const tools = (await client.listTools()).tools
    const ajv = new Ajv({ strict: false })
    const validate = ajv.compile(tools.find((t) => t.name === "zone_hygiene")!.outputSchema!)
    expect(validate({ error: { code: "not_found", message: "zone missing.test does not exist" } })).toBe(true)
    expect(validate({ error: { message: "no code" } })).toBe(false)
  })
})
