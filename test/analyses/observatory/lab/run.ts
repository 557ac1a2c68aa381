/**
 * Starts the lab in a fresh network and mount namespace (unshare): only loopback exists there,
 * /etc/hosts names the sites for the Observatory, and the Observatory's HSTS preload list (its
 * conf/ directory, normally filled by its install step) is the lab's.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { OTHER_HOSTS, PRELOAD, SITES } from "./sites"

export interface LabResult {
  readonly ours: Record<string, any>
  readonly theirs: Record<string, any>
  readonly oursMs: Record<string, Array<number>>
  readonly theirsMs: Record<string, Array<number>>
  /** With LAB_AS_USED: the service asked over HTTP, and the Observatory's command line run, once per scan. */
  readonly oursApiMs?: Record<string, Array<number>>
  readonly theirsCliMs?: Record<string, Array<number>>
  /** With LAB_TRACE: each of the service's scans, its requests and lookups timed (bench/observatory/phases.ts). */
  readonly traces: Array<Array<{ what: string; start: number; end: number }>>
  readonly stderr: string
}

const packageDir = dirname(dirname(require.resolve("@mdn/mdn-http-observatory/package.json")))

export const runLab = (env: Record<string, string> = {}): LabResult => {
  const dir = mkdtempSync(join(tmpdir(), "di-observatory-lab-"))
  try {
    const hosts = ["127.0.0.1 localhost", ...SITES.map((s) => `127.0.0.${s.ip ?? 1} ${s.host}`), ...OTHER_HOSTS.map((h) => `127.0.0.1 ${h}`)]
    writeFileSync(join(dir, "hosts"), hosts.join("\n") + "\n")
    const conf = join(dir, "conf")
    spawnSync("mkdir", ["-p", conf])
    writeFileSync(join(conf, "hsts-preload.json"), JSON.stringify(PRELOAD))
    const out = join(dir, "out.json")
    const script = [
      "set -e",
      "ip link set lo up",
      `mount --bind ${join(dir, "hosts")} /etc/hosts`,
      `mount --bind ${conf} ${join(packageDir, "mdn-http-observatory", "conf")}`,
      `exec ${process.execPath} ${join(import.meta.dir, "inside.ts")}`
    ].join("\n")
    const r = spawnSync("unshare", ["--net", "--mount", "--", "sh", "-c", script], {
      env: { ...process.env, ...env, LAB_OUT: out, HSTS_PRELOAD_FILE: join(conf, "hsts-preload.json") },
      encoding: "utf8",
      timeout: 600_000
    })
    if (r.status !== 0) throw new Error(`lab failed (${r.status}): ${r.stderr}`)
    return JSON.parse(readFileSync(out, "utf8")) as LabResult
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
