/**
 * Pure-core accuracy bench: runs the extractor and selector directly over the shared benchmark
 * pages (no HTTP), scores publishDate against gold.json the same way the shared scorer does.
 *
 *   bun bench/freshness/core.ts [--bench ../shared/benchmarks/freshness] [--fails N] [--limit N]
 *
 * The pages are also scored in two fixed halves (FNV-1a hash of the gold URL, even / odd), so a
 * rule can be checked to help on both halves rather than on the pages it was written from.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { decodeHtml } from "../../src/analyses/freshness/decode"
import { dayKey } from "../../src/analyses/freshness/parse/dates"
import { extractSignals } from "../../src/analyses/freshness/extract"
import { selectDates } from "../../src/analyses/freshness/select"

const arg = (n: string, d?: string) => {
  const i = process.argv.indexOf(`--${n}`)
  return i >= 0 ? process.argv[i + 1] : d
}
const dir = arg("bench", join(import.meta.dir, "../../../shared/benchmarks/freshness"))!
const showFails = Number(arg("fails", "0"))
const limit = Number(arg("limit", "0"))
const only = arg("only")
type Gold = { file: string; published: string; path: string; set: string }
let entries = Object.entries(JSON.parse(readFileSync(join(dir, "gold.json"), "utf8")) as Record<string, Gold>)
if (limit > 0) entries = entries.slice(0, limit)
if (only) entries = entries.filter(([u]) => u.includes(only))
const now = Date.parse("2026-01-01T00:00:00Z")
const MAX = 3 * 1024 * 1024

/** FNV-1a (32 bit) of the URL: a fixed split of the pages into halves A (even) and B (odd). */
export const halfOf = (url: string): "A" | "B" => {
  let h = 0x811c9dc5
  for (let i = 0; i < url.length; i++) h = Math.imul(h ^ url.charCodeAt(i), 0x01000193) >>> 0
  return h % 2 === 0 ? "A" : "B"
}
const halves = { A: [0, 0], B: [0, 0] }
let correct = 0, found = 0, inAll = 0
const times: number[] = []
const bySource = new Map<string, [number, number]>()
const fails: string[] = []
const okList: string[] = []
for (const [url, g] of entries) {
  const bytes = gunzipSync(readFileSync(join(dir, g.file)))
  const served = "http://127.0.0.1:8099" + g.path
  const t0 = performance.now()
  const html = decodeHtml(bytes.subarray(0, MAX), undefined)
  const ex = extractSignals(html, served)
  const sel = selectDates(ex.signals, now)
  times.push(performance.now() - t0)
  const got = sel.publish ? dayKey(sel.publish.date) : null
  if (got) found++
  const ok = got === g.published
  if (ok) correct++
  halves[halfOf(url)][0]++
  if (ok) halves[halfOf(url)][1]++
  if (ok || sel.signals.some((s) => dayKey(s.date) === g.published)) inAll++
  const src = sel.publish?.source ?? "(none)"
  const v = bySource.get(src) ?? [0, 0]
  v[0]++
  if (ok) v[1]++
  bySource.set(src, v)
  okList.push(`${ok ? "OK " : "BAD"} ${url} gold=${g.published} got=${got} via ${src}`)
  if (!ok && fails.length < showFails) {
    const cand = sel.signals.slice(0, 14).map((s) => `${s.source}/${s.type}/${s.region}/t${s.tier}=${dayKey(s.date)}`).join(" ")
    fails.push(`${url}\n   gold ${g.published} got ${got} via ${src}\n   ${cand}`)
  }
}
times.sort((a, b) => a - b)
if (arg("out")) (await import("node:fs")).writeFileSync(arg("out")!, okList.join("\n") + "\n")
const M = entries.length
console.log(fails.join("\n"))
for (const [k, [n, c]] of [...bySource].sort((a, b) => b[1][0] - a[1][0])) console.log(`  ${k}: ${n} pages, ${(100 * c / n).toFixed(1)}% exact`)
for (const h of ["A", "B"] as const) console.log(`half ${h}: exact ${halves[h][1]}/${halves[h][0]} = ${(100 * halves[h][1] / halves[h][0]).toFixed(1)}%`)
console.log(`core: exact ${correct}/${M} = ${(100 * correct / M).toFixed(1)}%, found ${(100 * found / M).toFixed(1)}%, gold among signals ${(100 * inAll / M).toFixed(1)}%, median ms ${times[Math.floor(M / 2)].toFixed(2)}, p90 ${times[Math.floor(M * 0.9)].toFixed(2)}`)
