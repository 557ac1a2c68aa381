/**
 * The alerting background fibers, as one scoped layer wired in src/Http.ts:
 * - the evaluator, every ALERT_EVAL_INTERVAL_MS, while this instance holds the `alert-evaluator`
 *   lease (so one evaluator runs per database);
 * - the outbox sender, polling every min(1 s, WEBHOOK_RETRY_BASE_MS), under the `alert-outbox` lease.
 * Both stop with the scope; a pass interrupted mid-way leaves rows pending, sent on the next run.
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { randomBytes } from "node:crypto"
import { Analytics } from "../analytics/Analytics"
import { AppConfig } from "../Config"
import { Alerts } from "./Alerts"
import { evaluateOnce } from "./Evaluator"
import { acquireLease, releaseLease } from "./Lease"
import { deliverDue } from "./Outbox"

const loop = <A, E, R>(name: string, everyMs: number, work: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const holder = `${process.pid}-${randomBytes(6).toString("hex")}`
    // Long enough that a slow pass (webhooks time out after 10 s) never outlives its lease; a
    // crashed holder is replaced after at most this long (a clean stop releases it at once).
    const ttl = Math.max(3 * everyMs, 30_000)
    yield* Effect.addFinalizer(() => releaseLease(name, holder).pipe(Effect.ignore))
    yield* acquireLease(name, holder, ttl).pipe(
      Effect.flatMap((mine) => (mine ? Effect.asVoid(work) : Effect.void)),
      Effect.catchAllCause((cause) => Effect.logWarning(`${name} pass failed`, cause)),
      Effect.repeat(Schedule.spaced(Duration.millis(everyMs))),
      Effect.forkScoped
    )
  })

export const AlertsWorkers = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* AppConfig
    yield* loop("alert-evaluator", config.alertEvalIntervalMs, evaluateOnce)
    yield* loop("alert-outbox", Math.min(1_000, config.webhookRetryBaseMs), deliverDue)
  })
).pipe(Layer.provide(Layer.mergeAll(Alerts.Default, Analytics.Default)))
