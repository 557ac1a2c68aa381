/**
 * `domain-intel mcp` from the single binary (`bun build --compile`), run from an empty
 * directory with no Bun and no node_modules on its path, driven by the SDK's
 * StdioClientTransport once per protocol version: all seventeen tools with validated results; and
 * `serve` from the same binary, whose MCP server, x509 stack, HTML parser and docs page are
 * loaded on their first request (docs/operating.md, "The binary"): all seventeen tools over HTTP.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { buildBinary } from "../support/binary"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { copyFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { checkResult, checkToolList, connectHttp, fixtureEnv, pin, type ToolInfo, toolCalls, VERSIONS } from "./client"
import { startServe, waitUntilUp } from "../support/process"
import { type Fixtures, startFixtures } from "./fixtures"
import { tempDir } from "../support/tmp"

const root = resolve(import.meta.dir, "../..")
const work = tempDir("di-mcp-bin-")
const binary = join(work, "domain-intel")
let fx: Fixtures
let key: string

// A bare environment: no Bun, no node_modules reachable.
const env = (extra: Record<string, string> = {}): Record<string, string> =>
  fixtureEnv(fx, { path: "/usr/bin:/bin", home: work, databaseFile: join(work, "bin.db") }, extra)

beforeAll(async () => {
  await buildBinary(join(work, "build", "domain-intel"))
  copyFileSync(join(work, "build", "domain-intel"), binary)
  fx = await startFixtures()
  const k = spawnSync(binary, ["keys", "create", "--org", "desktop", "--plan", "pro"], { cwd: work, env: env(), encoding: "utf8", timeout: 30_000 })
  expect(k.status).toBe(0)
  key = k.stdout.trim().split("\n").pop()!
}, 120_000)
afterAll(async () => {
  await fx?.stop()
})

describe("the binary's mcp sub-command", () => {
  for (const version of VERSIONS) {
    test(`stdio on ${version}: list and call all seventeen tools`, async () => {
      let stderr = ""
      const transport = pin(new StdioClientTransport({ command: binary, args: ["mcp"], cwd: work, env: env({ DOMAIN_INTEL_API_KEY: key }), stderr: "pipe" }), version)
      transport.stderr?.on("data", (d) => { stderr += d })
      const client = new Client({ name: "binary-test", version: "1.0.0" })
      await client.connect(transport)
      try {
        const { tools } = await client.listTools()
        checkToolList(tools as Array<ToolInfo>)
        const byName = new Map((tools as Array<ToolInfo>).map((t) => [t.name, t]))
        for (const call of toolCalls(fx)) checkResult(byName.get(call.name)!, (await client.callTool(call)) as any, version)
      } finally {
        await client.close()
      }
      expect(stderr).not.toContain("\"level\":\"ERROR\"")
    }, 60_000)
  }

  test("serve: the MCP endpoint, built on its first request, answers all seventeen tools; /docs is built on its first request", async () => {
    const served = await startServe(binary, ["serve"], { cwd: work, env: env() })
    let stderr = ""
    served.child.stderr!.on("data", (d) => (stderr += d))
    try {
      expect(await waitUntilUp(`http://127.0.0.1:${served.port}/healthz`)).toBe(true)
      const base = `http://127.0.0.1:${served.port}`
      // Concurrent first requests share one build of the MCP server.
      const [a, b] = await Promise.all([connectHttp(base, key, "2025-06-18"), connectHttp(base, key, "2025-11-25")])
      try {
        const { tools } = await a.client.listTools()
        checkToolList(tools as Array<ToolInfo>)
        expect((await b.client.listTools()).tools.length).toBe(tools.length)
        const byName = new Map((tools as Array<ToolInfo>).map((t) => [t.name, t]))
        for (const call of toolCalls(fx)) checkResult(byName.get(call.name)!, (await a.client.callTool(call)) as any, "2025-06-18")
      } finally {
        await Promise.all([a.client.close(), b.client.close()])
      }
      const docs = await fetch(`${base}/docs`)
      expect(docs.status).toBe(200)
      expect(docs.headers.get("content-type")).toContain("text/html")
      const page = await docs.text()
      expect(page.includes('<script id="api-reference" type="application/json">')).toBe(true)
      expect(page.includes('"/v1/network/http-check"')).toBe(true)
      // The Scalar viewer inline (megabytes), not a script loaded from a CDN.
      expect(page.length).toBeGreaterThan(1_000_000)
      expect(/<script src=/.test(page)).toBe(false)
      expect((await fetch(`${base}/docs`)).status).toBe(200)
      expect(stderr).not.toContain("\"level\":\"ERROR\"")
    } finally {
      served.child.kill("SIGKILL")
    }
  }, 90_000)

  test("an unknown key: exit 2 with one line on stderr", async () => {
    const child = Bun.spawn([binary, "mcp"], { cwd: work, env: env({ DOMAIN_INTEL_API_KEY: "di_0000000000000000_" + "A".repeat(43) }), stdin: new Blob([""]), stdout: "pipe", stderr: "pipe" })
    expect(await child.exited).toBe(2)
    expect(await new Response(child.stdout).text()).toBe("")
    expect(await new Response(child.stderr).text()).toContain("not a valid API key")
  }, 30_000)
})
