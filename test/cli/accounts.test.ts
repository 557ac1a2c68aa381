/**
 * The account commands from the checkout (`bun src/main.ts …`): output a script can read, one
 * readable line on stderr for every failure, exit codes 0 / 1 / 2, help on every command.
 */
import { describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { join, resolve } from "node:path"
import { tempDir } from "../support/tmp"

const root = resolve(import.meta.dir, "../..")
const work = tempDir("di-cli-")
const db = { DATABASE_URL: `sqlite:${join(work, "cli.db")}` }

const cli = (args: ReadonlyArray<string>, env: Record<string, string> = db) => {
  const r = spawnSync(process.execPath, ["src/main.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, ...env },
    encoding: "utf8",
    timeout: 30_000
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, last: r.stdout.trim().split("\n").pop() ?? "" }
}

/** A failure: exactly one line on stderr, prefixed with the program name, no stack, no JSON log. */
const expectOneLine = (r: ReturnType<typeof cli>, code: number, pattern: RegExp) => {
  expect(r.code).toBe(code)
  const lines = r.stderr.trim().split("\n")
  expect(lines.length).toBe(1)
  expect(lines[0]).toMatch(/^domain-intel: /)
  expect(lines[0]).toMatch(pattern)
  expect(r.stderr).not.toMatch(/"message"|\bat .*\.ts:\d+|\x1b\[/)
}

describe("keys, orgs and audit-tokens", () => {
  test("the whole lifecycle", () => {
    const created = cli(["keys", "create", "--org", "acme", "--plan", "pro", "--name", "ci", "--expires-in", "30"])
    expect(created.code).toBe(0)
    expect(created.last).toMatch(/^di_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    const id = created.last.split("_")[1]

    // A plan change through keys create is refused, and the plan stays.
    expectOneLine(cli(["keys", "create", "--org", "acme", "--plan", "free"]), 2, /exists on the pro plan.*orgs set-plan/)

    const listed = JSON.parse(cli(["keys", "list", "--org", "acme", "--json"]).stdout)
    expect(listed).toHaveLength(1)
    expect(Object.keys(listed[0]).sort()).toEqual(["created_at", "expires_at", "id", "last_used_at", "name", "org", "plan", "revoked_at"])
    expect(listed[0]).toMatchObject({ id, org: "acme", plan: "pro", name: "ci", last_used_at: null, revoked_at: null })
    expect(JSON.stringify(listed)).not.toContain(created.last.replace(/^di_[0-9a-f]{16}_/, ""))
    const text = cli(["keys", "list"])
    expect(text.stdout.split("\n")[0]).toMatch(/^id\s+org\s+plan\s+name\s+created_at\s+last_used_at\s+expires_at\s+revoked_at$/)

    const rotated = cli(["keys", "rotate", id, "--grace-hours", "1"])
    expect(rotated.code).toBe(0)
    expect(rotated.last).toMatch(/^di_/)
    expect(rotated.last).not.toBe(created.last)
    const revoked = cli(["keys", "revoke", created.last]) // the whole key works as well as its id
    expect(revoked.code).toBe(0)
    const after = JSON.parse(cli(["keys", "list", "--json"]).stdout)
    expect(after.find((k: any) => k.id === id).revoked_at).toMatch(/^\d{4}-/)
    expectOneLine(cli(["keys", "rotate", id]), 2, /already revoked/)
    expectOneLine(cli(["keys", "revoke", "ffffffffffffffff"]), 2, /no API key with id ffffffffffffffff/)

    const orgs = JSON.parse(cli(["orgs", "list", "--json"]).stdout)
    expect(orgs).toEqual([expect.objectContaining({ name: "acme", plan: "pro", active_keys: 1 })])
    expect(cli(["orgs", "set-plan", "--org", "acme", "--plan", "enterprise"]).code).toBe(0)
    expect(JSON.parse(cli(["orgs", "list", "--json"]).stdout)[0].plan).toBe("enterprise")
    expectOneLine(cli(["orgs", "set-plan", "--org", "nobody", "--plan", "free"]), 2, /'nobody' does not exist/)

    const token = cli(["audit-tokens", "create", "--org", "acme", "--domain", "Shop.Acme.Test"])
    expect(token.code).toBe(0)
    expect(token.last).toMatch(/^dia_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    expectOneLine(cli(["audit-tokens", "create", "--org", "acme", "--domain", "com"]), 2, /public suffix/)
    expectOneLine(cli(["audit-tokens", "create", "--org", "acme", "--domain", "co.uk"]), 2, /public suffix/)
    const tokens = cli(["audit-tokens", "list", "--org", "acme", "--json"])
    expect(JSON.parse(tokens.stdout)).toEqual([expect.objectContaining({ domain: "shop.acme.test", revoked_at: null })])
    expect(cli(["audit-tokens", "revoke", token.last.split("_")[1]]).code).toBe(0)
    expect(JSON.parse(cli(["audit-tokens", "list", "--json"]).stdout)[0].revoked_at).toMatch(/^\d{4}-/)
  })
})

describe("usage errors name the right level and exit 2", () => {
  test("unknown commands", () => {
    expectOneLine(cli(["frob"]), 2, /unknown command 'frob'; commands: .*keys.*orgs/)
    expectOneLine(cli(["keys", "frob"]), 2, /unknown command 'keys frob'; keys commands: create, list, revoke, rotate/)
    expectOneLine(cli(["orgs", "frob"]), 2, /unknown command 'orgs frob'; orgs commands: list, set-plan/)
    expectOneLine(cli(["audit-tokens"]), 2, /'audit-tokens' needs a command: create, list, revoke/)
  })

  test("missing and invalid options", () => {
    expectOneLine(cli(["keys", "create", "--org", "x"]), 2, /--plan/)
    expectOneLine(cli(["keys", "create", "--org", "x", "--plan", "platinum"]), 2, /free, developer, pro, enterprise/)
    expectOneLine(cli(["keys", "create", "--org", "x", "--plan", "free", "--expires-in", "0"]), 2, /--expires-in/)
    expectOneLine(cli(["keys", "revoke"]), 2, /KEY_ID/)
    expectOneLine(cli(["audit-tokens", "create", "--org", "nobody", "--domain", "x.test"]), 2, /'nobody' does not exist/)
  })

  test("a runtime failure is exit 1, one line", () => {
    expectOneLine(cli(["keys", "list"], { DATABASE_URL: "mysql://nowhere" }), 1, /DATABASE_URL/)
  })

  test("every command has help", async () => {
    const commands = [[], ["keys"], ["keys", "create"], ["keys", "list"], ["keys", "revoke"], ["keys", "rotate"], ["orgs"], ["orgs", "list"], ["orgs", "set-plan"], ["audit-tokens"], ["audit-tokens", "create"], ["audit-tokens", "list"], ["audit-tokens", "revoke"], ["serve"], ["migrate"]]
    // Concurrently: each start costs a few hundred ms from source.
    const helps = await Promise.all(commands.map(async (args) => {
      const p = Bun.spawn([process.execPath, "src/main.ts", ...args, "--help"], { cwd: root, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, ...db }, stdout: "pipe" })
      return { args, code: await p.exited, stdout: await new Response(p.stdout).text() }
    }))
    for (const h of helps) {
      expect(h.code).toBe(0)
      expect(h.stdout).toContain("USAGE")
      expect(h.stdout).toContain("DESCRIPTION")
    }
  })
})
