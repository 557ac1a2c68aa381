/**
 * `domain-intel mcp` over stdio, driven by the official SDK's StdioClientTransport spawning
 * `bun src/main.ts mcp`: once per protocol version (all seventeen tools, ajv-validated), metering per
 * tools/call in the shared database, the key check (exit 2), and `--remote` forwarding to the
 * in-process service over HTTP.
 */
import { Database } from "bun:sqlite"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { join, resolve } from "node:path"
import { startService, type TestService } from "../support/service"
import { checkResult, checkToolList, fixtureEnv, MCP_PATH, pin, type ToolInfo, toolCalls, type Version, VERSIONS } from "./client"
import { type Fixtures, startFixtures } from "./fixtures"
import { tempDir } from "../support/tmp"

const root = resolve(import.meta.dir, "../..")
const work = tempDir("di-mcp-stdio-")
const dbPath = join(work, "stdio.db")
const bun = process.execPath

let fx: Fixtures
let svc: TestService
let key: string
let orgId: string

/** The service's configuration as environment variables, every upstream on loopback. */
export const envOf = (fx: Fixtures, extra: Record<string, string> = {}): Record<string, string> =>
  fixtureEnv(fx, { path: process.env.PATH ?? "/usr/bin:/bin", home: work, databaseFile: dbPath }, extra)

beforeAll(async () => {
  fx = await startFixtures()
  // The service shares the SQLite file with the stdio children, so keys and counts are common.
  svc = await startService({ ...fx.config, databaseUrl: `sqlite:${dbPath}` })
  const k = await svc.newKey("pro", "stdio-org")
  key = k.key
  orgId = k.orgId
})
afterAll(async () => {
  await svc?.stop()
  await fx?.stop()
})

const connectStdio = async (version: Version, args: ReadonlyArray<string> = [], env: Record<string, string> = {}) => {
  const transport = pin(new StdioClientTransport({
    command: bun,
    args: ["src/main.ts", "mcp", ...args],
    cwd: root,
    env: envOf(fx, { DOMAIN_INTEL_API_KEY: key, ...env }),
    stderr: "pipe"
  }), version)
  let stderr = ""
  transport.stderr?.on("data", (d) => { stderr += d })
  const client = new Client({ name: "stdio-test", version: "1.0.0" })
  await client.connect(transport)
  return { client, transport, stderr: () => stderr }
}

const stdioRows = () => {
  const db = new Database(dbPath, { readonly: true })
  try {
    return (db.query("SELECT COUNT(*) AS n FROM request_log WHERE org_id = ? AND method = 'STDIO' AND operation = 'mcpServer'").get(orgId) as { n: number }).n
  } finally {
    db.close()
  }
}

for (const version of VERSIONS) {
  describe(`stdio on ${version}`, () => {
    test("initialize, list and call all seventeen tools; each call is metered", async () => {
      const before = stdioRows()
      const { client, stderr } = await connectStdio(version)
      try {
        expect(client.getServerVersion()?.name).toBe("domain-intel")
        const { tools } = await client.listTools()
        checkToolList(tools as Array<ToolInfo>)
        const byName = new Map((tools as Array<ToolInfo>).map((t) => [t.name, t]))
        const calls = toolCalls(fx)
        for (const call of calls) checkResult(byName.get(call.name)!, (await client.callTool(call)) as any, version)
        await client.close()
        // The child flushes its request log when stdin closes.
        expect(stdioRows() - before).toBe(calls.length)
        expect(stderr()).not.toContain("\"level\":\"ERROR\"")
      } finally {
        await client.close()
      }
    }, 60_000)
  })
}

describe("stdio quota", () => {
  test("a used-up quota refuses tools/call with a JSON-RPC error; initialize and tools/list still work", async () => {
    const { key: spent, orgId: spentOrg } = await svc.newKey("pro")
    const now = new Date()
    await svc.sql("INSERT INTO quota_usage (org_id, month, used) VALUES (?, ?, 500000)", [spentOrg, Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)])
    const { client } = await connectStdio("2025-11-25", [], { DOMAIN_INTEL_API_KEY: spent })
    try {
      expect((await client.listTools()).tools).toHaveLength(17)
      const refused = await client.callTool(toolCalls(fx)[0]).then(() => undefined, (e) => e)
      expect(String(refused)).toMatch(/-32001.*QuotaExceeded/)
      // The catalogue code, as the HTTP endpoint's 429 carries it.
      expect(refused.data.code).toBe("quota_exceeded")
    } finally {
      await client.close()
    }
  }, 60_000)
})

