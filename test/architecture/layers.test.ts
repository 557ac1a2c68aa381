/**
 * The layers of src/ (docs/architecture.md), checked with dependency-cruiser and its rules file
 * (.dependency-cruiser.cjs): nothing imports from a layer above it, no import cycle between
 * files, no framework internals; and, beyond what its rules express, no cycle between folders
 * and no code file over 400 lines.
 */
import { describe, expect, test } from "bun:test"
import { spawnSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { tempDir } from "../support/tmp"

const root = join(import.meta.dir, "..", "..")
const cli = join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruiser.mjs")

interface Cruise {
  readonly modules: ReadonlyArray<{ readonly source: string; readonly dependencies: ReadonlyArray<{ readonly resolved: string }> }>
  readonly summary: { readonly violations: ReadonlyArray<{ readonly from: string; readonly to: string; readonly rule: { readonly name: string } }> }
}

/** Runs dependency-cruiser (under Bun: it refuses the Node of some machines) in `cwd` over src/. */
const cruise = (cwd: string): Cruise => {
  const r = spawnSync(process.execPath, [cli, "src", "--config", join(root, ".dependency-cruiser.cjs"), "--output-type", "json"], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000
  })
  if (r.status !== 0 && !r.stdout.startsWith("{")) throw new Error(`dependency-cruiser failed: ${r.stderr}`)
  return JSON.parse(r.stdout) as Cruise
}

/** Strongly connected components with more than one member (Tarjan). */
const cycles = (edges: ReadonlyMap<string, ReadonlySet<string>>): Array<Array<string>> => {
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const on = new Set<string>()
  const out: Array<Array<string>> = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const scc: Array<string> = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        scc.push(w)
      } while (w !== v)
      if (scc.length > 1) out.push(scc.sort())
    }
  }
  for (const v of edges.keys()) if (!idx.has(v)) visit(v)
  return out
}

const folderEdges = (result: Cruise): Map<string, Set<string>> => {
  const edges = new Map<string, Set<string>>()
  for (const m of result.modules) {
    if (!m.source.startsWith("src/")) continue
    const from = dirname(m.source)
    if (!edges.has(from)) edges.set(from, new Set())
    for (const d of m.dependencies) {
      if (!d.resolved.startsWith("src/")) continue
      const to = dirname(d.resolved)
      if (to !== from) edges.get(from)!.add(to)
    }
  }
  return edges
}

const codeFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? codeFiles(path) : path.endsWith(".ts") ? [path] : []
  })

describe("layers", () => {
  const result = cruise(root)

  test("dependency-cruiser finds no violation of the rules (layers, cycles, internals)", () => {
    const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
    expect(found).toEqual([])
    // It really read the tree: every layer is there.
    const folders = new Set(result.modules.map((m) => m.source.split("/")[1]))
    for (const layer of ["kernel", "platform", "adapters", "analyses", "product", "surfaces"]) expect(folders.has(layer)).toBe(true)
  })

  test("no cycle between folders of src/", () => {
    expect(cycles(folderEdges(result))).toEqual([])
  })

  test("no code file over 400 lines (data tables and generated assets aside)", () => {
    const dataTables = /^src\/(analyses\/waf\/signatures\/|surfaces\/console\/generated\/)/
    const long = codeFiles(join(root, "src"))
      .map((path) => ({ path: relative(root, path), lines: readFileSync(path, "utf8").split("\n").length }))
      .filter((f) => f.lines > 400 && !dataTables.test(f.path))
      .map((f) => `${f.path}: ${f.lines}`)
    expect(long).toEqual([])
  })
})

describe("the checks can fail", () => {
  // A scratch tree with one of each fault: an upward import, a file cycle, a folder cycle.
  const dir = tempDir("layers-")
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  write("tsconfig.json", readFileSync(join(root, "tsconfig.json"), "utf8"))
  write("src/kernel/a.ts", `import { x } from "../product/p"\nexport const a = x\n`)
  write("src/product/p.ts", `export const x = 1\n`)
  write("src/analyses/one/b.ts", `import { c } from "./c"\nexport const b = () => c\n`)
  write("src/analyses/one/c.ts", `import { b } from "./b"\nimport { e } from "../two/e"\nexport const c = () => b() + e\n`)
  write("src/analyses/two/e.ts", `import { c } from "../one/c"\nexport const e = 1\nexport const f = c\n`)
  const result = cruise(dir)

  test("an upward import and a file cycle are violations", () => {
    const rules = new Set(result.summary.violations.map((v) => v.rule.name))
    expect(rules.has("no-upward-from-kernel")).toBe(true)
    expect(rules.has("no-circular")).toBe(true)
  })

  test("a folder cycle is found", () => {
    expect(cycles(folderEdges(result))).toEqual([["src/analyses/one", "src/analyses/two"]])
  })
})
