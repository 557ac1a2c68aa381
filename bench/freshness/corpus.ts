/**
 * Exact-day accuracy of publishDate on the project's own labelled corpus (test/freshness/corpus:
 * pages written in the style of common CMSs, news sites, forums and docs sites in several
 * languages, each with its true publication date in labels.json). Extraction and selection only.
 *
 *   bun bench/freshness/corpus.ts [--fails]
 */
import { scoreCorpus } from "../../test/freshness/corpus/score"

const r = scoreCorpus(Date.parse("2026-11-28T00:00:00Z"))
for (const m of r.results) if (!m.ok || !process.argv.includes("--fails")) console.log(`${m.ok ? "OK " : "BAD"} ${m.id.padEnd(28)} gold ${m.gold} got ${m.got ?? "none"} via ${m.source ?? "-"}${m.ok ? "" : `  [${m.note}]`}`)
console.log(`corpus: exact ${r.correct}/${r.total} = ${(100 * r.correct / r.total).toFixed(1)}%`)
