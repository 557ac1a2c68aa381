/**
 * Rows that add up counters and keep a latency sketch (src/product/metering/sketch.ts): the
 * analytics rollups and the monitors' daily rollups. Adding a batch to them takes a few
 * statements whatever its size, not three per row (each a round trip to PostgreSQL):
 * - the existing rows' sketches, read with the rows locked (`FOR UPDATE` on PostgreSQL, in key
 *   order, so two writers never wait on each other in a cycle; on SQLite the caller's write
 *   transaction holds the lock);
 * - the missing rows, inserted in one statement (`ON CONFLICT DO NOTHING`); a row another writer
 *   inserted meanwhile is read again, locked, and updated like the others;
 * - the existing rows, updated in one statement: counters added in SQL, the sketch, which SQL
 *   cannot merge, merged here.
 * Run inside the caller's transaction.
 */
import type { SqlClient } from "@effect/sql"
import { Array as Arr, Effect } from "effect"
import { forUpdateText, placeholders, type ValuesColumnType, valuesTable } from "../../platform/store/Sql"
import * as Sketch from "./sketch"

export interface SketchRowsTable {
  readonly table: string
  /** The primary key's columns. */
  readonly key: ReadonlyArray<readonly [string, ValuesColumnType]>
  /** Columns added to (`c = c + new`). The sketch is the column `sketch`. */
  readonly counters: ReadonlyArray<readonly [string, ValuesColumnType]>
}

export interface SketchRowAddition {
  /** Values of `key`, in its order. */
  readonly key: ReadonlyArray<string | number>
  /** Values of `counters`, in their order. */
  readonly counters: ReadonlyArray<number>
  readonly sketch: Sketch.Sketch
}

/** Rows per statement (parameters stay far below either database's limit). */
const CHUNK = 200

const keyText = (values: ReadonlyArray<unknown>) => values.map(String).join("\u0000")

/** Adds `additions` (at most one per key, in key order) to the table's rows. */
export const addToSketchRows = (sql: SqlClient.SqlClient, t: SketchRowsTable, additions: ReadonlyArray<SketchRowAddition>) => {
  const keys = t.key.map(([c]) => c).join(", ")
  const columns = [...t.key, ...t.counters].map(([c]) => c).join(", ")
  const run = (text: string, params: ReadonlyArray<unknown>) => sql.unsafe<Record<string, unknown>>(placeholders(sql, text), params as Array<any>)

  /** The stored sketches of these rows that exist, locked, by key. */
  const locked = (part: ReadonlyArray<SketchRowAddition>) =>
    Effect.map(
      Effect.suspend(() => {
        const v = valuesTable(sql, "k", t.key, part.map((a) => a.key))
        return run(`SELECT ${keys}, sketch FROM ${t.table} WHERE (${keys}) IN (SELECT ${keys} FROM ${v.text})
          ORDER BY ${keys} ${forUpdateText(sql)}`, v.params)
      }),
      (rows) => new Map(rows.map((r) => [keyText(t.key.map(([c]) => r[c])), r.sketch as Uint8Array]))
    )

  return Effect.forEach(Arr.chunksOf(additions, CHUNK), (part) =>
    Effect.gen(function*() {
      const stored = yield* locked(part)
      const missing = part.filter((a) => !stored.has(keyText(a.key)))
      if (missing.length > 0) {
        const row = `(${[...t.key, ...t.counters, 0].map(() => "?").join(", ")})`
        const params: Array<unknown> = []
        for (const a of missing) params.push(...a.key, ...a.counters, Sketch.encode(a.sketch))
        const inserted = yield* run(`INSERT INTO ${t.table} (${columns}, sketch) VALUES ${missing.map(() => row).join(", ")}
          ON CONFLICT (${keys}) DO NOTHING RETURNING ${keys}`, params)
        const done = new Set(inserted.map((r) => keyText(t.key.map(([c]) => r[c]))))
        const raced = missing.filter((a) => !done.has(keyText(a.key)))
        if (raced.length > 0) for (const [k, s] of yield* locked(raced)) stored.set(k, s)
      }
      const rows: Array<ReadonlyArray<unknown>> = []
      for (const a of part) {
        const sketch = stored.get(keyText(a.key))
        if (sketch !== undefined) rows.push([...a.key, ...a.counters, Sketch.encode(Sketch.mergeInto(Sketch.decode(sketch), a.sketch))])
      }
      if (rows.length === 0) return
      const v = valuesTable(sql, "v", [...t.key, ...t.counters, ["sketch", "BYTES"]], rows)
      const set = t.counters.map(([c]) => `${c} = ${t.table}.${c} + v.${c}`).join(", ")
      const on = t.key.map(([c]) => `${t.table}.${c} = v.${c}`).join(" AND ")
      yield* run(`UPDATE ${t.table} SET ${set}, sketch = v.sketch FROM ${v.text} WHERE ${on}`, v.params)
    }), { discard: true })
}
