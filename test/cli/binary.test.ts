/**
 * The CLI of docs/cli.md, from the checkout and as the single binary from `bun build --compile`
 * run in an empty directory (no node_modules, no Bun on its path).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { copyFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { buildBinary } from "../support/binary"
import { startServe, until, waitUntilUp } from "../support/process"
import { tempDir } from "../support/tmp"

const root = resolve(import.meta.dir, "../..")
const work = tempDir("di-bin-")
const binary = join(work, "domain-intel")
let origin: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  await buildBinary(join(work, "build", "domain-intel"))
  copyFileSync(join(work, "build", "domain-intel"), binary)
  origin = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("hello", { headers: { server: "bin-origin" } }) })
}, 120_000)
afterAll(() => origin?.stop(true))

// A bare environment: no Bun, no node_modules reachable.
const env = (extra: Record<string, string>) => ({ PATH: "/usr/bin:/bin", HOME: work, ...extra })

const runCli = (args: ReadonlyArray<string>, extra: Record<string, string>) =>
  spawnSync(binary, args, { cwd: work, env: env(extra), encoding: "utf8", timeout: 30000 })

describe("single binary", () => {
  test("migrate, keys create and audit-tokens create print what scripts read", () => {
    const db = { DATABASE_URL: `sqlite:${join(work, "cli.db")}` }
    const m = runCli(["migrate"], db)
    expect(m.status).toBe(0)
    const k = runCli(["keys", "create", "--org", "acme", "--plan", "developer"], db)
    expect(k.status).toBe(0)
    expect(k.stdout.trim().split("\n").pop()).toMatch(/^di_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    const t = runCli(["audit-tokens", "create", "--org", "acme", "--domain", "acme.test"], db)
    expect(t.status).toBe(0)
    expect(t.stdout.trim().split("\n").pop()).toMatch(/^dia_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    const bad = runCli(["keys", "create", "--org", "acme", "--plan", "platinum"], db)
    expect(bad.status).not.toBe(0)
    const noOrg = runCli(["audit-tokens", "create", "--org", "nobody", "--domain", "x.test"], db)
    expect(noOrg.status).toBe(2)
    expect(noOrg.stderr.trim()).toBe("domain-intel: organization 'nobody' does not exist (create it with keys create)")
  })

  test("keys list, revoke and unknown commands from the binary", () => {
    const db = { DATABASE_URL: `sqlite:${join(work, "cli2.db")}` }
    const k = runCli(["keys", "create", "--org", "ops", "--plan", "pro", "--name", "deploy"], db)
    const id = k.stdout.trim().split("\n").pop()!.split("_")[1]
    const listed = JSON.parse(runCli(["keys", "list", "--json"], db).stdout)
    expect(listed).toEqual([expect.objectContaining({ id, org: "ops", plan: "pro", name: "deploy", revoked_at: null })])
    expect(runCli(["keys", "revoke", id], db).status).toBe(0)
    expect(JSON.parse(runCli(["keys", "list", "--json"], db).stdout)[0].revoked_at).not.toBeNull()
    const wrong = runCli(["keys", "delete", id], db)
    expect(wrong.status).toBe(2)
    expect(wrong.stderr.trim()).toBe("domain-intel: unknown command 'keys delete'; keys commands: create, list, revoke, rotate (see keys --help)")
  })

  test("a start on a busy port fails in one line and creates nothing; the next start prints the key", async () => {
    const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("taken") })
    const db = join(work, "busy.db")
    try {
      const r = runCli(["serve"], { DATABASE_URL: `sqlite:${db}`, PORT: String(busy.port), HOST: "127.0.0.1", LOG_LEVEL: "error" })
      expect(r.status).toBe(1)
      expect(r.stdout).not.toContain("di_")
      expect(r.stderr.trim().split("\n")).toHaveLength(1)
      expect(r.stderr).toMatch(/^domain-intel: /)
    } finally {
      busy.stop(true)
    }
    const again = await startServe(binary, ["serve"], { cwd: work, env: env({ DATABASE_URL: `sqlite:${db}` }) })
    try {
      const key = await until(() => again.stdout().match(/^di_\S+$/m)?.[0], "the bootstrap key on stdout")
      expect((await fetch(`http://127.0.0.1:${again.port}/v1/account`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200)
    } finally {
      again.child.kill("SIGKILL")
    }
  })

  // src/platform/jitPolicy.ts: the binary starts with the optimizing tiers held back and restores
  // them at the first work. JavaScriptCore reports each optimizing compile when asked to.
  test("the JIT optimizes nothing while the server only starts and idles, and resumes at the first work", async () => {
    const db = join(work, "jit.db")
    const s = await startServe(binary, ["serve"], {
      cwd: work,
      env: env({ DATABASE_URL: `sqlite:${db}`, BUN_JSC_reportDFGCompileTimes: "true", BUN_JSC_reportFTLCompileTimes: "true" })
    })
    const optimized = () => (s.stderr().match(/using (DFG|FTL)/g) ?? []).length
    try {
      const base = `http://127.0.0.1:${s.port}`
      expect(await waitUntilUp(`${base}/healthz`)).toBe(true)
      const key = await until(() => s.stdout().match(/^di_\S+$/m)?.[0], "the bootstrap key on stdout")
      // Probes and the background workers' first passes (they start half a second in): no work.
      for (let i = 0; i < 50; i++) expect((await fetch(`${base}/healthz`)).status).toBe(200)
      await Bun.sleep(1500)
      expect(optimized()).toBe(0)
      // One caller's request is work; then the request path becomes hot and is optimized, within
      // fewer requests in all than WORK_REQUESTS (1000), which would be work on their own.
      expect((await fetch(`${base}/v1/account`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200)
      for (let round = 0; round < 9 && optimized() === 0; round++) {
        for (let i = 0; i < 100; i++) await fetch(`${base}/healthz`).then((r) => r.arrayBuffer())
        await Bun.sleep(200)
      }
      expect(optimized()).toBeGreaterThan(0)
    } finally {
      s.child.kill("SIGKILL")
    }
  }, 60_000)

  test("serve creates the default organization, prints its key once, and answers an http-check", async () => {
    const db = join(work, "serve.db")
    const { child, port, stdout, exited } = await startServe(binary, ["serve"], {
      cwd: work,
      env: env({ DATABASE_URL: `sqlite:${db}`, ALLOW_PRIVATE_TARGETS: "true" })
    })
    try {
      expect(await waitUntilUp(`http://127.0.0.1:${port}/healthz`)).toBe(true)
      // Printed once the listener is bound: just after, not before.
      const key = await until(() => stdout().match(/^di_\S+$/m)?.[0], "the bootstrap key on stdout")
      const res = await fetch(
        `http://127.0.0.1:${port}/v1/network/http-check?url=${encodeURIComponent(`http://127.0.0.1:${origin.port}/`)}&method=GET`,
        { headers: { authorization: `Bearer ${key}` } }
      )
      expect(res.status).toBe(200)
      const body = (await res.json()) as any
      expect(body.status.code).toBe(200)
      expect(body.headers.server).toBe("bin-origin")
      expect(body.content_length_bytes).toBe(5)
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
    } finally {
      child.kill("SIGKILL")
    }
    // A second start finds the organization and prints no new key.
    const again = await startServe(binary, ["serve"], { cwd: work, env: env({ DATABASE_URL: `sqlite:${db}` }) })
    try {
      expect(await waitUntilUp(`http://127.0.0.1:${again.port}/healthz`)).toBe(true)
      expect(again.stdout()).not.toContain("di_")
    } finally {
      again.child.kill("SIGKILL")
    }
  })
})
