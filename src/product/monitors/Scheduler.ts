/**
 * The monitor scheduler: every instance runs one; the store decides who runs what.
 * - Claims (src/product/monitors/claim.ts): one statement takes a batch of due runs, as many as
 *   there is room for, so a backlog drains at once instead of a few runs per tick; claiming goes
 *   on without a pause while batches come back full, else after a random pause around TICK.
 * - At most MONITOR_CONCURRENCY runs are in flight per instance, each its own fiber.
 * - Results are stored in batches by the result writer (src/product/monitors/ResultWriter.ts).
 * - Maintenance (src/product/monitors/maintenance.ts) prunes in small batches every few minutes.
 * - Locations (docs/monitors.md, "Several locations"): the instance's heartbeat
 *   (src/product/monitors/Locations.ts); each pass claims this location's shares of located
 *   monitors first, then any-location monitors; a pass every second decides the due runs of
 *   located monitors whose interval passed without every live location's result
 *   (src/product/monitors/rounds.ts).
 * - A monitor's first run is spread over its first interval (`firstRunAt`); the cadence keeps
 *   that phase, so runs stay spread (jitter) across restarts and catch-ups.
 */
import { SqlClient } from "@effect/sql"
import { Duration, Effect, FiberSet, Layer, Random } from "effect"
import { randomBytes } from "node:crypto"
import type { Organization } from "../accounts/Keys"
import { AppConfig } from "../../platform/Config"
import { CtHistory } from "../../adapters/ct/CtHistory"
import { CertInspector } from "../../adapters/x509/CertInspector"
import { Outbound } from "../../adapters/probe/Outbound"
import { Rdap } from "../../adapters/rdap/Rdap"
import { type Claimed, claimDue, claimShares } from "./claim"
import { heartbeat } from "./Locations"
import { closeRounds } from "./rounds"
import { HTTP_TIMEOUT_MS } from "./kinds/classic"
import { backfillRollups, pruneMonitorData } from "./maintenance"
import { makeResultWriter } from "./ResultWriter"
import { WafDetection } from "../../analyses/waf/WafDetection"
import { runMonitor } from "./Runner"

/** A lease outlives the longest run deadline; a crashed runner's monitor is free again after it. */
export const leaseMs = (operationDeadlineMs: number) => Math.max(operationDeadlineMs, HTTP_TIMEOUT_MS + 2_000) + 30_000
/**
 * The mean pause between claims when nothing more is due. Each pause is drawn from
 * [TICK/2, 3·TICK/2): instances sharing a database on fixed, equal pauses keep whatever phase
 * they started with, and the one that claims just before the other takes most of what falls due
 * (29,229 vs 10,742 runs in the two-instance bench); random pauses give each the same chance.
 */
export const TICK = Duration.millis(100)
const pause = Effect.flatMap(Random.nextRange(0.5, 1.5), (f) => Effect.sleep(Duration.times(TICK, f)))
/** Runs claimed by one statement at most. */
export const CLAIM_BATCH = 500
const MAINTENANCE_EVERY = Duration.minutes(5)
/** How often an instance looks for located monitors' due runs to decide once their interval passed. */
const DECIDE_EVERY = Duration.seconds(1)
const DECIDE_BATCH = 200

const orgsOf = (claimed: ReadonlyArray<Claimed>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = [...new Set(claimed.map((c) => c.monitor.org_id))]
    if (ids.length === 0) return new Map<string, Organization>()
    const rows = yield* sql<Organization>`SELECT id, name, plan FROM organizations WHERE id IN ${sql.in(ids)}`
    return new Map(rows.map((o) => [o.id, o]))
  })

/** The scheduler loop of one instance. */
export const scheduler = Effect.gen(function*() {
  const config = yield* AppConfig
  const runner = `${process.pid}-${randomBytes(4).toString("hex")}`
  const location = config.instanceLocation
  // Known to the store (and so to the other instances) before this instance claims anything.
  yield* heartbeat
  // Created before the run fibers, so on shutdown the runs stop first and the writer stores the rest.
  const writer = yield* makeResultWriter
  const fibers = yield* FiberSet.make()
  const lease = leaseMs(config.operationDeadlineMs)
  let inFlight = 0

  /**
   * One claim of this location's shares of located monitors, then of any-location monitors with
   * the room left; true when the claims came back full (more may be due at once).
   */
  const pass = Effect.gen(function*() {
    const room = Math.min(config.monitorConcurrency - inFlight, CLAIM_BATCH)
    if (room <= 0) return false
    const shares = yield* claimShares(location, room, lease)
    const claimed = [...shares, ...(yield* claimDue(room - shares.length, lease))]
    const orgs = yield* orgsOf(claimed)
    for (const c of claimed) {
      inFlight++
      const share = c.share !== null
      yield* FiberSet.run(
        fibers,
        runMonitor(c.monitor, orgs.get(c.monitor.org_id), c.due, runner, location, share).pipe(
          Effect.catchAllCause((cause) =>
            Effect.as(Effect.logWarning(`monitor ${c.monitor.id} run failed`, cause), {
              _tag: "release" as const,
              monitorId: c.monitor.id,
              share: c.share
            })
          ),
          Effect.flatMap(writer.offer),
          Effect.ensuring(Effect.sync(() => inFlight--))
        )
      )
    }
    return claimed.length === room
  })

  yield* pass.pipe(
    Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("monitor scheduler pass failed", cause), false)),
    Effect.flatMap((full) => (full ? Effect.yieldNow() : pause)),
    Effect.forever,
    Effect.forkScoped
  )
  // Due runs of located monitors whose interval passed without every live location's result.
  yield* closeRounds(DECIDE_BATCH).pipe(
    Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("monitor run decisions failed", cause), 0)),
    Effect.repeat({ while: (n) => n >= DECIDE_BATCH }),
    Effect.zipRight(Effect.sleep(DECIDE_EVERY)),
    Effect.forever,
    Effect.forkScoped
  )
  yield* Effect.all([pruneMonitorData, backfillRollups()]).pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("monitor maintenance failed", cause)),
    Effect.zipRight(Effect.sleep(MAINTENANCE_EVERY)),
    Effect.forever,
    Effect.forkScoped
  )
})

/** The services a run needs beyond ServicesLive: certificates, WAF detection and RDAP. */
export const RunServicesLive = Layer.mergeAll(
  CertInspector.Live.pipe(Layer.provide(CtHistory.FromAggregator)),
  WafDetection.Live,
  Rdap.Live
).pipe(Layer.provide(Outbound.Live))

/**
 * The scheduler as a scoped layer (wired in src/surfaces/server/Http.ts beside the alert workers). No trace
 * exporter is configured, so spans (each run's `Effect.fn` and SQL statement spans) would be
 * pure cost, as on the server's request path: the tracer is off for every fiber it forks.
 */
export const MonitorsWorkers = Layer.scopedDiscard(Effect.withTracerEnabled(scheduler, false)).pipe(Layer.provide(RunServicesLive))
