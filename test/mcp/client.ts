/**
 * The official MCP SDK client for the tests: pinned to one protocol version (the SDK always
 * offers its newest in initialize; the pin rewrites that one field, and the SDK then speaks
 * whatever the server answers), every tool's loopback arguments, and ajv validation.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import Ajv from "ajv"
import { expect } from "bun:test"
import type { Fixtures } from "./fixtures"

/**
 * The service's configuration as environment variables for a child process (stdio, the binary),
 * every upstream on the loopback fixtures.
 */
export const fixtureEnv = (
  fx: Fixtures,
  where: { readonly path: string; readonly home: string; readonly databaseFile: string },
  extra: Record<string, string> = {}
): Record<string, string> => ({
  PATH: where.path,
  HOME: where.home,
  DATABASE_URL: `sqlite:${where.databaseFile}`,
  DNS_RESOLVERS: `127.0.0.1:${fx.dns.port}`,
  DNS_AUTH_PORT: String(fx.dns.port),
  NODE_EXTRA_CA_CERTS: fx.pki.caCertPath,
  RDAP_BOOTSTRAP_URL: fx.config.rdapBootstrapUrl!,
  CT_AGGREGATOR_URL: fx.config.ctAggregatorUrl!,
  CT_SOURCES: "crtsh",
  CT_CERTSPOTTER_URL: "http://127.0.0.1:9",
  CT_BUDGET_MS: "1500",
  ALLOW_PRIVATE_TARGETS: "true",
  LOG_LEVEL: "warning",
  ...extra
})

export const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const
export type Version = (typeof VERSIONS)[number]
export const MCP_PATH = "/v1/advanced/mcp"

/** Makes `transport` offer `version` in initialize. */
export const pin = <T extends Transport>(transport: T, version: Version): T => {
  const send = transport.send.bind(transport)
  transport.send = (message, options) => {
    const m = message as { method?: string; params?: Record<string, unknown> }
    return send(m.method === "initialize" ? { ...message, params: { ...m.params, protocolVersion: version } } as typeof message : message, options)
  }
  return transport
}

export const connectHttp = async (baseUrl: string, key: string, version: Version) => {
  const client = new Client({ name: "domain-intel-test", version: "1.0.0" })
  const transport = pin(new StreamableHTTPClientTransport(new URL(baseUrl + MCP_PATH), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } }
  }), version)
  await client.connect(transport)
  return { client, transport }
}

/** Arguments of every tool against the loopback fixtures (dns_lookup with a lower-case type). */
export const toolCalls = (fx: Fixtures): ReadonlyArray<{ name: string; arguments: Record<string, unknown> }> => [
  { name: "dns_lookup", arguments: { domain: "good.test", type: "mx" } },
  { name: "whois_lookup", arguments: { domain: "example.test" } },
  { name: "ssl_certificate", arguments: { domain: "good.test", port: fx.good.port } },
  { name: "security_headers", arguments: { url: `https://good.test:${fx.good.port}/` } },
  { name: "domain_intelligence", arguments: { domain: `https://good.test:${fx.good.port}/` } },
  { name: "http_check", arguments: { url: `https://good.test:${fx.good.port}/`, method: "GET" } },
  { name: "waf_detection", arguments: { domain: `http://site.test:${fx.site.port}/` } },
  { name: "content_freshness", arguments: { domain: `http://site.test:${fx.site.port}/` } },
  { name: "zone_hygiene", arguments: { domain: "good.test" } },
  { name: "ct_logs", arguments: { domain: "good.test", limit: 2 } },
  { name: "email_security", arguments: { domain: "good.test" } },
  { name: "tls_scan", arguments: { host: "good.test", port: fx.good.port } },
  { name: "subdomain_takeover", arguments: { domain: "good.test" } },
  { name: "lookalike_domains", arguments: { domain: "good.test" } },
  { name: "domain_audit", arguments: { domain: "good.test", sections: ["dns"] } },
  { name: "blocklist", arguments: { target: "good.test" } },
  { name: "monitor_status", arguments: {} }
]

const ajv = new Ajv({ strict: false, allErrors: true })

export interface ToolInfo {
  name: string
  title?: string
  annotations?: Record<string, unknown>
  inputSchema: Record<string, unknown>
  outputSchema?: Record<string, unknown>
}

/** What every tools/list must show: seventeen tools, titles, the three hints, object output schemas. */
export const checkToolList = (tools: ReadonlyArray<ToolInfo>) => {
  expect(tools.map((t) => t.name).sort()).toEqual([
    "blocklist", "content_freshness", "ct_logs", "dns_lookup", "domain_audit", "domain_intelligence", "email_security", "http_check",
    "lookalike_domains", "monitor_status", "security_headers", "ssl_certificate", "subdomain_takeover", "tls_scan", "waf_detection", "whois_lookup", "zone_hygiene"
  ])
  for (const t of tools) {
    expect(typeof t.title).toBe("string")
    expect(t.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: true })
    expect(t.inputSchema.type).toBe("object")
    expect(t.outputSchema?.type).toBe("object")
  }
}

type Result = { content: Array<{ type: string; text: string }>; structuredContent?: unknown; isError?: boolean }

/**
 * A successful result as the decisions promise it for `version`: structuredContent valid against
 * the tool's outputSchema (ajv), the same JSON in the first text block, and a readable summary
 * as a second block only for clients before 2025-06-18.
 */
export const checkResult = (tool: ToolInfo, res: Result, version: Version | undefined) => {
  if (res.isError) throw new Error(`${tool.name} failed: ${res.content.map((c) => c.text).join(" ")}`)
  expect(res.isError).toBe(false)
  expect(res.structuredContent).toBeDefined()
  const validate = ajv.compile(tool.outputSchema!)
  const ok = validate(res.structuredContent)
  if (!ok) throw new Error(`${tool.name}: structuredContent does not match its outputSchema: ${ajv.errorsText(validate.errors)}`)
  expect(res.content[0].type).toBe("text")
  expect(JSON.parse(res.content[0].text)).toEqual(res.structuredContent)
  const modern = version === "2025-06-18" || version === "2025-11-25"
  expect(res.content).toHaveLength(modern ? 1 : 2)
  if (!modern) expect(res.content[1].text.length).toBeGreaterThan(10)
  return res.structuredContent as any
}
