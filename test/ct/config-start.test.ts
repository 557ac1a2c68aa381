/** CT_SOURCES naming an unknown source stops `serve` before it listens, with a message naming the variable. */
import { expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { join } from "node:path"

const root = join(import.meta.dir, "..", "..")

test("serve refuses CT_SOURCES=crtsh,censys: exit 1, one line on stderr naming the variable and the known sources", () => {
  const r = spawnSync(process.execPath, ["src/main.ts", "serve"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", DATABASE_URL: "sqlite::memory:", PORT: "0", HOST: "127.0.0.1", CT_SOURCES: "crtsh,censys" },
    encoding: "utf8",
    timeout: 30_000
  })
  expect(r.status).toBe(1)
  expect(r.stderr.trim()).toBe('domain-intel: CT_SOURCES: unknown CT source "censys" (known: crtsh, certspotter)')
})
