/**
 * Checks every relative link in README.md and docs/**.md: the file it names must exist and, for
 * a `#anchor`, the target must have a heading with that anchor (GitHub's rule: the heading's
 * text lower-cased, punctuation dropped, spaces as hyphens, `-1`, `-2` … for repeats). Fenced
 * code blocks are skipped. Prints each broken link and exits 1 when there is one.
 *
 *   ./node_modules/.bin/bun scripts/check-links.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const root = resolve(import.meta.dir, "..")

const markdownFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith(".md") ? [path] : []
  })

/** The lines outside fenced code blocks. */
const proseLines = (text: string): Array<string> => {
  let fenced = false
  return text.split("\n").filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      return false
    }
    return !fenced
  })
}

const slug = (heading: string): string =>
  heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link's text stays, its target goes
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")

const anchorsCache = new Map<string, Set<string>>()
const anchorsOf = (file: string): Set<string> => {
  const cached = anchorsCache.get(file)
  if (cached) return cached
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const line of proseLines(readFileSync(file, "utf8"))) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!m) continue
    const base = slug(m[1])
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  anchorsCache.set(file, anchors)
  return anchors
}

const files = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))]
const broken: Array<string> = []
let checked = 0
for (const file of files) {
  for (const line of proseLines(readFileSync(file, "utf8"))) {
    // Inline code cannot hold a link.
    const text = line.replace(/`[^`]*`/g, "")
    for (const m of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto:
      checked++
      const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined]
      const resolved = pathPart === "" ? file : resolve(dirname(file), decodeURI(pathPart))
      const where = `${relative(root, file)}: ${target}`
      if (!existsSync(resolved)) {
        broken.push(`${where} (no such file)`)
        continue
      }
      if (anchor !== undefined && anchor !== "") {
        if (!resolved.endsWith(".md")) continue
        if (!anchorsOf(resolved).has(decodeURIComponent(anchor))) broken.push(`${where} (no heading #${anchor})`)
      }
    }
  }
}
for (const b of broken) console.log(b)
console.log(`${checked} relative links in ${files.length} files; ${broken.length} broken`)
process.exit(broken.length === 0 ? 0 : 1)
