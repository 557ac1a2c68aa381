/**
 * Temporary directories that go away with what made them: after the calling test file's tests
 * (bun:test's `afterAll`), or, in a helper process run outside the test runner (a lab started in
 * a network namespace), when that process exits. Without it every run left dozens behind.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    require("bun:test").afterAll(remove)
  } catch {
    process.once("exit", remove)
  }
  return dir
}
