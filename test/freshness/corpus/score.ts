/** Scores publishDate on the labelled corpus beside this file (labels.json + pages/*.html). Pure: files in, tallies out. */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { dayKey } from "../../../src/analyses/freshness/parse/dates"
import { extractSignals } from "../../../src/analyses/freshness/extract"
import { selectDates } from "../../../src/analyses/freshness/select"

export interface Label { readonly file: string; readonly url: string; readonly published: string; readonly cms: string; readonly lang: string; readonly note: string }

export const CORPUS_DIR = import.meta.dir
export const labels = (): Record<string, Label> => JSON.parse(readFileSync(join(CORPUS_DIR, "labels.json"), "utf8"))

export const scoreCorpus = (nowMs: number) => {
  const results = Object.entries(labels()).map(([id, l]) => {
    const html = readFileSync(join(CORPUS_DIR, l.file), "utf8")
    const sel = selectDates(extractSignals(html, l.url).signals, nowMs)
    const got = sel.publish ? dayKey(sel.publish.date) : null
    return { id, gold: l.published, got, source: sel.publish?.source ?? null, ok: got === l.published, note: l.note }
  })
  return { results, total: results.length, correct: results.filter((r) => r.ok).length }
}
