/**
 * The alerting background fibers, as one scoped layer wired in src/surfaces/server/Http.ts:
 * - the evaluator, every ALERT_EVAL_INTERVAL_MS, while this instance holds the `alert-evaluator`
 *   lease (so one evaluator runs per database);
 * - the outbox dispatcher, polling every min(1 s, WEBHOOK_RETRY_BASE_MS): it claims due rows one
 *   by one (src/product/alerts/Outbox.ts `claimRows`, safe with several instances) and forks each
 *   delivery on its own fiber, at most PER_DESTINATION per destination and MAX_IN_FLIGHT in all;
 *   it never waits for a delivery, so one slow receiver delays only its own rows.
 * Both stop with the scope; an interrupted delivery's claim lapses and the row is sent again.
 */
import { Duration, Effect, FiberSet, Layer, Schedule } from "effect"
import { randomBytes } from "node:crypto"
import { Analytics } from "../analytics/Analytics"
import { AppConfig } from "../../platform/Config"
import { Alerts } from "./Alerts"
import { evaluateOnce } from "./Evaluator"
import { acquireLease, releaseLease } from "./Lease"
import { claimRows, deliverRow, PER_DESTINATION } from "./Outbox"
import { destinationKey } from "./webhook"

const MAX_IN_FLIGHT = 64

const loop = <A, E, R>(name: string, everyMs: number, work: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const holder = `${process.pid}-${randomBytes(6).toString("hex")}`
    // Long enough that a slow pass never outlives its lease; a crashed holder is replaced after
    // at most this long (a clean stop releases it at once).
    const ttl = Math.max(3 * everyMs, 30_000)
    yield* Effect.addFinalizer(() => releaseLease(name, holder).pipe(Effect.ignore))
    yield* acquireLease(name, holder, ttl).pipe(
      Effect.flatMap((mine) => (mine ? Effect.asVoid(work) : Effect.void)),
      Effect.catchAllCause((cause) => Effect.logWarning(`${name} pass failed`, cause)),
      Effect.repeat(Schedule.spaced(Duration.millis(everyMs))),
      Effect.forkScoped
    )
  })

/** The outbox dispatcher: claims what its caps allow and forks each delivery. */
const dispatcher = (everyMs: number) =>
  Effect.gen(function*() {
    const fibers = yield* FiberSet.make()
    const perDestination = new Map<string, number>()
    let inFlight = 0
    const release = (key: string) =>
      Effect.sync(() => {
        inFlight--
        const n = (perDestination.get(key) ?? 1) - 1
        if (n <= 0) perDestination.delete(key)
        else perDestination.set(key, n)
      })
    const tick = Effect.gen(function*() {
      if (inFlight >= MAX_IN_FLIGHT) return
      // Tallies of this pass's own picks, on top of what is already in flight.
      const picked = new Map<string, number>()
      const rows = yield* claimRows(MAX_IN_FLIGHT - inFlight, (row) => {
        const key = row.channel_type === "webhook" ? destinationKey(row.destination) : `email:${row.destination}`
        const n = (perDestination.get(key) ?? 0) + (picked.get(key) ?? 0)
        if (n >= PER_DESTINATION) return false
        picked.set(key, (picked.get(key) ?? 0) + 1)
        return true
      })
      for (const row of rows) {
        const key = row.channel_type === "webhook" ? destinationKey(row.destination) : `email:${row.destination}`
        inFlight++
        perDestination.set(key, (perDestination.get(key) ?? 0) + 1)
        yield* FiberSet.run(
          fibers,
          deliverRow(row).pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("webhook delivery failed", cause)),
            Effect.ensuring(release(key))
          )
        )
      }
    })
    yield* tick.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("alert-outbox pass failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.millis(everyMs))),
      Effect.forkScoped
    )
  })

export const AlertsWorkers = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* AppConfig
    yield* loop("alert-evaluator", config.alertEvalIntervalMs, evaluateOnce)
    yield* dispatcher(Math.min(1_000, config.webhookRetryBaseMs))
  })
).pipe(Layer.provide(Layer.mergeAll(Alerts.Default, Analytics.Default)))
