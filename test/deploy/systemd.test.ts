/**
 * The shipped systemd unit (deploy/systemd): `systemd-analyze verify` finds nothing to say (with
 * ExecStart pointed at an executable that exists here), the offline security analysis rates its
 * sandbox at most 2.0, and the environment file example names only variables the service reads.
 */
import { describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const dir = resolve(import.meta.dir, "../../deploy/systemd")
const unitPath = join(dir, "domain-intel.service")
const unit = readFileSync(unitPath, "utf8")
const analyze = (args: ReadonlyArray<string>) => spawnSync("systemd-analyze", args as Array<string>, { encoding: "utf8", timeout: 30_000 })

/** The unit's directives as name -> values (a name may repeat). */
const directives = (text: string) => {
  const out = new Map<string, Array<string>>()
  for (const line of text.split("\n")) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim())
    if (m) out.set(m[1], [...(out.get(m[1]) ?? []), m[2]])
  }
  return out
}

describe("deploy/systemd/domain-intel.service", () => {
  test("systemd-analyze verify is clean", () => {
    const work = mkdtempSync(join(tmpdir(), "di-unit-"))
    try {
      // The binary is not installed here: point ExecStart at one that exists, keep the rest.
      const copy = join(work, "domain-intel.service")
      expect(unit).toContain("ExecStart=/usr/local/bin/domain-intel serve")
      writeFileSync(copy, unit.replace("ExecStart=/usr/local/bin/domain-intel", `ExecStart=${process.execPath}`))
      const r = analyze(["verify", "--man=no", copy])
      expect(r.stderr).toBe("")
      expect(r.status).toBe(0)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })

  test("systemd-analyze security --offline=true rates the exposure at most 2.0", () => {
    const r = analyze(["security", "--offline=true", "--no-pager", unitPath])
    const m = /Overall exposure level for domain-intel\.service:\s*(\d+(?:\.\d+)?)/.exec(r.stdout)
    expect(m).not.toBeNull()
    expect(Number(m![1])).toBeLessThanOrEqual(2.0)
  })

  test("a dynamic user, state in its StateDirectory, no capabilities, graceful stop, restart on failure", () => {
    const d = directives(unit)
    expect(d.get("DynamicUser")).toEqual(["yes"])
    expect(d.get("StateDirectory")).toEqual(["domain-intel"])
    expect(d.get("Environment")).toContain("DATABASE_URL=sqlite:/var/lib/domain-intel/domain-intel.db")
    expect(d.get("CapabilityBoundingSet")).toEqual([""])
    expect(d.get("RestrictAddressFamilies")).toEqual(["AF_INET AF_INET6 AF_UNIX"])
    expect(d.get("SystemCallFilter")?.[0]).toBe("@system-service")
    expect(d.get("KillSignal")).toEqual(["SIGTERM"])
    expect(d.get("Restart")).toEqual(["on-failure"])
    expect(d.get("UMask")).toEqual(["0077"])
    // Bun's JIT needs writable and executable memory (README, "Deploy on a server").
    expect(d.has("MemoryDenyWriteExecute")).toBe(false)
  })

  test("the environment file example names only variables the service reads", () => {
    const example = readFileSync(join(dir, "domain-intel.env.example"), "utf8")
    const config = readFileSync(resolve(import.meta.dir, "../../src/platform/Config.ts"), "utf8")
    const names = [...example.matchAll(/^#?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1])
    expect(names.length).toBeGreaterThan(5)
    for (const name of names) expect([name, config.includes(`"${name}"`)]).toEqual([name, true])
  })
})
