/**
 * `domain-intel mcp` from the single binary (`bun build --compile`), run from an empty
 * directory with no Bun and no node_modules on its path, driven by the SDK's
 * StdioClientTransport once per protocol version: all thirteen tools with validated results.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { buildBinary } from "../support/binary"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { checkResult, checkToolList, fixtureEnv, pin, type ToolInfo, toolCalls, VERSIONS } from "./client"
import { type Fixtures, startFixtures } from "./fixtures"

const root = resolve(import.meta.dir, "../..")
const work = mkdtempSync(join(tmpdir(), "di-mcp-bin-"))
const binary = join(work, "domain-intel")
let fx: Fixtures
let key: string

// A bare environment: no Bun, no node_modules reachable.
const env = (extra: Record<string, string> = {}): Record<string, string> =>
  fixtureEnv(fx, { path: "/usr/bin:/bin", home: work, databaseFile: join(work, "bin.db") }, extra)

beforeAll(async () => {
  buildBinary(join(work, "build", "domain-intel"))
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
    test(`stdio on ${version}: list and call all thirteen tools`, async () => {
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

  test("an unknown key: exit 2 with one line on stderr", async () => {
    const child = Bun.spawn([binary, "mcp"], { cwd: work, env: env({ DOMAIN_INTEL_API_KEY: "di_0000000000000000_" + "A".repeat(43) }), stdin: new Blob([""]), stdout: "pipe", stderr: "pipe" })
    expect(await child.exited).toBe(2)
    expect(await new Response(child.stdout).text()).toBe("")
    expect(await new Response(child.stderr).text()).toContain("not a valid API key")
  }, 30_000)
})
