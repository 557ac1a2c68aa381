/**
 * Where `domain-intel serve` spends its start-up in the compiled binary, step by step:
 *
 *   ./node_modules/.bin/bun bench/binary/steps.ts [--runs 5] [--flags "--minify --bytecode --compile-jit-policy=3"]
 *
 * Builds bench/binary/steps-entry.ts (which imports the big dependencies one after another, then
 * builds serve's layers) with the same flags as the service, runs it RUNS times on a copy of a
 * migrated SQLite store, and prints per step the median time since process start, the median time
 * the step itself took, and the median RSS after it.
 */
import { BUILD_FLAGS } from "../../scripts/build"
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const runs = Number(arg("runs", "5"))
const flags = arg("flags", BUILD_FLAGS.filter((f) => f !== "--compile").join(" ")).split(" ").filter(Boolean)
const root = resolve(import.meta.dir, "../..")
const work = mkdtempSync(join(tmpdir(), "di-steps-"))

const build = (entry: string, out: string) => {
  const r = spawnSync(process.execPath, ["build", "--compile", ...flags, entry, "--outfile", out], { cwd: root, encoding: "utf8" })
  if (r.status !== 0) throw new Error(`build of ${entry} failed: ${r.stderr}`)
  return out
}

const service = build("src/main.ts", join(work, "domain-intel"))
const steps = build("bench/binary/steps-entry.ts", join(work, "steps"))
const template = join(work, "template.db")
const env = (db: string) => ({ PATH: "/usr/bin:/bin", HOME: work, PORT: "0", HOST: "127.0.0.1", DATABASE_URL: `sqlite:${db}`, LOG_LEVEL: "warning" })
const migrated = spawnSync(service, ["keys", "create", "--org", "bench", "--plan", "free"], { cwd: work, env: env(template) })
if (migrated.status !== 0) throw new Error(`could not prepare the store: ${migrated.stderr}`)

type Mark = { step: string; ms: number; rss: number }
const all: Array<Array<Mark>> = []
for (let i = 0; i < runs; i++) {
  const db = join(work, `s-${i}.db`)
  copyFileSync(template, db)
  const r = spawnSync(steps, [], { cwd: work, env: env(db), encoding: "utf8" })
  if (r.status !== 0) throw new Error(`run failed: ${r.stderr}`)
  all.push(r.stdout.trim().split("\n").filter((l) => l.startsWith("{\"step\"")).map((l) => JSON.parse(l) as Mark))
}
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`bun ${Bun.version}, ${runs} runs, build flags: ${flags.join(" ") || "(none)"}; medians`)
console.log(`${"step".padEnd(66)} ${"at ms".padStart(7)} ${"step ms".padStart(8)} ${"RSS MB".padStart(7)}`)
all[0].forEach((m, j) => {
  const at = median(all.map((run) => run[j].ms))
  const took = median(all.map((run) => run[j].ms - (j > 0 ? run[j - 1].ms : 0)))
  const rss = median(all.map((run) => run[j].rss))
  console.log(`${m.step.padEnd(66)} ${at.toFixed(1).padStart(7)} ${took.toFixed(1).padStart(8)} ${rss.toFixed(1).padStart(7)}`)
})