describe("stdio key check", () => {
  const run = (env: Record<string, string>, args: ReadonlyArray<string> = []) =>
    spawnSync(bun, ["src/main.ts", "mcp", ...args], { cwd: root, env: envOf(fx, env), input: "", encoding: "utf8", timeout: 30_000 })

  test("no key, an unknown key and a developer key: one line on stderr, nothing on stdout, exit 2", async () => {
    const dev = (await svc.newKey("developer")).key
    for (const [env, says] of [
      [{}, "DOMAIN_INTEL_API_KEY"],
      [{ DOMAIN_INTEL_API_KEY: "di_0000000000000000_" + "A".repeat(43) }, "not a valid API key"],
      [{ DOMAIN_INTEL_API_KEY: dev }, "pro plan"]
    ] as const) {
      const r = run(env)
      expect(r.status).toBe(2)
      expect(r.stdout).toBe("")
      expect(r.stderr).toContain(says)
    }
  }, 60_000)
})

describe("stdio --remote", () => {
  test("forwards to the hosted endpoint with the key as Bearer, on 2025-06-18", async () => {
    const { client } = await connectStdio("2025-06-18", ["--remote", svc.baseUrl + MCP_PATH])
    try {
      const { tools } = await client.listTools()
      checkToolList(tools as Array<ToolInfo>)
      const byName = new Map((tools as Array<ToolInfo>).map((t) => [t.name, t]))
      const call = toolCalls(fx)[0]
      checkResult(byName.get(call.name)!, (await client.callTool(call)) as any, "2025-06-18")
    } finally {
      await client.close()
    }
    await svc.flushLog()
    const rows = await svc.sql<{ n: number }>("SELECT COUNT(*) AS n FROM request_log WHERE org_id = ? AND method = 'POST'", [orgId])
    expect(rows[0].n).toBeGreaterThanOrEqual(3)
  }, 60_000)

  test("a key the remote refuses: the request gets a JSON-RPC error, stderr says why, exit 2", async () => {
    const msg = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } })
    // Asynchronous: the remote is this process's own service, which must keep answering.
    const child = Bun.spawn([bun, "src/main.ts", "mcp", "--remote", svc.baseUrl + MCP_PATH], {
      cwd: root,
      env: envOf(fx, { DOMAIN_INTEL_API_KEY: "di_0000000000000000_" + "A".repeat(43) }),
      stdin: new Blob([msg + "\n"]),
      stdout: "pipe",
      stderr: "pipe"
    })
    const status = await child.exited
    const r = { status, stdout: await new Response(child.stdout).text(), stderr: await new Response(child.stderr).text() }
    expect(r.status).toBe(2)
    const lines = r.stdout.trim().split("\n")
    expect(lines).toHaveLength(1)
    const answer = JSON.parse(lines[0])
    expect(answer.id).toBe(1)
    expect(answer.error.message).toContain("401")
    expect(r.stderr).toContain("refused")
  }, 30_000)
})

describe("stdio parse errors", () => {
  /** Writes `lines` to `domain-intel mcp` (local, or `--remote` to the in-process service) and returns its stdout lines. */
  const exchange = async (lines: ReadonlyArray<string>, args: ReadonlyArray<string>) => {
    const child = Bun.spawn([bun, "src/main.ts", "mcp", ...args], {
      cwd: root,
      env: envOf(fx, { DOMAIN_INTEL_API_KEY: key }),
      stdin: new Blob([lines.map((l) => l + "\n").join("")]),
      stdout: "pipe",
      stderr: "pipe"
    })
    const status = await child.exited
    const out = await new Response(child.stdout).text()
    return { status, answers: out.trim().split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l)) }
  }

  test.each([["local", () => []], ["--remote", () => ["--remote", svc.baseUrl + MCP_PATH]]] as const)(
    "%s: a line that is not JSON gets -32700 with a null id, and the next line is still answered",
    async (_mode, args) => {
      const r = await exchange(["{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ", JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })], args())
      expect(r.status).toBe(0)
      expect(r.answers).toHaveLength(2)
      const parse = r.answers.find((a: any) => a.id === null)
      expect(parse.jsonrpc).toBe("2.0")
      expect(parse.error.code).toBe(-32700)
      expect(r.answers.find((a: any) => a.id === 2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} })
    },
    30_000
  )
})
