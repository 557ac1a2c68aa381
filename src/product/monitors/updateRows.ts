/**
 * A batch of rows updated in one UPDATE … FROM (VALUES …) on both dialects (a statement per row
 * was most of a batch's statements on PostgreSQL, each a round trip).
 */
import type { SqlClient } from "@effect/sql"
import { Array as Arr, Effect } from "effect"
import { placeholders, valuesTable } from "../../platform/store/Sql"

export type Columns = ReadonlyArray<readonly [string, "TEXT" | "BIGINT" | "INTEGER"]>

/**
 * Sets `columns` after the first `keys` (which find the row) from `rows`; `freeClaim` also clears
 * the row's lease (`claimed_until`), as storing a run does.
 */
export const updateRows = <C extends Columns>(
  sql: SqlClient.SqlClient,
  table: string,
  columns: C,
  keys: number,
  rows: ReadonlyArray<Record<C[number][0], unknown>>,
  freeClaim: boolean
) =>
  Effect.forEach(Arr.chunksOf(rows, 200), (batch) => {
    const v = valuesTable(sql, "v", columns, batch.map((s) => columns.map(([c]) => s[c as C[number][0]])))
    const set = [...columns.slice(keys).map(([c]) => `${c} = v.${c}`), ...(freeClaim ? ["claimed_until = NULL"] : [])].join(", ")
    const on = columns.slice(0, keys).map(([c]) => `${table}.${c} = v.${c}`).join(" AND ")
    return sql.unsafe(placeholders(sql, `UPDATE ${table} SET ${set} FROM ${v.text} WHERE ${on}`), v.params as Array<any>)
  }, { discard: true })
