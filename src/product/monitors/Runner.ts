/**
 * One monitor run: the kind's service (src/product/monitors/kindTable.ts) behind the target
 * guard and a deadline, judged by the monitor's conditions, metered as one request of category
 * `monitors` (quota and request log), and handed to the result writer. When the organization's
 * quota is used up the run is skipped: no result, no alert, its claim freed. A run that could not
 * be made because the service's own DNS resolvers cannot answer for the root zone is skipped the
 * same way (it says nothing about the target; docs/monitors.md), and logged with status 502.
 */
import { Clock, Duration, Effect } from "effect"
import type { Organization } from "../accounts/Keys"
import { AppConfig } from "../../platform/Config"
import { OwnResolversDown } from "../../adapters/dns/ResolverHealth"
import { workSignal } from "../../platform/jitPolicy"
import { Quota } from "../metering/Quota"
import { RequestLog } from "../metering/RequestLog"
import { kindTable } from "./kindTable"
import type { MonitorRunServices } from "./model/kindSpec"
import type { WriterItem } from "./ResultWriter"
import { type Baseline, failedRun, type Verdict } from "./model/analyze"
import type { MonitorRow } from "./rows"
import { vetUrl } from "./model/target"

const messageOf = (e: unknown) =>
  typeof e === "object" && e !== null && "message" in e ? String((e as { message: unknown }).message) : String(e)

/** A run the service could not make for a fault of its own: no verdict on the target. */
export interface Unjudged {
  readonly unjudged: string
}

/**
 * Guard, service, deadline and verdict; never fails (a failed check is a run that is not ok,
 * unless its failure is the service's own resolvers': Unjudged).
 */
export const judge = (m: MonitorRow): Effect.Effect<Verdict | Unjudged, never, AppConfig | MonitorRunServices> =>
  Effect.gen(function*() {
    const spec = kindTable[m.kind]
    const previous: Baseline | null = m.baseline === null ? null : JSON.parse(m.baseline)
    const conditions = JSON.parse(m.conditions)
    const config = yield* AppConfig
    // As for the REST operations: the kind's own deadline, else OPERATION_DEADLINE_MS.
    const deadline = spec.deadlineMs ?? config.operationDeadlineMs
    const guard = spec.guard(m.target)
    const outcome = yield* vetUrl(guard.url, guard.connects).pipe(
      Effect.zipRight(Effect.suspend((): Effect.Effect<unknown, unknown, MonitorRunServices> => spec.run(m.target, conditions, m.org_id))),
      Effect.timeoutFail({ duration: Duration.millis(deadline), onTimeout: () => ({ message: `no answer within ${deadline / 1000} s` }) }),
      Effect.either
    )
    const now = yield* Clock.currentTimeMillis
    if (outcome._tag === "Left") {
      return outcome.left instanceof OwnResolversDown ? { unjudged: outcome.left.message } : failedRun(messageOf(outcome.left), previous)
    }
    return spec.evaluate(conditions, outcome.right, previous, now)
  })

/**
 * Runs a claimed monitor: quota, the check, the request log; what the writer is to store.
 * `location`: where this instance runs; `share`: the claim is a located monitor's share.
 */
export const runMonitor = (m: MonitorRow, org: Organization | undefined, scheduledFor: number, runner: string, location: string, share: boolean) =>
  Effect.gen(function*() {
    const release: WriterItem = { _tag: "release", monitorId: m.id, share: share ? location : null }
    if (org === undefined) return release
    const decision = yield* Effect.flatMap(Quota, (q) => q.consume(org))
    if (decision._tag === "Exceeded") return release
    workSignal.work()
    const startedAt = yield* Clock.currentTimeMillis
    const t0 = performance.now()
    const verdict = yield* judge(m)
    const durationMs = performance.now() - t0
    const unjudged = "unjudged" in verdict
    yield* Effect.flatMap(RequestLog, (log) =>
      log.record({
        orgId: m.org_id,
        operation: "monitorRun",
        category: "monitors",
        method: "RUN",
        path: `/v1/monitors/${m.id}`,
        status: unjudged ? 502 : 200,
        latencyMs: durationMs,
        cache: null,
        ts: startedAt
      }))
    if (unjudged) return release
    return { _tag: "run", run: { monitorId: m.id, scheduledFor, startedAt, durationMs, verdict, runner, location, share } } satisfies WriterItem
  }).pipe(Effect.withSpan("Monitors.run"))
