/**
 * The one place the single binary's build is decided (`npm run build`; the binary tests and
 * bench/binary build through `buildBinary`):
 *
 *   bun scripts/build.ts [--outfile dist/domain-intel]
 *
 * Two passes of `bun build --compile` (docs/operating.md, "The binary"):
 * 1. `--minify --bytecode --compile-jit-policy=100000`: the bytecode cache halves start-up; the
 *    JIT's tier-up thresholds scaled so far that nothing is optimized while the server starts
 *    and idles, until src/platform/jitPolicy.ts sets the running policy at the first work
 *    (~10 MB less idle memory);
 * 2. the same with `--bytecode-order`, from a run of the first binary that started `serve` on an
 *    empty SQLite store, answered /healthz, /readyz and an authenticated request, let the
 *    background workers make their first passes, and stopped: Bun
 *    lays the bytecode that run used at the front of the file, so a start reads fewer pages.
 * The profile run listens on 127.0.0.1 and an ephemeral port only, and reaches nothing else.
 */
import { spawn, spawnSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"

const root = resolve(import.meta.dir, "..")

/** The compiler flags of both passes (the second adds `--bytecode-order`). */
export const BUILD_FLAGS: ReadonlyArray<string> = ["--compile", "--minify", "--bytecode", "--compile-jit-policy=100000"]

const compile = (outfile: string, extra: ReadonlyArray<string> = []) => {
  const r = spawnSync(process.execPath, ["build", ...BUILD_FLAGS, ...extra, "src/main.ts", "--outfile", outfile], { cwd: root, encoding: "utf8" })
  if (r.status !== 0) throw new Error(`bun build failed: ${r.stderr}${r.stdout}`)
}

const PROFILE_SETTLE_MS = 1500

/** Runs `binary serve` as a user's first start does, recording which bytecode it uses. */
const recordOrder = async (binary: string, work: string): Promise<string | undefined> => {
  const order = join(work, "bytecode-order.txt")
  const child = spawn(binary, ["serve"], {
    cwd: work,
    env: {
      PATH: "/usr/bin:/bin", HOME: work, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", LOG_ACCESS: "false",
      DATABASE_URL: `sqlite:${join(work, "profile.db")}`, BUN_BYTECODE_ORDER_OUT: order
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let out = ""
  let err = ""
  child.stdout!.on("data", (d) => (out += d))
  child.stderr!.on("data", (d) => (err += d))
  const exited = new Promise<void>((done) => child.once("exit", () => done()))
  try {
    const deadline = Date.now() + 20_000
    let port: number | undefined
    while (port === undefined && Date.now() < deadline && child.exitCode === null) {
      const m = /Listening on http:\/\/[^\s"]+:(\d+)/.exec(err)
      if (m) port = Number(m[1])
      else await Bun.sleep(10)
    }
    if (port === undefined) throw new Error(`the profile run did not start: ${err.slice(-2000)}`)
    const key = /^(di_\S+)$/m.exec(out)?.[1]
    const base = `http://127.0.0.1:${port}`
    for (const path of ["/healthz", "/readyz"]) await fetch(base + path).then((r) => r.arrayBuffer())
    if (key !== undefined) await fetch(`${base}/v1/account`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer())
    // The background workers start half a second after the listener (src/surfaces/server/Http.ts):
    // the run lasts until their first passes are done, so their code is in the order too.
    await Bun.sleep(PROFILE_SETTLE_MS)
  } finally {
    child.kill("SIGTERM")
    await exited
  }
  return existsSync(order) && readFileSync(order, "utf8").length > 0 ? order : undefined
}

/** Builds the binary to `outfile` (both passes); throws with the compiler's output on failure. */
export const buildBinary = async (outfile: string): Promise<void> => {
  mkdirSync(dirname(outfile), { recursive: true })
  const work = mkdtempSync(join(tmpdir(), "di-build-"))
  try {
    const first = join(work, "domain-intel")
    compile(first)
    const order = await recordOrder(first, work)
    // Without a profile (a run that recorded nothing) the first pass is the binary: same code,
    // default layout, so it is not compiled again.
    if (order === undefined) copyFileSync(first, outfile)
    else compile(outfile, [`--bytecode-order=${order}`])
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const at = process.argv.indexOf("--outfile")
  const outfile = resolve(at > 0 ? process.argv[at + 1] : join(root, "dist", "domain-intel"))
  await buildBinary(outfile)
  console.log(`built ${outfile}`)
}
