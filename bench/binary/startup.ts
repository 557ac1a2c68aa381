/**
 * Start-up time (spawn → first 200 from /healthz) and idle RSS of the compiled `domain-intel`
 * binary, next to a bare Bun.serve binary, in one run:
 *
 *   ./node_modules/.bin/bun bench/binary/startup.ts [--runs 7] [--before REF]
 *
 * The service is built as `npm run build` builds it (scripts/build.ts: two passes, the second
 * laid out by a profile run); the bare binary with the same compiler flags. Each is started RUNS times on a fresh SQLite file in an
 * empty directory (a copy of an already migrated store, as on every start but the first;
 * `--fresh` starts on an empty one), polled every 2 ms; RSS is read from /proc/<pid>/status after 3 s idle.
 * Prints the median and range of each. `--before REF` also builds the service at that git
 * commit (a temporary worktree sharing node_modules) and measures it in the same session; the
 * binaries take turns run by run, so a busy machine weighs on all of them alike.
 */
import { spawn, spawnSync } from "node:child_process"
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, symlinkSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { BUILD_FLAGS, buildBinary } from "../../scripts/build"

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const runs = Number(arg("runs", "7"))
const root = resolve(import.meta.dir, "../..")
const flags = BUILD_FLAGS.filter((f) => f !== "--compile")
const work = mkdtempSync(join(tmpdir(), "di-startup-"))

const build = (entry: string, out: string, extra: ReadonlyArray<string>) => {
  const r = spawnSync(process.execPath, ["build", "--compile", ...extra, entry, "--outfile", out], { cwd: root, encoding: "utf8" })
  if (r.status !== 0) throw new Error(`build of ${entry} failed: ${r.stderr}`)
  return out
}

const freePort = () =>
  new Promise<number>((res) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => res(port))
    })
  })

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return m ? Number(m[1]) / 1024 : NaN
}

const once = async (binary: string, i: number) => {
  const port = await freePort()
  const db = join(work, `s-${Date.now()}-${i}.db`)
  if (!fresh) copyFileSync(template, db)
  const started = performance.now()
  const child = spawn(binary, ["serve"], {
    cwd: work,
    env: { PATH: "/usr/bin:/bin", HOME: work, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: `sqlite:${db}`, LOG_LEVEL: "warning" },
    stdio: "ignore"
  })
  let ms = NaN
  while (performance.now() - started < 20_000) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)
    if (ok) {
      ms = performance.now() - started
      break
    }
    await Bun.sleep(2)
  }
  await Bun.sleep(3000)
  const rss = rssMb(child.pid!)
  child.kill("SIGKILL")
  await new Promise((r) => child.once("exit", r))
  return { ms, rss }
}

const stats = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] }
}

const report = (name: string, binary: string, results: ReadonlyArray<{ ms: number; rss: number }>) => {
  const t = stats(results.map((r) => r.ms))
  const m = stats(results.map((r) => r.rss))
  const size = statSync(binary).size / 1024 / 1024
  console.log(
    `${name.padEnd(34)} healthy ${t.median.toFixed(0).padStart(4)} ms (${t.min.toFixed(0)}-${t.max.toFixed(0)})   ` +
      `idle RSS ${m.median.toFixed(1).padStart(5)} MB (${m.min.toFixed(1)}-${m.max.toFixed(1)})   binary ${size.toFixed(0)} MB`
  )
  return { t, m }
}

/** The service as it was at `ref`, built from a temporary worktree that shares node_modules. */
const buildAt = (ref: string) => {
  const dir = join(work, "before-src")
  const git = (...args: Array<string>) => {
    const r = spawnSync("git", ["-C", root, ...args], { encoding: "utf8" })
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`)
    return r.stdout.trim()
  }
  const commit = git("rev-parse", "--short", ref)
  git("worktree", "add", "--detach", dir, ref)
  try {
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"))
    // That commit's own build: its scripts/build.ts when it has one, else the flags it used then.
    const r = existsSync(join(dir, "scripts", "build.ts"))
      ? spawnSync(process.execPath, ["scripts/build.ts", "--outfile", join(work, "domain-intel-before")], { cwd: dir, encoding: "utf8" })
      : spawnSync(process.execPath, ["build", "--compile", "--minify", "--bytecode", "src/main.ts", "--outfile", join(work, "domain-intel-before")], { cwd: dir, encoding: "utf8" })
    if (r.status !== 0) throw new Error(`build at ${ref} failed: ${r.stderr}`)
  } finally {
    git("worktree", "remove", "--force", dir)
  }
  return { commit, binary: join(work, "domain-intel-before") }
}

const service = join(work, "domain-intel")
await buildBinary(service)
const fresh = process.argv.includes("--fresh")
const template = join(work, "template.db")
const migrated = spawnSync(service, ["keys", "create", "--org", "bench", "--plan", "free"], { cwd: work, env: { PATH: "/usr/bin:/bin", DATABASE_URL: `sqlite:${template}` } })
if (migrated.status !== 0) throw new Error(`could not prepare the store: ${migrated.stderr}`)
const bare = build("bench/binary/bare.ts", join(work, "bare"), flags)
const beforeRef = process.argv.includes("--before") ? arg("before", "main") : undefined
const before = beforeRef === undefined ? undefined : buildAt(beforeRef)
const head = spawnSync("git", ["-C", root, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim()
const dirty = spawnSync("git", ["-C", root, "status", "--porcelain", "src"], { encoding: "utf8" }).stdout.trim() !== ""
console.log(`bun ${Bun.version}, ${runs} runs each, build flags: ${flags.join(" ") || "(none)"}, ${fresh ? "empty" : "migrated"} store`)
const contenders = [
  { name: "bare Bun.serve", binary: bare },
  ...(before ? [{ name: `domain-intel serve at ${before.commit}`, binary: before.binary }] : []),
  { name: `domain-intel serve at ${head}${dirty ? "+" : ""}`, binary: service }
]
const results = contenders.map(() => [] as Array<{ ms: number; rss: number }>)
for (let i = 0; i < runs; i++) {
  for (const [j, c] of contenders.entries()) results[j].push(await once(c.binary, i * contenders.length + j))
}
const summaries = contenders.map((c, j) => report(c.name, c.binary, results[j]))
const b = summaries[0]
const s = summaries[summaries.length - 1]
console.log(`ratio: start-up ${(s.t.median / b.t.median).toFixed(1)}x, idle RSS ${(s.m.median / b.m.median).toFixed(1)}x; extra ${(s.t.median - b.t.median).toFixed(0)} ms, ${(s.m.median - b.m.median).toFixed(1)} MB`)
