/**
 * Preloaded by bunfig.toml for every `bun test` run: after the last test file, the temporary
 * directories the tests made (test/support/tmp.ts) are removed.
 */
import { afterAll } from "bun:test"
import { removeTempDirs } from "./tmp"

afterAll(removeTempDirs)
