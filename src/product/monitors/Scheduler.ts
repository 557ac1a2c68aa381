/**
 * The monitor scheduler: every instance runs one; the store decides who runs what.
 * - `claimDue` takes due monitors one conditional UPDATE each, moving `next_run_at` on in the
 *   same statement (`WHERE next_run_at = <the due time seen>`), so of any number of instances
 *   exactly one runs each due run (SQLite and PostgreSQL alike); `claimed_until` keeps a slow run
 *   from overlapping its next one.
 * - A monitor late by a whole interval or more (the service was down) is not run to catch up:
 *   it is moved to a jittered time within its next interval (`planClaim`), so a restart is no burst.
 * - At most MONITOR_CONCURRENCY runs are in flight per instance; each is its own fiber.
 * - Results older than MONITOR_RESULT_RETENTION_DAYS are deleted hourly.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect, FiberSet, Layer, Schedule } from "effect"
import { randomBytes } from "node:crypto"
import { AppConfig } from "../../platform/Config"
import { CtHistory } from "../../adapters/ct/CtHistory"
import { CertInspector } from "../../adapters/x509/CertInspector"
import { Outbound } from "../../adapters/probe/Outbound"
import { WafDetection } from "../../analyses/waf/WafDetection"
import { planClaim } from "./analyze"
import type { MonitorRow } from "./rows"
import { HTTP_TIMEOUT_MS, runMonitor } from "./Runner"

/** A claim outlives the longest run deadline; a crashed runner's monitor is free again after it. */
const claimMs = (operationDeadlineMs: number) => Math.max(operationDeadlineMs, HTTP_TIMEOUT_MS + 2_000) + 30_000
const TICK_MS = 200

export interface Claimed {
  readonly monitor: MonitorRow
  /** The due time this run is for (its result's `scheduled_for`). */
  readonly due: number
}

/** Claims up to `limit` due monitors (see the module comment); the only claim logic. */
export const claimDue = (limit: number, random: () => number = Math.random) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const now = yield* Clock.currentTimeMillis
    const due = yield* sql<{ id: string; next_run_at: number; interval_seconds: number }>`
      SELECT id, next_run_at, interval_seconds FROM monitors
      WHERE enabled = 1 AND next_run_at <= ${now} AND (claimed_until IS NULL OR claimed_until < ${now})
      ORDER BY next_run_at LIMIT ${limit * 2}`
    const claimed: Array<Claimed> = []
    for (const d of due) {
      if (claimed.length >= limit) break
      const at = Number(d.next_run_at)
      const plan = planClaim(at, now, Number(d.interval_seconds) * 1000, random())
      if (!plan.run) {
        yield* sql`UPDATE monitors SET next_run_at = ${plan.next} WHERE id = ${d.id} AND next_run_at = ${at}`
        continue
      }
      const rows = yield* sql<MonitorRow>`UPDATE monitors SET next_run_at = ${plan.next}, claimed_until = ${now + claimMs(config.operationDeadlineMs)}
        WHERE id = ${d.id} AND enabled = 1 AND next_run_at = ${at} AND (claimed_until IS NULL OR claimed_until < ${now})
        RETURNING *`
      if (rows[0]) claimed.push({ monitor: rows[0], due: at })
    }
    return claimed
  })

/** Deletes results past the retention. */
export const pruneResults = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const now = yield* Clock.currentTimeMillis
  yield* sql`DELETE FROM monitor_results WHERE started_at < ${now - config.monitorResultRetentionDays * 86_400_000}`
})

/** The scheduler loop of one instance. */
export const scheduler = Effect.gen(function*() {
  const config = yield* AppConfig
  const runner = `${process.pid}-${randomBytes(4).toString("hex")}`
  const fibers = yield* FiberSet.make()
  let inFlight = 0
  const tick = Effect.gen(function*() {
    const room = config.monitorConcurrency - inFlight
    if (room <= 0) return
    const claimed = yield* claimDue(room)
    for (const c of claimed) {
      inFlight++
      yield* FiberSet.run(
        fibers,
        runMonitor(c.monitor, c.due, runner).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning(`monitor ${c.monitor.id} run failed`, cause)),
          Effect.ensuring(Effect.sync(() => inFlight--))
        )
      )
    }
  })
  yield* tick.pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("monitor scheduler pass failed", cause)),
    Effect.repeat(Schedule.spaced(Duration.millis(TICK_MS))),
    Effect.forkScoped
  )
  yield* pruneResults.pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("monitor result pruning failed", cause)),
    Effect.repeat(Schedule.spaced(Duration.hours(1))),
    Effect.forkScoped
  )
})

/** The services a run needs beyond ServicesLive: the certificate inspector and WAF detection. */
export const RunServicesLive = Layer.mergeAll(
  CertInspector.Live.pipe(Layer.provide(Outbound.Live), Layer.provide(CtHistory.FromAggregator)),
  WafDetection.Live
)

/** The scheduler as a scoped layer (wired in src/surfaces/server/Http.ts beside the alert workers). */
export const MonitorsWorkers = Layer.scopedDiscard(scheduler).pipe(Layer.provide(RunServicesLive))
