/**
 * Deciding a located monitor's due runs (docs/monitors.md, "Several locations"). Each listed
 * location stores its own result for a due time; the due run's combined state is decided
 * (src/product/monitors/model/locations.ts `combine`) by the writer that stores the last result
 * of a live listed location, or, when some never come (a location died, or is slow), by the
 * pass below once the interval has passed. Only a decided `ok` or `not_ok` drives the alerts
 * (src/product/monitors/outcome.ts); `unknown` (fewer than the quorum of locations live) opens
 * and resolves nothing. A due run is decided once: `monitors.decided_for` only moves forward,
 * and the monitor's row is locked while it is decided.
 *
 * A writer decides after its results are committed. It first reads, without a transaction, the
 * results stored for its due runs (READ COMMITTED: a statement sees what was committed before
 * it): the writer that committed last sees every result, so a writer that sees too few to decide
 * leaves the due run to the others (two statements, no lock). One that sees enough decides in a
 * transaction of its own that locks the monitors and reads again: of two writers deciding at
 * once, the second waits for the first and finds the due run decided.
 */
import { SqlClient } from "@effect/sql"
import { Array as Arr, Clock, Effect } from "effect"
import { forUpdate, placeholders, valuesTable } from "../../platform/store/Sql"
import { liveLocations } from "./Locations"
import { combine, combinedSummary, lastClosedRun, quorumOf, type RunReports } from "./model/locations"
import { applyOutcome, type Step } from "./outcome"
import { locationsOf, type MonitorRow } from "./rows"
import { updateRows } from "./updateRows"

/** Reads monitors' rows into `into`, in id order; `lock`: locked (FOR UPDATE) until the transaction ends. */
export const readMonitors = (sql: SqlClient.SqlClient, ids: ReadonlyArray<string>, lock: boolean, into: Map<string, MonitorRow>) =>
  Effect.forEach(Arr.chunksOf([...new Set(ids)].sort(), 500), (part) =>
    Effect.map(
      sql<MonitorRow>`SELECT * FROM monitors WHERE id IN ${sql.in(part as Array<string>)} ${lock ? sql`ORDER BY id ${forUpdate(sql)}` : sql``}`,
      (rows) => rows.forEach((m) => into.set(m.id, m))
    ), { discard: true })

/** A due run that may now be decided; `index`: the batch's run that brought it (-1: the pass). */
export interface RoundCandidate {
  readonly monitorId: string
  readonly due: number
  readonly index: number
}

const DECISION_COLUMNS = [
  ["id", "TEXT"],
  ["state", "TEXT"],
  ["decided_for", "BIGINT"],
  ["last_run_at", "BIGINT"],
  ["last_ok", "INTEGER"],
  ["last_summary", "TEXT"],
  ["consecutive_failures", "INTEGER"],
  ["open_alert_id", "TEXT"],
  ["last_alert_at", "BIGINT"]
] as const

interface Report {
  readonly monitor_id: string
  readonly scheduled_for: number
  readonly location: string
  readonly ok: number
  readonly summary: string
  readonly started_at: number
}

/** The stored results of these due runs (one read, by the results' unique key). */
const reportsOf = (sql: SqlClient.SqlClient, runs: ReadonlyArray<RoundCandidate>) =>
  Effect.map(
    Effect.suspend(() => {
      const v = valuesTable(sql, "k", [["monitor_id", "TEXT"], ["scheduled_for", "BIGINT"]], runs.map((r) => [r.monitorId, r.due]))
      return sql.unsafe<Report>(placeholders(sql, `SELECT monitor_id, scheduled_for, location, ok, summary, started_at FROM monitor_results
        WHERE (monitor_id, scheduled_for) IN (SELECT monitor_id, scheduled_for FROM ${v.text})`), v.params as Array<any>)
    }),
    (rows) => {
      const byRun = new Map<string, Array<Report>>()
      for (const r of rows) {
        const key = `${r.monitor_id}|${Number(r.scheduled_for)}`
        byRun.set(key, [...(byRun.get(key) ?? []), r])
      }
      return byRun
    }
  )

/**
 * Decides what of `candidates` can be decided, in the caller's transaction, with `monitors`
 * holding their rows (locked); answers the step of each decision by the index of its candidate.
 */
