/**
 * Temporary directories that go away with the run that made them. Inside `bun test` they are
 * removed once, after every test file has run (test/support/cleanup.ts, preloaded by
 * bunfig.toml): a lab made in one file's hook may serve the next file from the module cache, so
 * no single file's hooks may remove it. In a helper process run outside the runner (a lab
 * started in a network namespace) they are removed when that process exits. Without this every
 * run left about a thousand behind.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

// One registry per process, whichever copy of this module made the directory.
const registry = ((globalThis as Record<symbol, Set<string> | undefined>)[Symbol.for("domain-intel/test/tempDirs")] ??= new Set<string>())

/** Removes every directory made so far in this process. */
export const removeTempDirs = () => {
  for (const dir of registry) rmSync(dir, { recursive: true, force: true })
  registry.clear()
}

export const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  registry.add(dir)
  return dir
}

// A plain process emits "exit"; the test runner does not, and test/support/cleanup.ts covers it.
process.once("exit", removeTempDirs)
