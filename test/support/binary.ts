/**
 * Builds the single binary exactly as `npm run build` does: the flags are read from package.json's
 * `build` script (the one place they are decided), only the output path differs.
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"

const root = resolve(import.meta.dir, "../..")

export const buildArgs = (outfile: string): Array<string> => {
  const script: string = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")).scripts.build
  const words = script.trim().split(/\s+/)
  if (words[0] !== "bun" || words[1] !== "build") throw new Error(`unexpected build script: ${script}`)
  const args = words.slice(1)
  const at = args.indexOf("--outfile")
  if (at === -1) throw new Error(`the build script names no --outfile: ${script}`)
  args[at + 1] = outfile
  return args
}

/** Builds the binary to `outfile`; throws with the compiler's output when it fails. */
export const buildBinary = (outfile: string): void => {
  const built = spawnSync(process.execPath, buildArgs(outfile), { cwd: root, encoding: "utf8" })
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`)
}