export const decideRounds = (
  sql: SqlClient.SqlClient,
  monitors: Map<string, MonitorRow>,
  candidates: ReadonlyArray<RoundCandidate>,
  now: number
) =>
  Effect.gen(function*() {
    const steps = new Map<number, Step>()
    // Each due run once (the batch's last run of it answers), oldest first.
    const byRun = new Map<string, RoundCandidate>()
    for (const c of candidates) byRun.set(`${c.monitorId}|${c.due}`, c)
    const open = [...byRun.values()]
      .filter((c) => {
        const m = monitors.get(c.monitorId)
        return m !== undefined && locationsOf(m).length > 0 && (m.decided_for === null || c.due > Number(m.decided_for))
      })
      .sort((a, b) => a.due - b.due)
    if (open.length === 0) return steps
    const reports = yield* reportsOf(sql, open)
    const live = yield* liveLocations(sql)
    const decisions = new Map<string, Record<(typeof DECISION_COLUMNS)[number][0], unknown>>()
    for (const c of open) {
      const m = monitors.get(c.monitorId)!
      if (m.decided_for !== null && c.due <= Number(m.decided_for)) continue
      const locations = locationsOf(m)
      const mine = (reports.get(`${c.monitorId}|${c.due}`) ?? []).filter((r) => locations.includes(r.location))
      const input: RunReports = {
        locations,
        quorum: quorumOf(locations, m.quorum === null ? null : Number(m.quorum)),
        reports: new Map(mine.map((r) => [r.location, Number(r.ok) === 1])),
        live,
        closed: c.due + Number(m.interval_seconds) * 1000 <= now
      }
      const combined = combine(input)
      if (!combined.decided) continue
      const summary = combinedSummary(input, combined, new Map(mine.map((r) => [r.location, r.summary]))).slice(0, 500)
      const at = mine.length === 0 ? now : Math.max(...mine.map((r) => Number(r.started_at)))
      let next: MonitorRow
      if (combined.state === "unknown") {
        next = { ...m, state: "unknown", decided_for: c.due, last_summary: summary }
      } else {
        const ok = combined.state === "ok"
        const o = yield* applyOutcome(sql, m, { ok, summary, at, locationsFailing: combined.failing }, now)
        next = {
          ...m, state: combined.state, decided_for: c.due, last_run_at: at, last_ok: ok ? 1 : 0, last_summary: summary,
          consecutive_failures: o.consecutive, open_alert_id: o.openAlertId, last_alert_at: o.lastAlertAt
        }
        steps.set(c.index, o.step)
      }
      monitors.set(m.id, next)
      decisions.set(m.id, {
        id: m.id, state: next.state, decided_for: next.decided_for, last_run_at: next.last_run_at, last_ok: next.last_ok,
        last_summary: next.last_summary, consecutive_failures: next.consecutive_failures, open_alert_id: next.open_alert_id,
        last_alert_at: next.last_alert_at
      })
    }
    yield* updateRows(sql, "monitors", DECISION_COLUMNS, 1, [...decisions.values()], false)
    return steps
  })

/**
 * After a batch is committed: which of `candidates` (their monitors' rows as the batch read them)
 * can be decided now, by what is committed; those are decided with their monitors locked.
 */
export const decideAfterStoring = (candidates: ReadonlyArray<RoundCandidate>, seen: ReadonlyMap<string, MonitorRow>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    const reports = yield* reportsOf(sql, candidates)
    // Every listed location reported: decidable whoever is live; else it depends on who is.
    let live: ReadonlySet<string> | undefined
    const ready: Array<RoundCandidate> = []
    for (const c of candidates) {
      const m = seen.get(c.monitorId)
      if (m === undefined) continue
      const locations = locationsOf(m)
      const reported = new Map((reports.get(`${c.monitorId}|${c.due}`) ?? []).map((r) => [r.location, Number(r.ok) === 1]))
      if (!locations.every((l) => reported.has(l))) {
        live ??= yield* liveLocations(sql)
        const input = { locations, quorum: quorumOf(locations, m.quorum === null ? null : Number(m.quorum)), reports: reported, live, closed: c.due + Number(m.interval_seconds) * 1000 <= now }
        if (!combine(input).decided) continue
      }
      ready.push(c)
    }
    if (ready.length === 0) return new Map<number, Step>()
    return yield* sql.withTransaction(Effect.gen(function*() {
      const monitors = new Map<string, MonitorRow>()
      yield* readMonitors(sql, ready.map((c) => c.monitorId), true, monitors)
      return yield* decideRounds(sql, monitors, ready, yield* Clock.currentTimeMillis)
    }))
  })

/**
 * One pass over located monitors whose latest due run has closed (its interval passed) without
 * a decision: each is decided with what its locations reported. Rows another instance is
 * deciding are skipped (SKIP LOCKED); answers how many monitors it looked at (a full `limit`:
 * more may be waiting).
 */
export const closeRounds = (limit = 200) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    return yield* sql.withTransaction(Effect.gen(function*() {
      // CAST: whole intervals since the anchor (SQLite may bind `now` as a real).
      const rows = yield* sql<MonitorRow>`SELECT * FROM monitors
        WHERE enabled = 1 AND locations <> '[]' AND next_run_at + interval_seconds * 1000 <= ${now}
          AND (decided_for IS NULL OR decided_for <
            next_run_at + interval_seconds * 1000 * (CAST((${now} - next_run_at) / (interval_seconds * 1000) AS BIGINT) - 1))
        ORDER BY id LIMIT ${limit} ${forUpdate(sql, true)}`
      const monitors = new Map(rows.map((m) => [m.id, m]))
      const candidates: Array<RoundCandidate> = []
      for (const m of rows) {
        const due = lastClosedRun(Number(m.next_run_at), Number(m.interval_seconds) * 1000, now)
        if (due !== null) candidates.push({ monitorId: m.id, due, index: -1 })
      }
      yield* decideRounds(sql, monitors, candidates, now)
      return rows.length
    }))
  })
